// One import job as the console shows it: its state as a badge, and a card that follows it while
// it runs (read again every second) with its progress, then its summary, why it failed, the links
// that failed, and a way to stop it while it runs.
import { Alert, Badge, Card, Group, List, Progress, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, type ImportJob, type ImportSource } from '../api';
import { ConfirmButton } from './DeleteButton';
import { useNotice } from './Notice';
import { QueryStatus } from './QueryStatus';
import { useAction } from './use-action';

/** A source as its makers write it: capitalised, YOURLS and CSV in capitals. */
export const sourceName = (s: ImportSource | 'csv') =>
  s === 'yourls' || s === 'csv' ? s.toUpperCase() : `${s[0]!.toUpperCase()}${s.slice(1)}`;
export const ENDED: ImportJob['status'][] = ['completed', 'failed', 'cancelled'];
const COLOR: Record<ImportJob['status'], string> = {
  queued: 'gray',
  running: 'blue',
  completed: 'green',
  failed: 'red',
  cancelled: 'orange',
};

export function StatusBadge({ status }: { status: ImportJob['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={COLOR[status]} variant="light">
      {t(`importJobs.status.${status}`)}
    </Badge>
  );
}

/** One job as it goes: progress, then the summary, why it failed, the links that failed. */
export function JobCard({ orgId, id, canWrite }: { orgId: number; id: number; canWrite: boolean }) {
  const { t } = useTranslation();
  const { notify, noticeBox } = useNotice();
  const job = useQuery({
    queryKey: ['org', orgId, 'imports', id],
    queryFn: () => api<ImportJob>('GET', `/organizations/${orgId}/imports/${id}`),
    refetchInterval: (query) => (query.state.data && ENDED.includes(query.state.data.status) ? false : 1000),
  });
  const cancel = useAction({
    run: () => api<ImportJob>('POST', `/organizations/${orgId}/imports/${id}/cancel`),
    done: () => null,
    notify,
    invalidates: ['org', orgId, 'imports'],
  });
  const data = job.data;
  const done = data ? data.imported + data.skipped + data.failed : 0;
  const ended = data ? ENDED.includes(data.status) : false;
  const percent = data?.total ? Math.min(100, Math.round((done / data.total) * 100)) : ended ? 100 : 0;
  return (
    <Card withBorder data-testid="import-job">
      <QueryStatus query={job} />
      {noticeBox}
      {data && (
        <Stack gap="xs">
          <Group justify="space-between">
            <Title order={3} size="h5">
              {sourceName(data.source)} · {data.url}
            </Title>
            <StatusBadge status={data.status} />
          </Group>
          <Progress
            value={percent}
            animated={!ended}
            striped={!ended}
            aria-label={t('importJobs.progress', { done, total: data.total ?? '?' })}
          />
          <Text size="sm">
            {t('importJobs.progress', { done, total: data.total ?? '?' })} —{' '}
            {t('importJobs.summary', { imported: data.imported, skipped: data.skipped, failed: data.failed })}
          </Text>
          {data.failure && (
            <Alert color="red" role="alert">
              {t('importJobs.failure', { reason: data.failure })}
            </Alert>
          )}
          {data.errors.length > 0 && (
            <>
              <Text size="sm" fw={600}>
                {t('importJobs.errors')}
              </Text>
              <List size="sm" data-testid="import-errors">
                {data.errors.map((e) => (
                  <List.Item key={e.sourceId}>
                    {e.row === undefined ? e.sourceId : t('importJobs.row', { row: e.row })}: {e.message}
                  </List.Item>
                ))}
              </List>
            </>
          )}
          {!ended && (
            <Group>
              <ConfirmButton
                label={t('importJobs.cancel')}
                confirm={t('importJobs.cancelConfirm')}
                onConfirm={() => cancel.mutate()}
                variant="light"
                size="sm"
                disabled={!canWrite}
                loading={cancel.isPending}
              />
            </Group>
          )}
        </Stack>
      )}
    </Card>
  );
}
