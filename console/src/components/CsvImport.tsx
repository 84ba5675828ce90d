// The import wizard of the Links screen: pick a CSV file, see its first rows and which columns the
// import reads (parsed here for the preview only, with the service's parser), import it, then each row that failed with its
// reason, and those rows as a CSV to fix and import again. A file of more than 10,000 rows goes as a
// background job (POST /imports/csv), followed here with the progress card of the import jobs.
import { Alert, Badge, Button, FileInput, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type CsvImportAnswer, type ImportJob } from '../api';
import { parseCsv, toCsv } from '../../../src/shared/csv';
import { IMPORT_COLUMNS, URL_COLUMNS } from '../csv';
import { DataTable } from './DataTable';
import { JobCard } from './import-job';
import { useAction } from './use-action';
import type { NoticeState } from './Notice';

const MAX_ROWS = 10_000;
/** What an import job takes (the service refuses more). */
const MAX_JOB_ROWS = 500_000;
const PREVIEW_ROWS = 5;

interface Picked {
  name: string;
  text: string;
  rows: string[][];
}

/** The file the browser saves: the rows that failed, each with its row number and reason first. */
function downloadErrors(picked: Picked, answer: CsvImportAnswer): void {
  const [header = [], ...data] = picked.rows;
  const rows = answer.errors.map((e) => [e.row, e.message, ...(data[e.row - 1] ?? [])]);
  const href = URL.createObjectURL(new Blob([toCsv(['row', 'error', ...header], rows)], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = href;
  a.download = `${picked.name.replace(/\.csv$/i, '')}-errors.csv`;
  a.click();
  URL.revokeObjectURL(href);
}

export function CsvImport({
  orgId,
  notify,
  onClose,
}: {
  orgId: number;
  notify: (notice: NoticeState) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<Picked | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const run = useAction({
    run: (csv: string) => api<CsvImportAnswer>('POST', `/organizations/${orgId}/urls/import`, csv, 'text/csv'),
    done: (answer) => ({
      ok: answer.failed === 0,
      text: t('csvImport.result', { created: answer.created, failed: answer.failed }),
    }),
    notify,
    invalidates: ['org', orgId],
  });
  const background = useAction({
    run: ({ name, text }: Picked) =>
      api<ImportJob>(
        'POST',
        `/organizations/${orgId}/imports/csv?fileName=${encodeURIComponent(name)}`,
        text,
        'text/csv',
      ),
    done: () => t('csvImport.jobStarted'),
    notify,
    invalidates: ['org', orgId],
  });

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    run.reset();
    background.reset();
    if (!chosen) return setPicked(null);
    const text = await chosen.text();
    setPicked({ name: chosen.name, text, rows: parseCsv(text) });
  };

  const header = picked?.rows[0] ?? [];
  /** The header's columns with their place, which keys them (two may have the same name). */
  const columns = header.map((name, place) => ({
    name: name.trim(),
    place,
    read: IMPORT_COLUMNS.includes(name.trim()),
  }));
  const dataRows = Math.max((picked?.rows.length ?? 0) - 1, 0);
  const hasUrl = header.some((h) => URL_COLUMNS.includes(h.trim()));
  const problem = !picked
    ? null
    : !hasUrl
      ? t('csvImport.noUrlColumn')
      : dataRows > MAX_JOB_ROWS
        ? t('csvImport.tooMany', { max: MAX_JOB_ROWS.toLocaleString() })
        : null;
  /** Too many rows for one call: the file goes as a job. */
  const asJob = dataRows > MAX_ROWS;
  const answer = run.data;
  const job = background.data;

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('csvImport.heading')}
      size="xl"
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <Stack>
        <FileInput
          label={t('csvImport.file')}
          description={t('csvImport.fileHint')}
          accept=".csv,text/csv"
          value={file}
          onChange={(f) => void choose(f)}
          clearable
          clearButtonProps={{ 'aria-label': t('csvImport.clear') }}
        />
        {picked && (
          <>
            <Group gap={4} data-testid="csv-columns">
              <Text size="sm">{t('csvImport.columns')}</Text>
              {columns.map((c) => (
                <Badge key={c.place} variant={c.read ? 'filled' : 'outline'} color={c.read ? 'blue' : 'gray'} tt="none">
                  {c.name}
                </Badge>
              ))}
            </Group>
            <Text size="sm" c="dimmed">
              {t('csvImport.rows', { count: dataRows })}
            </Text>
            {asJob && !problem && (
              <Alert color="blue" data-testid="csv-as-job">
                {t('csvImport.asJob', { max: MAX_ROWS.toLocaleString() })}
              </Alert>
            )}
            {problem && (
              <Alert color="red" role="alert">
                {problem}
              </Alert>
            )}
            <Text size="sm" fw={600}>
              {t('csvImport.preview')}
            </Text>
            <Table.ScrollContainer minWidth={480}>
              <Table striped data-testid="csv-preview">
                <Table.Thead>
                  <Table.Tr>
                    {columns.map((c) => (
                      <Table.Th key={c.place}>{c.name}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {picked.rows.slice(1, PREVIEW_ROWS + 1).map((row, r) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the preview's rows never move
                    <Table.Tr key={r}>
                      {columns.map((c) => (
                        <Table.Td key={c.place} style={{ overflowWrap: 'anywhere' }}>
                          {row[c.place] ?? ''}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )}
        {answer && answer.errors.length > 0 && picked && (
          <Stack gap="xs" data-testid="csv-errors">
            <DataTable
              rows={answer.errors}
              rowKey={(e) => e.row}
              minWidth={360}
              columns={[
                { header: t('csvImport.row'), align: 'right', cell: (e) => e.row },
                { header: t('csvImport.message'), cell: (e) => e.message, wrap: 'free' },
              ]}
            />
            <Group>
              <Button variant="light" onClick={() => downloadErrors(picked, answer)}>
                {t('csvImport.downloadErrors')}
              </Button>
            </Group>
          </Stack>
        )}
        {job && <JobCard key={job.id} orgId={orgId} id={job.id} canWrite />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('close')}
          </Button>
          <Button
            disabled={!picked || problem !== null || answer !== undefined || job !== undefined}
            loading={run.isPending || background.isPending}
            onClick={() => picked && (asJob ? background.mutate(picked) : run.mutate(picked.text))}
          >
            {asJob ? t('csvImport.jobButton') : t('csvImport.importButton')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
