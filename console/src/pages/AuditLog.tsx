// The organization's audit log, newest first, a page at a time. The filters (kind of action, who
// acted, a date range in local days) go to the server, so every page is filtered, not only the
// ones loaded.
import { Badge, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../components/DataTable';
import { useFields } from '../components/use-fields';
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
  const { form: days, field, reset: clearDays } = useFields({ fromDay: '', toDay: '' });
  const { fromDay, toDay } = days;
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
        {(
          [
            [
              'audit.filter',
              300,
              AUDIT_ACTIONS.map((a) => ({ value: a, label: `${t(`audit.actions.${a}`, { defaultValue: a })} (${a})` })),
              action,
              setAction,
            ],
            [
              'audit.actor',
              260,
              (members.data ?? []).map((m) => ({ value: String(m.id), label: m.email })),
              actorUserId,
              setActorUserId,
            ],
          ] as const
        ).map(([label, width, data, value, set]) => (
          // A searchable filter whose first choice, "all", is no filter (null).
          <Select
            key={label}
            label={t(label)}
            data={[{ value: '', label: t('audit.all') }, ...data]}
            value={value ?? ''}
            onChange={(v) => set(v || null)}
            searchable
            w={width}
          />
        ))}
        <TextInput type="date" label={t('audit.from')} w={170} {...field('fromDay')} />
        <TextInput type="date" label={t('audit.to')} w={170} {...field('toDay')} />
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setAction(null);
              setActorUserId(null);
              clearDays();
            }}
          >
            {t('audit.clear')}
          </Button>
        )}
      </Group>
      <DataTable
        query={log}
        rows={log.data && entries}
        empty={t(filtered ? 'audit.noMatch' : 'audit.empty')}
        plain="striped"
        columns={[
          { header: t('audit.when'), cell: (e) => new Date(e.createdAt).toLocaleString(i18n.language) },
          {
            header: t('audit.action'),
            cell: (e) => (
              <>
                <Badge variant="light" tt="none">
                  {e.action}
                </Badge>
                <Text size="xs" c="dimmed">
                  {t(`audit.actions.${e.action}`, { defaultValue: '' })}
                </Text>
              </>
            ),
          },
          { header: t('audit.actor'), cell: who },
          { header: t('audit.target'), cell: (e) => e.target ?? '', wrap: 'free' },
        ]}
      />
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
