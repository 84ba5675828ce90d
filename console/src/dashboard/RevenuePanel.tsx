// A campaign's revenue (the revenue-analytics add-on): totals per currency, never summed across
// them, purchases, average order and purchase conversion, and revenue per day in the main
// currency. Without the add-on the panel says so. The figures are the Service API's campaign
// statistics for the same period and zone.
import { Group, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { QueryStatus } from '../components/QueryStatus';
import { Chart } from './Chart';
import { Panel } from './Panel';

interface RevenueStats {
  available: boolean;
  currency: string | null;
  totalRevenue: number;
  purchases: number;
  averageOrderValue: number;
  purchaseConversionRate: number;
  dailyRevenue: { date: string; revenue: number; purchases: number }[];
  byCurrency: { currency: string; totalRevenue: number; purchases: number }[];
}

export function RevenuePanel({ orgId, campaignId, query }: { orgId: number; campaignId: number; query: Record<string, string> }) {
  const { t, i18n } = useTranslation();
  const stats = useQuery({
    queryKey: ['org', orgId, 'campaign-revenue', campaignId, query],
    queryFn: () => api<{ revenueStats: RevenueStats }>('GET', `/organizations/${orgId}/campaigns/${campaignId}/stats?${new URLSearchParams(query)}`),
  });
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
    <Panel title={t('revenue.title')} csv={`/console/api/organizations/${orgId}/dashboard/export.csv?${new URLSearchParams({ ...query, panel: 'revenue', link: `campaign:${campaignId}` })}`} empty={empty}>
      <QueryStatus query={stats} />
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
            <Text size="sm">{t('revenue.conversion', { rate: r.purchaseConversionRate.toLocaleString(i18n.language) })}</Text>
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
