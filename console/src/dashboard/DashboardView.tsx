// One click dashboard, the organization's or one link's: the period and zone, the total against
// the previous period, clicks per day, the weekday × hour heatmap, hours of the day, the busiest
// links, countries, devices, systems, browsers, referrers, trackers and UTM parameters. One call
// answers every panel (the server runs one query); it refreshes every 30 s while the page is seen.
// A link's clicks per destination (rules and A/B variants) and a campaign's revenue come from the
// link's statistics, in panels of their own. The period, zone and filters live in the page's
// address (dashboard-state.ts); selecting a country, device, system, browser, referrer or UTM value
// in a panel filters every panel to its clicks, and the chips above them take filters off again.
// Links picked on the Links list (`url`, `campaign` in the address) narrow the organization's
// dashboard to them: a line above the figures says so, a chip per link takes one off.
// With the comparison on (the address's `compare`, on unless `off`), the same call brings the
// previous period: each figure shows its change in percent, each time chart the previous period's
// series dashed beside its own, day by day, each row of a list or of the busiest links its change
// against the same row of the previous period, and each CSV the previous period's columns.
import { Alert, Button, Card, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { CopyValue } from '../components/CopyValue';
import { QrDialog } from '../components/QrDialog';
import { QueryStatus } from '../components/QueryStatus';
import { pathOf, pathOfStats } from '../navigation';
import { Chart } from './Chart';
import { DestinationsPanel } from './DestinationsPanel';
import { type FilterKey, filterParams, useDashboardState, withFilter, withoutFilter } from './dashboard-state';
import {
  CompareSwitch,
  DailyChart,
  FigureCard,
  previousDraw,
  seriesOption,
  useCompared,
  usePreviousName,
} from './figures';
import { FilterChips, useFilterNames } from './FilterChips';
import { Panel } from './Panel';
import { type PeriodChoice, periodQuery } from './period';
import { PeriodPicker } from './PeriodPicker';
import { PlacesPanels } from './PlacesPanels';
import { RevenuePanel } from './RevenuePanel';
import { ShareStats } from './ShareStats';
import { TagsPanel } from './TagsPanel';
import { TopLinks } from './TopLinks';
import { TopList, type TopListPick } from './TopList';
import type { DashboardData, TopItem } from '../api';

const REFRESH_MS = 30_000;

export function DashboardView({
  orgId,
  link,
  canShare = false,
}: {
  orgId: number;
  link?: { type: 'url' | 'campaign'; id: number };
  /** The member may share a short URL's statistics (links.write). */
  canShare?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [qr, setQr] = useState(false);
  const [state, setState] = useDashboardState(link ? pathOfStats(link.type, link.id) : pathOf('dashboard'));
  const { choice, filters } = state;
  const setChoice = (next: PeriodChoice) => setState({ ...state, choice: next });
  const query = periodQuery(choice);
  // The period and the filters: what every click figure of the page is read with.
  const filtered = { ...query, ...filterParams(filters) };
  const params = new URLSearchParams({ ...filtered, compare: state.compare ? 'previous' : 'off' });
  const path = link
    ? `/organizations/${orgId}/dashboard/${link.type === 'url' ? 'urls' : 'campaigns'}/${link.id}`
    : `/organizations/${orgId}/dashboard`;
  const dashboard = useQuery({
    queryKey: ['org', orgId, 'dashboard', link?.type ?? 'org', link?.id ?? 0, filtered, state.compare],
    queryFn: () => api<DashboardData>('GET', `${path}?${params}`),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
  const d = dashboard.data;
  const n = (value: number) => value.toLocaleString(i18n.language);
  const previousName = usePreviousName();
  // The previous period beside this one (compare=previous): its days and hours when comparable.
  const comparison = state.compare ? (d?.comparison ?? null) : null;
  const before = comparison?.comparable ? comparison : null;
  const compared = useCompared(comparison, d?.meta.timeZone, n);
  const csv = (panel: string) => {
    // With the comparison on, a compared panel's CSV has the previous period's columns too.
    const q = new URLSearchParams({
      ...filtered,
      panel,
      ...(link ? { link: `${link.type}:${link.id}` } : {}),
      ...(state.compare ? { compare: 'previous' } : {}),
    });
    return `/console/api/organizations/${orgId}/dashboard/export.csv?${q}`;
  };
  const names = useFilterNames();
  const { country } = names;
  /** Selecting an item filters by `value` of it; an item without one (Unknown, Direct) filters nothing. */
  const pick = (key: FilterKey, value: (item: TopItem) => string | null): TopListPick => ({
    label: (item) => {
      const v = value(item);
      return v === null ? null : t('dashboard.filters.pick', { filter: names.filter(key, v) });
    },
    onPick: (item) => {
      const v = value(item);
      if (v !== null) setState({ ...state, filters: withFilter(filters, key, v) });
    },
  });
  const known = (unknown: string) => (item: TopItem) => (item.name === unknown || item.name === '' ? null : item.name);
  const empty = d && d.total === 0 && t('dashboard.noClicks');
  const list = (
    title: string,
    panel: string,
    items: TopItem[] | undefined,
    picks?: TopListPick,
    translate?: (name: string) => string,
  ) => (
    <Panel
      title={title}
      csv={csv(panel)}
      empty={(empty || (items && items.length === 0)) && (empty || t('dashboard.nothing'))}
    >
      {items && <TopList items={items} pick={picks} {...(translate ? { translate } : {})} />}
    </Panel>
  );
  const devicePick = pick('deviceType', (item) => item.name.toLowerCase());

  const header = d?.link ?? null;
  const chosen = (filters.url?.length ?? 0) + (filters.campaign?.length ?? 0);
  return (
    <Stack>
      {link && (
        <Stack gap={4}>
          <Title order={2}>{header ? header.label : t('dashboard.linkHeading')}</Title>
          {header && (
            <Group gap="xs">
              <Code data-testid="link-address">{header.address}</Code>
              <CopyValue value={header.address} label={header.address} compact />
              {header.type === 'url' && (
                <Button size="compact-xs" variant="subtle" onClick={() => setQr(true)}>
                  {t('links.qr')}
                </Button>
              )}
            </Group>
          )}
          {header?.type === 'url' && canShare && <ShareStats orgId={orgId} urlId={header.id} />}
        </Stack>
      )}
      {qr && header && (
        <QrDialog
          orgId={orgId}
          link={{ id: header.id, shortUrl: header.address, shortCode: header.address.split('/').pop() ?? '' }}
          onClose={() => setQr(false)}
        />
      )}
      <Group align="flex-end" wrap="wrap">
        <PeriodPicker value={choice} onChange={setChoice} />
        <CompareSwitch checked={state.compare} onChange={(compare) => setState({ ...state, compare })} />
      </Group>
      {!link && chosen > 0 && (
        <Text size="sm" fw={600} data-testid="link-scope">
          {t('dashboard.filters.scope', { count: chosen })}
        </Text>
      )}
      <FilterChips
        filters={filters}
        links={d?.chosenLinks}
        onRemove={(key, value) => setState({ ...state, filters: withoutFilter(filters, key, value) })}
        onClear={() => setState({ ...state, filters: {} })}
      />
      <QueryStatus query={dashboard} />
      {d && (
        <>
          {d.meta.emptyReason !== null ? (
            <Alert color="yellow" role="note">
              {t(d.meta.emptyReason === 'before_retention' ? 'dashboard.beforeRetention' : 'dashboard.afterToday', {
                days: d.meta.dataRetentionDays,
              })}
            </Alert>
          ) : (
            d.meta.actualStartDate !== null &&
            d.meta.actualStartDate > query.startDate && (
              <Alert color="yellow" role="note">
                {t('dashboard.retention', { days: d.meta.dataRetentionDays, date: d.meta.actualStartDate })}
              </Alert>
            )
          )}
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
            <FigureCard label={t('dashboard.clicks')} value={n(d.total)} testId="total" size={32}>
              {compared(before?.total ?? null, 'change')}
            </FigureCard>
            <FigureCard label={t('dashboard.visitors')} value={n(d.uniqueVisitors)} testId="visitors" size={32}>
              <Text size="xs" c="dimmed">
                {t('dashboard.visitorsHelp')}
              </Text>
              {compared(before?.uniqueVisitors ?? null, 'visitors-change')}
            </FigureCard>
            <Card withBorder>
              <Text c="dimmed" size="sm">
                {t('dashboard.range')}
              </Text>
              <Text fw={600} data-testid="range">
                {d.meta.actualStartDate ?? d.meta.requestedStartDate} –{' '}
                {d.meta.actualEndDate ?? d.meta.requestedEndDate}
              </Text>
              <Text size="sm" c="dimmed">
                {d.meta.timeZone}
              </Text>
            </Card>
            <Card withBorder>
              <Text c="dimmed" size="sm">
                {t('dashboard.topCountry')}
              </Text>
              <Text fw={600}>{d.countries[0] ? country(d.countries[0].name) : '—'}</Text>
              <Text size="sm" c="dimmed">
                {t('dashboard.refreshes')}
              </Text>
            </Card>
          </SimpleGrid>

          <Panel title={t('dashboard.daily')} csv={csv('daily')} empty={empty}>
            <DailyChart
              testId="daily-table"
              label={t('dashboard.dailyLabel', { total: n(d.total) })}
              rows={d.daily}
              previous={before?.daily}
              format={n}
              legend={{ top: 0, right: 8 }}
              top={28}
              series={[
                {
                  name: t('dashboard.clicks'),
                  value: (r) => r.count,
                  draw: { type: 'line', areaStyle: { opacity: 0.15 } },
                },
                {
                  name: t('dashboard.visitors'),
                  value: (r) => r.visitors,
                  draw: { type: 'line', lineStyle: { type: 'dashed' } },
                },
              ]}
            />
          </Panel>

          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Panel title={t('dashboard.heatmap')} csv={csv('heatmap')} empty={empty}>
              <Chart
                label={t('dashboard.heatmapLabel')}
                height={300}
                option={{
                  tooltip: {},
                  grid: { left: 48, right: 16, top: 8, bottom: 56 },
                  xAxis: { type: 'category', data: Array.from({ length: 24 }, (_, h) => String(h)) },
                  yAxis: {
                    type: 'category',
                    data: [1, 2, 3, 4, 5, 6, 7].map((w) => t(`dashboard.weekdays.${w}`)),
                    inverse: true,
                  },
                  visualMap: {
                    min: 0,
                    max: Math.max(1, ...d.heatmap.map((c) => c.count)),
                    orient: 'horizontal',
                    left: 'center',
                    bottom: 0,
                    itemHeight: 120,
                    calculable: false,
                  },
                  series: [
                    {
                      type: 'heatmap',
                      name: t('dashboard.clicks'),
                      data: d.heatmap.map((c) => [c.hour, c.weekday - 1, c.count]),
                    },
                  ],
                }}
              />
            </Panel>
            <Panel title={t('dashboard.hourly')} csv={csv('hourly')} empty={empty}>
              <Chart
                label={t('dashboard.hourlyLabel')}
                table={{
                  head: [
                    t('dashboard.hour'),
                    t('dashboard.clicks'),
                    ...(before ? [previousName(t('dashboard.clicks'))] : []),
                  ],
                  rows: d.hourly.map((h, i) => [h.hour, h.count, ...(before ? [before.hourly[i]?.count ?? 0] : [])]),
                }}
                height={300}
                option={seriesOption({
                  categories: d.hourly.map((h) => h.hour.slice(0, 2)),
                  format: n,
                  ...(before ? { legend: { top: 0, right: 8 } } : {}),
                  series: [
                    { type: 'bar', name: t('dashboard.clicks'), data: d.hourly.map((h) => h.count) },
                    ...(before
                      ? [
                          {
                            type: 'bar',
                            ...previousDraw({}),
                            name: previousName(t('dashboard.clicks')),
                            data: before.hourly.map((h) => h.count),
                          },
                        ]
                      : []),
                  ],
                })}
              />
            </Panel>
          </SimpleGrid>

          {link && <DestinationsPanel orgId={orgId} link={link} query={filtered} previous={before?.destinations} />}

          {link?.type === 'campaign' && (
            <RevenuePanel orgId={orgId} of={{ kind: 'campaign', id: link.id }} query={query} />
          )}

          {!link && (
            <Panel
              title={t('dashboard.topLinks')}
              csv={csv('topLinks')}
              empty={(empty || d.topLinks.length === 0) && (empty || t('dashboard.nothing'))}
            >
              <TopLinks links={d.topLinks} />
            </Panel>
          )}

          {!link && (
            <TagsPanel
              orgId={orgId}
              query={filtered}
              total={d.total}
              compare={state.compare}
              onPick={(tag) => setState({ ...state, filters: withFilter(filters, 'tag', tag) })}
            />
          )}

          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {list(
              t('dashboard.countries'),
              'countries',
              d.countries,
              pick('country', (item) => (/^[A-Z]{2}$/.test(item.name) ? item.name : null)),
              country,
            )}
            <Panel title={t('dashboard.devices')} csv={csv('deviceTypes')} empty={empty}>
              <Chart
                label={d.deviceTypes.map((x) => `${t(`dashboard.device.${x.name}`)} ${x.count}`).join(', ')}
                height={180}
                onPick={(index) => {
                  const item = d.deviceTypes[index];
                  if (item) devicePick.onPick(item);
                }}
                option={{
                  tooltip: { trigger: 'item' },
                  series: [
                    {
                      type: 'pie',
                      radius: ['40%', '70%'],
                      label: { show: false },
                      data: d.deviceTypes.map((x) => ({ name: t(`dashboard.device.${x.name}`), value: x.count })),
                    },
                  ],
                }}
              />
              <TopList
                items={d.deviceTypes}
                translate={(name) => t(`dashboard.device.${name}`, { defaultValue: name })}
                pick={devicePick}
              />
            </Panel>
            {list(t('dashboard.os'), 'operatingSystems', d.operatingSystems, pick('os', known('Unknown')))}
            {list(t('dashboard.browsers'), 'browsers', d.browsers, pick('browser', known('Unknown')))}
            {list(t('dashboard.referrers'), 'referrers', d.referrers, pick('referrer', known('Direct')), (r) =>
              r === 'Direct' ? t('dashboard.direct') : r,
            )}
            {link?.type === 'campaign' && list(t('dashboard.trackers'), 'trackers', d.trackers)}
            {list('utm_source', 'utmSource', d.utm.source, pick('utmSource', known('')))}
            {list('utm_medium', 'utmMedium', d.utm.medium, pick('utmMedium', known('')))}
            {list('utm_campaign', 'utmCampaign', d.utm.campaign, pick('utmCampaign', known('')))}
            <PlacesPanels dashboard={d} csv={csv} pick={(key) => pick(key, (item) => item.name)} />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
