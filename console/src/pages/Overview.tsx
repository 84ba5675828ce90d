// The organization's home, what a marketer opens in the morning: today's clicks against
// yesterday's by the same time, the last 30 days' clicks per day, the busiest links of the last 7
// days (each opening its dashboard), all in the browser's time zone as the dashboards default to;
// beside them (below on a phone) the plan, Service API calls this month against the quota, the
// add-ons, the member's role and what that role may do.
import { Badge, Button, Card, Grid, Group, List, Progress, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QueryStatus } from '../components/QueryStatus';
import { api, type DashboardData, type Membership, type Usage } from '../api';
import { ChangeBadge, DailyChart, FigureCard } from '../dashboard/figures';
import { Panel } from '../dashboard/Panel';
import { browserTimeZone, periodQuery, type Preset } from '../dashboard/period';
import { TopLinks } from '../dashboard/TopLinks';
import { todayAgainstYesterday } from '../home/today';
import { navigate, pathOf } from '../navigation';

const REFRESH_MS = 30_000;

/** The organization's dashboard over the last days ending today, read as the dashboard page reads it (same cache). */
function useRecentClicks(orgId: number, preset: Preset, timeZone: string) {
  const query = periodQuery({ preset, from: '', to: '', timeZone });
  return useQuery({
    queryKey: ['org', orgId, 'dashboard', 'org', 0, query],
    queryFn: () => api<DashboardData>('GET', `/organizations/${orgId}/dashboard?${new URLSearchParams(query)}`),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
}

/** Today's clicks, the trend and the busiest links; with no click in 30 days, the way to a first link. */
function Clicks({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const orgId = membership.organizationId;
  const timeZone = browserTimeZone();
  const month = useRecentClicks(orgId, '30d', timeZone);
  const week = useRecentClicks(orgId, '7d', timeZone);
  const n = (value: number) => value.toLocaleString(i18n.language);
  // Either failing says why (with a retry); else either on its way shows the wait.
  const waiting = [month, week].find((q) => q.error) ?? [month, week].find((q) => q.isPending);
  if (waiting) return <QueryStatus query={waiting} />;
  const m = month.data;
  const w = week.data;
  if (!m || !w) return null;
  if (m.total === 0 && w.total === 0) {
    return (
      <Card withBorder>
        <Stack align="flex-start" gap="sm">
          <Text data-testid="no-clicks">{t('overview.noClicksYet')}</Text>
          {membership.permissions.includes('links.write') && (
            <Button onClick={() => navigate(pathOf('links'))}>{t('overview.createLink')}</Button>
          )}
        </Stack>
      </Card>
    );
  }
  const today = todayAgainstYesterday(w, new Date(), timeZone);
  return (
    <Stack>
      <FigureCard label={t('overview.today')} value={n(today.today)} testId="today-clicks" size={36}>
        <Group gap="xs">
          {today.change === null ? (
            <Text size="sm" c="dimmed" data-testid="today-change">
              {t('overview.noYesterday', { until: today.until })}
            </Text>
          ) : (
            <>
              <ChangeBadge change={today.change} testId="today-change" />
              <Text size="sm" c="dimmed" data-testid="yesterday-clicks">
                {t('overview.againstYesterday', { count: n(today.yesterday), until: today.until })}
              </Text>
            </>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {t('overview.zone', { zone: timeZone })}
        </Text>
      </FigureCard>
      <Panel title={t('overview.trend')}>
        <DailyChart
          testId="trend-table"
          label={t('overview.trendLabel', { total: n(m.total) })}
          rows={m.daily}
          format={n}
          series={[
            {
              name: t('dashboard.clicks'),
              value: (r) => r.count,
              draw: { type: 'line', areaStyle: { opacity: 0.15 } },
            },
          ]}
        />
      </Panel>
      <Panel title={t('overview.topLinks')} empty={w.topLinks.length === 0 && t('dashboard.noClicks')}>
        <TopLinks links={w.topLinks} />
      </Panel>
      <Button variant="subtle" onClick={() => navigate(pathOf('dashboard'))} style={{ alignSelf: 'flex-start' }}>
        {t('overview.fullDashboard')}
      </Button>
    </Stack>
  );
}

function UsageCard({ orgId }: { orgId: number }) {
  const { t, i18n } = useTranslation();
  const usage = useQuery({
    queryKey: ['org', orgId, 'usage'],
    queryFn: () => api<Usage>('GET', `/organizations/${orgId}/usage`),
  });
  const n = (value: number) => value.toLocaleString(i18n.language);
  const u = usage.data;
  const share = u && u.monthlyQuota > 0 ? Math.min(100, (u.callsThisMonth / u.monthlyQuota) * 100) : 0;
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('overview.usage')}
      </Title>
      <QueryStatus query={usage} />
      {u && (
        <Stack gap="xs">
          <Group justify="space-between">
            <Text c="dimmed">{t('overview.plan')}</Text>
            <Badge size="lg" variant="light" data-testid="plan">
              {u.plan}
            </Badge>
          </Group>
          <Text data-testid="calls">
            {t('overview.calls', { calls: n(u.callsThisMonth), quota: n(u.monthlyQuota) })}
          </Text>
          <Progress
            value={share}
            color={share >= 90 ? 'red' : share >= 75 ? 'yellow' : 'blue'}
            aria-label={t('overview.quotaUsed', { percent: share.toFixed(1) })}
          />
          <Text size="sm" c="dimmed">
            {t('overview.remaining', {
              remaining: n(u.remaining),
              date: new Date(u.resetsAt).toLocaleDateString(i18n.language, { timeZone: 'UTC' }),
            })}
          </Text>
          <Group gap="xs" mt="xs">
            <Text size="sm" c="dimmed">
              {t('overview.addOns')}
            </Text>
            {(['userJourney', 'revenueAnalytics'] as const).map((name) => (
              <Badge
                key={name}
                variant={u.addOns[name] ? 'light' : 'outline'}
                color={u.addOns[name] ? 'green' : 'gray'}
              >
                {t(`overview.addOn.${name}`)}: {t(u.addOns[name] ? 'overview.on' : 'overview.off')}
              </Badge>
            ))}
          </Group>
          <List size="sm" spacing={2}>
            <List.Item>{t(u.features.qrCodes ? 'overview.qrYes' : 'overview.qrNo')}</List.Item>
            <List.Item>{t('overview.retention', { days: n(u.features.dataRetentionDays) })}</List.Item>
          </List>
        </Stack>
      )}
    </Card>
  );
}

export default function Overview({ membership }: { membership: Membership }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={2}>{t('overview.heading', { name: membership.organizationName })}</Title>
      <Grid>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Clicks membership={membership} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack>
            <UsageCard orgId={membership.organizationId} />
            <Card withBorder>
              <Group justify="space-between" mb="xs">
                <Title order={3} size="h5">
                  {t('overview.canDo')}
                </Title>
                <Badge size="lg" data-testid="role">
                  {t(`roles.${membership.role}`)}
                </Badge>
              </Group>
              <List size="sm" spacing={4}>
                {membership.permissions.map((p) => (
                  <List.Item key={p}>{t(`permissions.${p}`)}</List.Item>
                ))}
              </List>
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
