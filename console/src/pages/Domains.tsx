// Custom domains: add one, see the DNS record to create, and watch its state; the list refreshes
// itself while a domain waits for its record, and "check now" asks DNS at once. A domain no longer
// wanted gets a deletion request (after a confirmation), shown until the operator completes it.
import { Badge, Button, Code, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice, type NoticeState } from '../components/Notice';
import { QueryStatus } from '../components/QueryStatus';
import { FormCard } from '../components/FormCard';
import { CopyValue } from '../components/CopyValue';
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
  const queryClient = useQueryClient();
  const orgId = membership.organizationId;
  const canWrite = membership.permissions.includes('domains.write');
  const key = ['org', orgId, 'domains'];
  const domains = useQuery({
    queryKey: key,
    queryFn: () => api<Page<CustomDomain>>('GET', `/organizations/${orgId}/custom-domains?size=100`),
    // While a record is awaited, the state may change any moment.
    refetchInterval: (query) => (query.state.data?.content.some((d) => d.status === 'PENDING') ? 10_000 : false),
  });
  const [name, setName] = useState('');
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const add = useMutation({
    mutationFn: () => api<CustomDomain>('POST', `/organizations/${orgId}/custom-domains`, { domainName: name.trim() }),
    onSuccess: (d) => {
      setName('');
      setNotice({ ok: true, text: t('domains.added', { name: d.domainName }) });
      void refresh();
    },
    onError: (error: Error) => setNotice({ ok: false, text: error.message }),
  });
  const check = useMutation({
    mutationFn: (id: number) => api<CustomDomain>('POST', `/organizations/${orgId}/custom-domains/${id}/verify`),
    onSuccess: (d) => {
      setNotice({
        ok: d.status !== 'FAILED',
        text: t('domains.checked', { name: d.domainName, status: t(`domains.status.${d.status}`) }),
      });
      void refresh();
    },
    onError: (error: Error) => setNotice({ ok: false, text: error.message }),
  });

  const deletion = useMutation({
    mutationFn: ({ id, requested }: { id: number; requested: boolean }) =>
      api<CustomDomain>(requested ? 'POST' : 'DELETE', `/organizations/${orgId}/custom-domains/${id}/deletion-request`),
    onSuccess: (d) => {
      setNotice({
        ok: true,
        text: t(d.deletionRequested ? 'domains.deletionRequestedNotice' : 'domains.deletionWithdrawn', {
          name: d.domainName,
        }),
      });
      void refresh();
    },
    onError: (error: Error) => setNotice({ ok: false, text: error.message }),
  });
  const requestDeletion = (d: CustomDomain) => {
    if (window.confirm(t('domains.confirmDeletion', { name: d.domainName })))
      deletion.mutate({ id: d.id, requested: true });
  };

  return (
    <Stack>
      <Title order={2}>{t('domains.heading')}</Title>
      <Notice notice={notice} onClose={() => setNotice(null)} />
      <FormCard title={t('domains.add')} readOnly={!canWrite && t('domains.readOnly')} onSubmit={() => add.mutate()}>
        <Group align="flex-end">
          <TextInput
            required
            label={t('domains.name')}
            placeholder="links.example.com"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            disabled={!canWrite}
            w={300}
          />
          <Button type="submit" disabled={!canWrite} loading={add.isPending}>
            {t('domains.addButton')}
          </Button>
        </Group>
      </FormCard>
      <QueryStatus query={domains} />
      {domains.data && domains.data.content.length === 0 && <Text c="dimmed">{t('domains.empty')}</Text>}
      {domains.data && domains.data.content.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('domains.name')}</Table.Th>
                <Table.Th>{t('domains.state')}</Table.Th>
                <Table.Th>{t('domains.record')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {domains.data.content.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>{d.domainName}</Table.Td>
                  <Table.Td>
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
                  </Table.Td>
                  <Table.Td>
                    {d.cnameRecordName && d.cnameRecordValue ? (
                      <Group gap="xs" wrap="nowrap">
                        <Code data-testid="cname">{`${d.cnameRecordName}. CNAME ${d.cnameRecordValue}.`}</Code>
                        <CopyValue value={d.cnameRecordValue} label={d.domainName} compact />
                      </Group>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t('domains.noRecord')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
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
                        <Button
                          size="xs"
                          variant="subtle"
                          disabled={!canWrite}
                          aria-label={`${t('domains.withdrawDeletion')}: ${d.domainName}`}
                          loading={deletion.isPending && deletion.variables?.id === d.id}
                          onClick={() => deletion.mutate({ id: d.id, requested: false })}
                        >
                          {t('domains.withdrawDeletion')}
                        </Button>
                      ) : (
                        <Button
                          size="xs"
                          color="red"
                          variant="subtle"
                          disabled={!canWrite}
                          aria-label={`${t('domains.requestDeletion')}: ${d.domainName}`}
                          loading={deletion.isPending && deletion.variables?.id === d.id}
                          onClick={() => requestDeletion(d)}
                        >
                          {t('domains.requestDeletion')}
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
