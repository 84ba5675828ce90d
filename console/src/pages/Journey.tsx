// The user-journey dashboard (add-on): sessions, users and conversion over the period, sessions
// and transitions per day, platforms and UTM sources, web ↔ app transitions, the web funnel with
// its stage labels, and the session list with one session's events on a click. One call answers
// the dashboard (the journey API's own /stats/dashboard); the list and the events page on demand.
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Modal,
  Pagination,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ApiError,
  api,
  type JourneyDashboardData,
  type JourneyEvent,
  type JourneySession,
  type Membership,
  type Page,
} from '../api';
import { QueryStatus } from '../components/QueryStatus';
import { pathOf } from '../navigation';
import { useDashboardState } from '../dashboard/dashboard-state';
import { CompareSwitch, DailyChart, FunnelTable, KpiCards, useCompared } from '../dashboard/figures';
import { Panel } from '../dashboard/Panel';
import { type PeriodChoice, periodQuery } from '../dashboard/period';
import { PeriodPicker } from '../dashboard/PeriodPicker';
import { rowsOf, TopList } from '../dashboard/TopList';

function SessionEvents({ orgId, sessionId, onClose }: { orgId: number; sessionId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const events = useQuery({
    queryKey: ['org', orgId, 'journey-events', sessionId],
    queryFn: () =>
      api<Page<JourneyEvent>>(
        'GET',
        `/organizations/${orgId}/journey/session/${encodeURIComponent(sessionId)}/events?size=100`,
      ),
  });
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={t('journey.sessionTitle', { id: sessionId })}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <QueryStatus query={events} />
      {events.data && events.data.content.length === 0 && <Text c="dimmed">{t('journey.noEvents')}</Text>}
      {events.data && events.data.content.length > 0 && (
        <Table data-testid="session-events">
          <Table.Tbody>
            {events.data.content.map((e) => (
              <Table.Tr key={e.eventId}>
                <Table.Td>{new Date(e.occurredAt).toLocaleString(i18n.language)}</Table.Td>
                <Table.Td>
                  <Code>{e.eventType}</Code>
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{JSON.stringify(e.properties)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Modal>
  );
}

export default function Journey({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const orgId = membership.organizationId;
  const [state, setState] = useDashboardState(pathOf('journey'));
  const { choice } = state;
  const setChoice = (next: PeriodChoice) => setState({ ...state, choice: next });
  const [page, setPage] = useState(0);
  const [opened, setOpened] = useState<string | null>(null);
  const query = periodQuery(choice);
  const params = new URLSearchParams(query);
  const dashboard = useQuery({
    queryKey: ['org', orgId, 'journey', query, state.compare],
    queryFn: () =>
      api<JourneyDashboardData>(
        'GET',
        `/organizations/${orgId}/journey/dashboard?${params}&compare=${state.compare ? 'previous' : 'off'}`,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  const sessions = useQuery({
    queryKey: ['org', orgId, 'journey-sessions', query, page],
    queryFn: () =>
      api<Page<JourneySession>>(
        'GET',
        `/organizations/${orgId}/journey/stats/sessions/list?${params}&page=${page}&size=20`,
      ),
    placeholderData: keepPreviousData,
    enabled: dashboard.isSuccess,
  });
  const n = (value: number) => value.toLocaleString(i18n.language);
  const d = dashboard.data;
  const comparison = state.compare ? (d?.comparison ?? null) : null;
  const compared = useCompared(comparison, d?.meta.timeZone, n);
  const addOnMissing = dashboard.error instanceof ApiError && dashboard.error.code === 'ADD_ON_REQUIRED';
  const empty = d && d.summary.totalSessions === 0 && t('journey.noSessions');
  const csv = (panel: string) =>
    `/console/api/organizations/${orgId}/journey/export.csv?${new URLSearchParams({ ...query, panel, ...(state.compare ? { compare: 'previous' } : {}) })}`;

  return (
    <Stack>
      <Title order={2}>{t('journey.heading')}</Title>
      {addOnMissing ? (
        <Alert color="yellow" role="note" title={t('journey.addOnTitle')}>
          {t('journey.addOn')}
        </Alert>
      ) : (
        <>
          <Group align="flex-end" wrap="wrap">
            <PeriodPicker value={choice} onChange={setChoice} />
            <CompareSwitch checked={state.compare} onChange={(compare) => setState({ ...state, compare })} />
          </Group>
          <QueryStatus query={dashboard} />
        </>
      )}
      {d && (
        <>
          <KpiCards
            items={(
              [
                ['sessions', d.summary.totalSessions, 'totalSessions'],
                ['users', d.summary.uniqueUsers, 'uniqueUsers'],
                ['transitions', d.summary.totalTransitions, 'totalTransitions'],
                ['goals', d.summary.goalCompletions, 'goalCompletions'],
              ] as const
            ).map(([id, value, key]) => ({
              id: `journey-${id}`,
              label: t(`journey.kpi.${id}`),
              value: n(value),
              under: compared(comparison?.[key] ?? null, `journey-${id}-change`),
            }))}
          />
          <Panel title={t('journey.daily')} csv={csv('daily')} empty={empty}>
            <DailyChart
              label={t('journey.dailyLabel')}
              rows={d.daily}
              previous={comparison?.comparable ? comparison.daily : undefined}
              format={n}
              legend={{ top: 0 }}
              series={[
                { name: t('journey.kpi.sessions'), value: (r) => r.sessions, draw: { type: 'line' } },
                { name: t('journey.kpi.transitions'), value: (r) => r.transitions, draw: { type: 'bar' } },
              ]}
            />
          </Panel>
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            <Panel title={t('journey.platforms')} csv={csv('platforms')} empty={empty}>
              <TopList items={rowsOf(d.platforms, 'platform', 'sessions', comparison?.platforms)} />
            </Panel>
            <Panel title={t('journey.utm')} csv={csv('utmSources')} empty={empty}>
              <TopList items={rowsOf(d.topUtmSources, 'utmSource', 'sessions', comparison?.topUtmSources)} />
            </Panel>
            <Panel
              title={t('journey.transitions')}
              csv={csv('transitions')}
              empty={d.transitions.totalTransitions === 0 && t('journey.noTransitions')}
            >
              <Group gap="xs" mb="xs">
                <Badge variant="light">{t('journey.webToApp', { count: d.transitions.webToApp })}</Badge>
                <Badge variant="light">{t('journey.appToWeb', { count: d.transitions.appToWeb })}</Badge>
              </Group>
              <TopList
                items={d.transitions.paths.map((p) => ({
                  name: `${p.fromPlatform} → ${p.toPlatform}`,
                  count: p.count,
                  percentage: p.percentage,
                }))}
              />
            </Panel>
          </SimpleGrid>
          <Panel
            title={t('journey.funnel')}
            csv={csv('funnel')}
            empty={d.funnel.totalSessions === 0 && t('journey.noSessions')}
          >
            <FunnelTable
              testId="journey-funnel"
              stages={d.funnel.stages.map((s, i) => ({
                key: s.stageName,
                name: t(`journey.stages.${s.stageName}`, { defaultValue: s.stageName }),
                reached: n(s.sessionsReached),
                share: `${s.percentageOfSessions.toLocaleString(i18n.language)}%`,
                step: i > 0 ? `${s.conversionRate.toLocaleString(i18n.language)}%` : null,
              }))}
            />
          </Panel>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {(
              [
                [
                  'eventTypes',
                  d.topEventTypes.map((e) => ({ name: e.eventType, count: e.count })),
                  d.summary.totalEvents,
                ],
                [
                  'goalTypes',
                  d.topGoalTypes.map((g) => ({ name: g.goalType, count: g.count })),
                  d.summary.goalCompletions,
                ],
              ] as const
            ).map(([panel, top, total]) => (
              <Panel
                key={panel}
                title={t(`journey.${panel}`)}
                csv={csv(panel)}
                empty={top.length === 0 && t('dashboard.nothing')}
              >
                <TopList
                  items={top.map((x) => ({
                    ...x,
                    percentage: total ? Math.round((x.count / total) * 1000) / 10 : 0,
                  }))}
                />
              </Panel>
            ))}
          </SimpleGrid>
          <Panel title={t('journey.sessions')} empty={empty}>
            <QueryStatus query={sessions} />
            {sessions.data && (
              <>
                <Table.ScrollContainer minWidth={640}>
                  <Table highlightOnHover data-testid="journey-session-list">
                    <Table.Tbody>
                      {sessions.data.content.map((s) => (
                        <Table.Tr key={s.sessionId}>
                          <Table.Td>
                            {new Date(s.startedAt).toLocaleString(i18n.language, { timeZone: query.timeZone })}
                          </Table.Td>
                          <Table.Td>{s.platform}</Table.Td>
                          <Table.Td>{s.externalUserId ?? '—'}</Table.Td>
                          <Table.Td>{s.utmSource ?? '—'}</Table.Td>
                          <Table.Td ta="right">{t('journey.eventsCount', { count: s.events })}</Table.Td>
                          <Table.Td>
                            {s.furthestStage
                              ? t(`journey.stages.${s.furthestStage}`, { defaultValue: s.furthestStage })
                              : '—'}
                          </Table.Td>
                          <Table.Td>
                            <Button
                              size="xs"
                              variant="subtle"
                              onClick={() => setOpened(s.sessionId)}
                              aria-label={`${t('journey.events')}: ${s.sessionId}`}
                            >
                              {t('journey.events')}
                            </Button>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
                {sessions.data.totalPages > 1 && (
                  <Pagination
                    total={sessions.data.totalPages}
                    value={page + 1}
                    onChange={(p) => setPage(p - 1)}
                    aria-label={t('links.pages')}
                  />
                )}
              </>
            )}
          </Panel>
        </>
      )}
      {opened && <SessionEvents orgId={orgId} sessionId={opened} onClose={() => setOpened(null)} />}
    </Stack>
  );
}
