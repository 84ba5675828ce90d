// A mobile app's install dashboard: installs per day by platform, platforms and countries, the
// newest installs with how each was matched, re-engagement, the funnel with its stage labels and
// the conversion between stages, and the quality of deep-link resolution. The figures are the
// Service API's install statistics of the app (same query), with the previous period's beside the
// headline figures, the daily installs, and each row of the sources and countries when the
// comparison is on; every panel has its CSV. The
// period, zone and comparison live in the page's address (dashboard-state.ts).
import { Badge, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AppDashboardData, api } from '../api';
import { DataTable } from '../components/DataTable';
import { QueryStatus } from '../components/QueryStatus';
import { pathOfStats } from '../navigation';
import { useDashboardState } from './dashboard-state';
import { CompareSwitch, DailyChart, FunnelTable, KpiCards, useCompared } from './figures';
import { Panel } from './Panel';
import { type PeriodChoice, periodQuery } from './period';
import { PeriodPicker } from './PeriodPicker';
import { RevenuePanel } from './RevenuePanel';
import { rowsOf, TopList } from './TopList';

type Platform = 'All' | 'iOS' | 'Android';

export function AppDashboard({ orgId, appId }: { orgId: number; appId: number }) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useDashboardState(pathOfStats('app', appId));
  const { choice } = state;
  const setChoice = (next: PeriodChoice) => setState({ ...state, choice: next });
  const [platform, setPlatform] = useState<Platform>('All');
  const query = { ...periodQuery(choice), platform };
  const stats = useQuery({
    queryKey: ['org', orgId, 'app-stats', appId, query, state.compare],
    queryFn: () =>
      api<AppDashboardData>(
        'GET',
        `/organizations/${orgId}/dashboard/apps/${appId}?${new URLSearchParams({ ...query, compare: state.compare ? 'previous' : 'off' })}`,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  const s = stats.data;
  const n = (value: number) => value.toLocaleString(i18n.language);
  const comparison = state.compare ? (s?.comparison ?? null) : null;
  const compared = useCompared(comparison, s?.meta.timeZone, n);
  const pct = (value: number) => `${value.toLocaleString(i18n.language)}%`;
  const csv = (panel: string) =>
    `/console/api/organizations/${orgId}/dashboard/apps/${appId}/export.csv?${new URLSearchParams({ ...query, panel, ...(state.compare ? { compare: 'previous' } : {}) })}`;
  const noInstalls = s && s.totalInstalls === 0 && t('appStats.noInstalls');

  return (
    <Stack>
      <Title order={2}>{s ? t('appStats.heading', { name: s.appName }) : t('appStats.title')}</Title>
      <Group align="flex-end" wrap="wrap">
        <PeriodPicker value={choice} onChange={setChoice} />
        <CompareSwitch checked={state.compare} onChange={(compare) => setState({ ...state, compare })} />
        <SegmentedControl
          aria-label={t('appStats.platform')}
          value={platform}
          onChange={(p) => setPlatform(p as Platform)}
          data={[
            { value: 'All', label: t('appStats.all') },
            { value: 'iOS', label: 'iOS' },
            { value: 'Android', label: 'Android' },
          ]}
        />
      </Group>
      <QueryStatus query={stats} />
      {s && (
        <>
          <KpiCards
            items={[
              {
                id: 'app-installs',
                label: t('appStats.installs'),
                value: n(s.totalInstalls),
                under: compared(comparison?.totalInstalls ?? null, 'app-installs-change'),
              },
              {
                id: 'app-clicks',
                label: t('appStats.clicks'),
                value: n(s.totalClicks),
                under: compared(comparison?.totalClicks ?? null, 'app-clicks-change'),
              },
              {
                id: 'app-conversion',
                label: t('appStats.conversion'),
                value: pct(s.conversionRate),
                under: compared(comparison?.conversionRate ?? null, 'app-conversion-change', pct),
              },
              {
                id: 'app-reengagements',
                label: t('appStats.reengagements'),
                value: n(s.reengagementStats.totalReengagements),
                under: compared(comparison?.totalReengagements ?? null, 'app-reengagements-change'),
              },
            ]}
          />

          <Panel title={t('appStats.daily')} csv={csv('dailyInstalls')} empty={noInstalls}>
            <DailyChart
              label={t('appStats.dailyLabel', { total: n(s.totalInstalls) })}
              rows={s.dailyInstalls}
              previous={comparison?.comparable ? comparison.dailyInstalls : undefined}
              format={n}
              legend={{ top: 0 }}
              series={[
                { name: 'iOS', value: (d) => d.iosInstalls, draw: { type: 'bar', stack: 'installs' } },
                { name: 'Android', value: (d) => d.androidInstalls, draw: { type: 'bar', stack: 'installs' } },
              ]}
            />
          </Panel>

          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Panel title={t('appStats.funnel')} csv={csv('funnel')}>
              {s.funnelStats.totalSessions === 0 && (
                <Text size="sm" c="dimmed" mb="xs">
                  {t('appStats.noFunnel')}
                </Text>
              )}
              <FunnelTable
                testId="funnel"
                stages={s.funnelStats.stages.map((stage) => ({
                  key: stage.stageOrder,
                  name: t(`appStats.stages.${stage.stageOrder}`, { defaultValue: String(stage.stageOrder) }),
                  reached: n(stage.sessionsReached),
                  share: pct(stage.conversionRateFromFirstStage),
                  step: stage.stageOrder > 1 ? pct(stage.conversionRateFromPreviousStage) : null,
                }))}
              />
              <Text size="sm" c="dimmed" mt="xs">
                {t('appStats.overall', { rate: pct(s.funnelStats.overallConversionRate) })}
              </Text>
            </Panel>
            <Stack>
              <Panel title={t('appStats.sources')} csv={csv('matchTypes')} empty={noInstalls}>
                <TopList
                  items={rowsOf(s.installsByMatchType, 'matchType', 'installs', comparison?.installsByMatchType)}
                  translate={(m) => t(`appStats.matchType.${m}`, { defaultValue: m })}
                />
              </Panel>
              <Panel title={t('appStats.countries')} csv={csv('countries')} empty={noInstalls}>
                <TopList
                  items={rowsOf(s.countryStats, 'country', 'installs', comparison?.countryStats)}
                  translate={(c) => c || t('dashboard.unknown')}
                />
              </Panel>
            </Stack>
          </SimpleGrid>

          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Panel
              title={t('appStats.reengagement')}
              csv={csv('dailyReengagements')}
              empty={s.reengagementStats.totalReengagements === 0 && t('appStats.noReengagement')}
            >
              <Text mb="xs">
                {t('appStats.reengagementLine', {
                  total: n(s.reengagementStats.totalReengagements),
                  ok: n(s.reengagementStats.successfulReengagements),
                  rate: pct(s.reengagementStats.successRate),
                  users: n(s.reengagementStats.uniqueReengagedUsers),
                })}
              </Text>
              <DailyChart
                label={t('appStats.reengagementLabel')}
                height={180}
                rows={s.dailyReengagements}
                format={n}
                series={[
                  { name: t('appStats.reengagements'), value: (d) => d.reengagements, draw: { type: 'line' } },
                  { name: t('appStats.successful'), value: (d) => d.successful, draw: { type: 'line' } },
                ]}
              />
            </Panel>
            <Panel
              title={t('appStats.quality')}
              csv={csv('failureReasons')}
              empty={s.qualityStats.totalAttempts === 0 && t('appStats.noQuality')}
            >
              <Group gap="xs" mb="xs">
                <Badge variant="light" color="green">
                  {t('appStats.resolved', { rate: pct(s.qualityStats.successRate) })}
                </Badge>
                <Badge variant="light">
                  {t('appStats.fingerprint', { rate: pct(s.qualityStats.fingerprintMatchRate) })}
                </Badge>
              </Group>
              <TopList items={s.qualityStats.failureReasons} />
            </Panel>
          </SimpleGrid>

          <RevenuePanel orgId={orgId} of={{ kind: 'app', id: appId }} query={periodQuery(choice)} />

          <Panel title={t('appStats.recent')} csv={csv('recentInstalls')} empty={noInstalls}>
            <DataTable
              rows={s.recentInstalls}
              rowKey={(r) => `${r.installedAt}-${r.platform}-${r.country}`}
              minWidth={520}
              plain
              columns={[
                {
                  header: t('webhooks.when'),
                  cell: (r) => new Date(r.installedAt).toLocaleString(i18n.language, { timeZone: s.meta.timeZone }),
                },
                { header: t('appStats.platform'), cell: (r) => r.platform },
                { header: t('appStats.country'), cell: (r) => r.country || '—' },
                {
                  header: t('appStats.match'),
                  cell: (r) =>
                    `${t(`appStats.matchType.${r.matchType}`, { defaultValue: r.matchType })} (${r.confidence})`,
                },
              ]}
            />
          </Panel>
        </>
      )}
    </Stack>
  );
}
