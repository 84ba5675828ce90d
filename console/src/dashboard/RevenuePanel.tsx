// A campaign's or an app's revenue (the revenue-analytics add-on): totals per currency, never
// summed across them, purchases, average order, a campaign's purchase conversion, and revenue per
// day in the main currency. Without the add-on the panel says so. A campaign's figures are its
// Service API statistics for the same period and zone; an app's, the purchases recorded under it.
import { Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RevenueStats } from '../api';
import { Chart } from './Chart';
import { Panel, type PanelScope, usePanelFigures } from './Panel';

export function RevenuePanel({ of, ...scope }: PanelScope & { of: { kind: 'campaign' | 'app'; id: number } }) {
  const { t, i18n } = useTranslation();
  const { orgId, query } = scope;
  const csv =
    of.kind === 'campaign'
      ? `/console/api/organizations/${orgId}/dashboard/export.csv?${new URLSearchParams({ ...query, panel: 'revenue', link: `campaign:${of.id}` })}`
      : `/console/api/organizations/${orgId}/dashboard/apps/${of.id}/export.csv?${new URLSearchParams({ ...query, panel: 'revenue' })}`;
  const stats = usePanelFigures<{ revenueStats: RevenueStats }>(
    scope,
    'revenue',
    of,
    of.kind === 'campaign' ? `campaigns/${of.id}/stats` : `dashboard/apps/${of.id}/revenue`,
  );
  const r = stats.data?.revenueStats;
  const money = (value: number, currency: string) => {
    try {
      return value.toLocaleString(i18n.language, { style: 'currency', currency });
    } catch {
      return `${value.toLocaleString(i18n.language)} ${currency}`;
    }
  };
  const empty = r && (!r.available ? t('revenue.addOn') : r.purchases === 0 && t('revenue.none'));
  return (
    <Panel title={t('revenue.title')} csv={csv} empty={empty} figures={stats}>
      {r?.currency && (
        <>
          <Table data-testid="revenue">
            <Table.Tbody>
              {r.byCurrency.map((c) => (
                <Table.Tr key={c.currency}>
                  <Table.Th scope="row">{c.currency}</Table.Th>
                  <Table.Td ta="right">{money(c.totalRevenue, c.currency)}</Table.Td>
                  <Table.Td ta="right">{t('revenue.purchases', { count: c.purchases })}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group gap="lg" my="xs">
            <Text size="sm">{t('revenue.aov', { value: money(r.averageOrderValue, r.currency) })}</Text>
            {of.kind === 'campaign' && (
              <Text size="sm">
                {t('revenue.conversion', { rate: r.purchaseConversionRate.toLocaleString(i18n.language) })}
              </Text>
            )}
          </Group>
          <Chart
            label={t('revenue.dailyLabel', { currency: r.currency })}
            table={{ head: [t('dashboard.date'), r.currency], rows: r.dailyRevenue.map((d) => [d.date, d.revenue]) }}
            height={200}
            option={{
              tooltip: { trigger: 'axis' },
              grid: { left: 64, right: 16, top: 16, bottom: 32 },
              xAxis: { type: 'category', data: r.dailyRevenue.map((d) => d.date) },
              yAxis: { type: 'value', axisLabel: { formatter: (v: number) => v.toLocaleString(i18n.language) } },
              series: [{ type: 'bar', name: r.currency, data: r.dailyRevenue.map((d) => d.revenue) }],
            }}
          />
        </>
      )}
    </Panel>
  );
}
