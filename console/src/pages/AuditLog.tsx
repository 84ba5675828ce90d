// The organization's audit log, newest first, a page at a time. The filters (kind of action, who
// acted, a date range in local days) go to the server, so every page is filtered, not only the
// ones loaded.
import { Badge, Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryStatus } from '../components/QueryStatus';
import { AUDIT_ACTIONS, api, type AuditEntry, type Member, type Membership } from '../api';
import { NotAllowed } from '../components/NotAllowed';

const PAGE = 50;

/** The query string of the filters; a local day's start and the next day's start as instants. */
export function auditQuery(
  filter: { action: string | null; actorUserId: string | null; fromDay: string; toDay: string },
  before?: number,
): string {
  const query = new URLSearchParams({ limit: String(PAGE) });
  if (before) query.set('before', String(before));
  if (filter.action) query.set('action', filter.action);
  if (filter.actorUserId) query.set('actorUserId', filter.actorUserId);
  const dayStart = (day: string, plus = 0) => {
    const [y, m, d] = day.split('-').map(Number);
    return new Date(y!, m! - 1, d! + plus).toISOString();
  };
  if (/^\d{4}-\d{2}-\d{2}$/.test(filter.fromDay)) query.set('from', dayStart(filter.fromDay));
  if (/^\d{4}-\d{2}-\d{2}$/.test(filter.toDay)) query.set('to', dayStart(filter.toDay, 1));
  return query.toString();
}

export default function AuditLog({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const orgId = membership.organizationId;
  const allowed = membership.permissions.includes('audit.read');
  const [action, setAction] = useState<string | null>(null);
  const [actorUserId, setActorUserId] = useState<string | null>(null);
  const [fromDay, setFromDay] = useState('');
  const [toDay, setToDay] = useState('');
  const filter = { action, actorUserId, fromDay, toDay };
  const members = useQuery({
    queryKey: ['org', orgId, 'members'],
    queryFn: () => api<Member[]>('GET', `/organizations/${orgId}/members`),
    enabled: allowed,
  });
  const log = useInfiniteQuery({
    queryKey: ['org', orgId, 'audit', filter],
    enabled: allowed,
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      api<AuditEntry[]>('GET', `/organizations/${orgId}/audit-log?${auditQuery(filter, pageParam)}`),
    getNextPageParam: (last) => (last.length === PAGE ? last[last.length - 1]!.id : undefined),
  });

  if (!allowed) return <NotAllowed heading={t('audit.heading')} message={t('audit.forbidden')} />;
  const entries = log.data?.pages.flat() ?? [];
  const filtered = Boolean(action || actorUserId || fromDay || toDay);
  const who = (e: AuditEntry) =>
    e.actor
      ? e.actor.name
        ? `${e.actor.name} <${e.actor.email}>`
        : e.actor.email
      : t(`audit.actorType.${e.actorType}`, { defaultValue: e.actorType });

  return (
    <Stack>
      <Title order={2}>{t('audit.heading')}</Title>
      <Group align="flex-end" wrap="wrap">
        <Select
          label={t('audit.filter')}
          data={[
            { value: '', label: t('audit.all') },
            ...AUDIT_ACTIONS.map((a) => ({
              value: a,
              label: `${t(`audit.actions.${a}`, { defaultValue: a })} (${a})`,
            })),
          ]}
          value={action ?? ''}
          onChange={(v) => setAction(v || null)}
          searchable
          w={300}
        />
        <Select
          label={t('audit.actor')}
          data={[
            { value: '', label: t('audit.all') },
            ...(members.data ?? []).map((m) => ({ value: String(m.id), label: m.email })),
          ]}
          value={actorUserId ?? ''}
          onChange={(v) => setActorUserId(v || null)}
          searchable
          w={260}
        />
        <TextInput
          type="date"
          label={t('audit.from')}
          value={fromDay}
          onChange={(e) => setFromDay(e.currentTarget.value)}
          w={170}
        />
        <TextInput
          type="date"
          label={t('audit.to')}
          value={toDay}
          onChange={(e) => setToDay(e.currentTarget.value)}
          w={170}
        />
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setAction(null);
              setActorUserId(null);
              setFromDay('');
              setToDay('');
            }}
          >
            {t('audit.clear')}
          </Button>
        )}
      </Group>
      <QueryStatus query={log} />
      {log.data && entries.length === 0 && <Text c="dimmed">{t(filtered ? 'audit.noMatch' : 'audit.empty')}</Text>}
      {entries.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
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
              {entries.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{new Date(e.createdAt).toLocaleString(i18n.language)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" tt="none">
                      {e.action}
                    </Badge>
                    <Text size="xs" c="dimmed">
                      {t(`audit.actions.${e.action}`, { defaultValue: '' })}
                    </Text>
                  </Table.Td>
                  <Table.Td>{who(e)}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{e.target ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {log.hasNextPage && (
        <Button
          variant="light"
          onClick={() => void log.fetchNextPage()}
          loading={log.isFetchingNextPage}
          w="fit-content"
        >
          {t('audit.more')}
        </Button>
      )}
    </Stack>
  );
}
