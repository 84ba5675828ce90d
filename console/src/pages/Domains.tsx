// Custom domains: add one, see the DNS record to create, and watch its state; the list refreshes
// itself while a domain waits for its record, and "check now" asks DNS at once. A domain no longer
// wanted gets a deletion request (after a confirmation), shown until the operator completes it.
import { Badge, Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../components/Notice';
import { DataTable } from '../components/DataTable';
import { useFields } from '../components/use-fields';
import { useOrgList } from '../components/use-org-list';
import { useAction } from '../components/use-action';
import { FormCard } from '../components/FormCard';
import { Screen } from '../components/Screen';
import { CopyValue } from '../components/CopyValue';
import { ConfirmButton, RowButton } from '../components/DeleteButton';
import { api, type CustomDomain, type Membership, type Page } from '../api';

const STATUS_COLORS: Record<string, string> = {
  PENDING: 'blue',
  VERIFIED: 'teal',
  ACTIVE: 'green',
  FAILED: 'red',
  REVOKED: 'gray',
};

export default function Domains({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const orgId = membership.organizationId;
  const canWrite = membership.permissions.includes('domains.write');
  const { key, list: domains } = useOrgList<Page<CustomDomain>>(orgId, 'domains', 'custom-domains?size=100', {
    // While a record is awaited, the state may change any moment.
    refetchInterval: (query) => (query.state.data?.content.some((d) => d.status === 'PENDING') ? 10_000 : false),
  });
  const { form, field, reset } = useFields({ name: '' }, !canWrite);
  const { notify, noticeBox } = useNotice();
  const add = useAction({
    run: () => api<CustomDomain>('POST', `/organizations/${orgId}/custom-domains`, { domainName: form.name.trim() }),
    after: reset,
    done: (d) => t('domains.added', { name: d.domainName }),
    notify,
    invalidates: key,
  });
  const check = useAction({
    run: (id: number) => api<CustomDomain>('POST', `/organizations/${orgId}/custom-domains/${id}/verify`),
    done: (d) => ({
      ok: d.status !== 'FAILED',
      text: t('domains.checked', { name: d.domainName, status: t(`domains.status.${d.status}`) }),
    }),
    notify,
    invalidates: key,
  });
  const deletion = useAction({
    run: ({ id, requested }: { id: number; requested: boolean }) =>
      api<CustomDomain>(requested ? 'POST' : 'DELETE', `/organizations/${orgId}/custom-domains/${id}/deletion-request`),
    done: (d) =>
      t(d.deletionRequested ? 'domains.deletionRequestedNotice' : 'domains.deletionWithdrawn', { name: d.domainName }),
    notify,
    invalidates: key,
  });

  return (
    <Screen heading={t('domains.heading')} notice={noticeBox}>
      <FormCard
        title={t('domains.add')}
        readOnly={!canWrite && t('domains.readOnly')}
        action={add}
        submit={{ label: t('domains.addButton') }}
      >
        <TextInput required label={t('domains.name')} placeholder="links.example.com" w={300} {...field('name')} />
      </FormCard>
      <DataTable
        query={domains}
        rows={domains.data?.content}
        rowKey={(d) => d.id}
        empty={t('domains.empty')}
        columns={[
          { header: t('domains.name'), cell: (d) => d.domainName },
          {
            header: t('domains.state'),
            cell: (d) => (
              <Stack gap={4} align="flex-start">
                <Badge color={STATUS_COLORS[d.status] ?? 'gray'} variant="light">
                  {t(`domains.status.${d.status}`)}
                </Badge>
                {d.deletionRequested && (
                  <Badge color="red" variant="light">
                    {t('domains.deletionRequested', {
                      date: d.deletionRequestedAt
                        ? new Date(`${d.deletionRequestedAt}Z`).toLocaleDateString(i18n.language)
                        : '',
                    })}
                  </Badge>
                )}
              </Stack>
            ),
          },
          {
            header: t('domains.record'),
            cell: (d) =>
              d.cnameRecordName && d.cnameRecordValue ? (
                <Group gap="xs" wrap="nowrap">
                  <Code data-testid="cname">{`${d.cnameRecordName}. CNAME ${d.cnameRecordValue}.`}</Code>
                  <CopyValue value={d.cnameRecordValue} label={d.domainName} compact />
                </Group>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('domains.noRecord')}
                </Text>
              ),
          },
          {
            cell: (d) => (
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="xs"
                  variant="light"
                  disabled={!canWrite || d.status === 'ACTIVE'}
                  loading={check.isPending && check.variables === d.id}
                  onClick={() => check.mutate(d.id)}
                >
                  {t('domains.checkNow')}
                </Button>
                {d.deletionRequested ? (
                  <RowButton
                    label={t('domains.withdrawDeletion')}
                    name={d.domainName}
                    disabled={!canWrite}
                    loading={deletion.isPending && deletion.variables?.id === d.id}
                    onClick={() => deletion.mutate({ id: d.id, requested: false })}
                  />
                ) : (
                  <ConfirmButton
                    label={t('domains.requestDeletion')}
                    name={d.domainName}
                    confirm={t('domains.confirmDeletion', { name: d.domainName })}
                    disabled={!canWrite}
                    loading={deletion.isPending && deletion.variables?.id === d.id}
                    onConfirm={() => deletion.mutate({ id: d.id, requested: true })}
                  />
                )}
              </Group>
            ),
          },
        ]}
      />
    </Screen>
  );
}
