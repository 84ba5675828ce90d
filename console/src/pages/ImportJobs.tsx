// Imports from other link services (Bitly, Shlink, Kutt, YOURLS, Dub, Rebrandly) as background
// jobs: start one with the service's token (and its address for a self-hosted one), follow its
// progress while it runs (the job is read again every second), its summary and the links that
// failed once it ends; stop it; and the past jobs, any of which opens the same way.
import { PasswordInput, Select, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  api,
  fieldErrors,
  IMPORT_SOURCES,
  type ImportJob,
  type ImportJobs as Jobs,
  type ImportSource,
  type Membership,
} from '../api';
import { DataTable } from '../components/DataTable';
import { RowButton } from '../components/DeleteButton';
import { FormCard } from '../components/FormCard';
import { Screen } from '../components/Screen';
import { ENDED, JobCard, StatusBadge, sourceName } from '../components/import-job';
import { useNotice } from '../components/Notice';
import { useAction } from '../components/use-action';
import { usePages } from '../components/use-pages';

/** Services that run on the customer's own server: the address is needed (Kutt: when not kutt.it). */
const SELF_HOSTED: ImportSource[] = ['shlink', 'yourls', 'kutt'];
const ADDRESS_REQUIRED: ImportSource[] = ['shlink', 'yourls'];

export default function ImportJobs({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const orgId = membership.organizationId;
  const canWrite = membership.permissions.includes('links.write');
  const { notify, noticeBox } = useNotice();
  const [source, setSource] = useState<ImportSource>('bitly');
  const [token, setToken] = useState('');
  const [url, setUrl] = useState('');
  const [shown, setShown] = useState<number | null>(null);
  const { page, paging } = usePages();
  const jobs = useQuery({
    queryKey: ['org', orgId, 'imports', 'list', page],
    queryFn: () => api<Jobs>('GET', `/organizations/${orgId}/imports?page=${page}&size=20`),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.content.some((j) => !ENDED.includes(j.status)) ? 2000 : false),
  });
  const start = useAction({
    run: () =>
      api<ImportJob>('POST', `/organizations/${orgId}/imports`, {
        source,
        token: token.trim(),
        ...(SELF_HOSTED.includes(source) && url.trim() ? { url: url.trim() } : {}),
      }),
    after: (job) => {
      setToken('');
      setShown(job.id);
    },
    done: () => t('importJobs.started'),
    notify,
    invalidates: ['org', orgId, 'imports'],
  });
  const errors = fieldErrors(start.error);
  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : '—');

  return (
    <Screen heading={t('importJobs.heading')} notice={noticeBox}>
      <FormCard
        title={t('importJobs.start')}
        readOnly={!canWrite && t('importJobs.readOnly')}
        action={start}
        submit={{
          label: t('importJobs.startButton'),
          disabled: !token.trim(),
          errorsBelow: true,
        }}
      >
        <Select
          label={t('importJobs.source')}
          data={IMPORT_SOURCES.map((s) => ({ value: s, label: sourceName(s) }))}
          value={source}
          onChange={(v) => v && setSource(v as ImportSource)}
          allowDeselect={false}
          disabled={!canWrite}
          w={180}
          error={errors.source}
        />
        <PasswordInput
          required
          label={t('importJobs.token')}
          description={t('importJobs.tokenHint')}
          value={token}
          onChange={(e) => setToken(e.currentTarget.value)}
          autoComplete="off"
          disabled={!canWrite}
          w={280}
          error={errors.token}
        />
        {SELF_HOSTED.includes(source) && (
          <TextInput
            type="url"
            required={ADDRESS_REQUIRED.includes(source)}
            label={t('importJobs.url')}
            description={t('importJobs.urlHint')}
            placeholder="https://"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            disabled={!canWrite}
            w={280}
            error={errors.url}
          />
        )}
      </FormCard>
      {shown !== null && <JobCard key={shown} orgId={orgId} id={shown} canWrite={canWrite} />}
      <Title order={3} size="h4">
        {t('importJobs.past')}
      </Title>
      <DataTable
        query={jobs}
        rows={jobs.data?.content}
        rowKey={(job) => job.id}
        empty={t('importJobs.empty')}
        testId="import-jobs"
        paging={paging(jobs.data)}
        columns={[
          { header: t('importJobs.source'), cell: (job) => sourceName(job.source) },
          { header: t('importJobs.url'), cell: (job) => job.url, wrap: true },
          { header: t('importJobs.statusHeader'), cell: (job) => <StatusBadge status={job.status} /> },
          {
            header: t('importJobs.counts'),
            cell: (job) =>
              t('importJobs.summary', { imported: job.imported, skipped: job.skipped, failed: job.failed }),
          },
          { header: t('importJobs.createdAt'), cell: (job) => date(job.createdAt) },
          { header: t('importJobs.finishedAt'), cell: (job) => date(job.finishedAt) },
          {
            cell: (job) => (
              <RowButton label={t('importJobs.show')} name={`#${job.id}`} onClick={() => setShown(job.id)} />
            ),
          },
        ]}
      />
    </Screen>
  );
}
