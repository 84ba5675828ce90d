// The organization's audit log, newest first, a page at a time, filtered by kind of action.
import { Alert, Badge, Button, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryStatus } from '../components/QueryStatus';
import { api, type AuditEntry, type Membership } from '../api';

const PAGE = 50;

export default function AuditLog({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const orgId = membership.organizationId;
  const allowed = membership.permissions.includes('audit.read');
  const [action, setAction] = useState<string | null>(null);
  const log = useInfiniteQuery({
    queryKey: ['org', orgId, 'audit'],
    enabled: allowed,
    initialPageParam: 0,
    queryFn: ({ pageParam }) => api<AuditEntry[]>('GET', `/organizations/${orgId}/audit-log?limit=${PAGE}${pageParam ? `&before=${pageParam}` : ''}`),
    getNextPageParam: (last) => (last.length === PAGE ? last[last.length - 1]!.id : undefined),
  });

  if (!allowed) return <Alert color="gray">{t('audit.forbidden')}</Alert>;
  const entries = log.data?.pages.flat() ?? [];
  const actions = [...new Set(entries.map((e) => e.action))].sort();
  const shown = action ? entries.filter((e) => e.action === action) : entries;

  return (
    <Stack>
      <Title order={2}>{t('audit.heading')}</Title>
      <Select
        label={t('audit.filter')}
        data={[{ value: '', label: t('audit.all') }, ...actions.map((a) => ({ value: a, label: a }))]}
        value={action ?? ''}
        onChange={(v) => setAction(v || null)}
        w={260}
      />
      <QueryStatus query={log} />
      {log.data && shown.length === 0 && <Text c="dimmed">{t('audit.empty')}</Text>}
      {shown.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('audit.when')}</Table.Th>
                <Table.Th>{t('audit.action')}</Table.Th>
                <Table.Th>{t('audit.actor')}</Table.Th>
                <Table.Th>{t('audit.target')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{new Date(e.createdAt).toLocaleString(i18n.language)}</Table.Td>
                  <Table.Td><Badge variant="light">{e.action}</Badge></Table.Td>
                  <Table.Td>{e.actorType}{e.actorUserId === null ? '' : ` #${e.actorUserId}`}</Table.Td>
                  <Table.Td>{e.target ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {log.hasNextPage && (
        <Button variant="light" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} w="fit-content">
          {t('audit.more')}
        </Button>
      )}
    </Stack>
  );
}
