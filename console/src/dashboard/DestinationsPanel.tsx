// Clicks and conversions per destination of one link (contract: "Routing rules and A/B tests"): the
// period's clicks each variant, rule or the link's own destination received, the goals and installs
// those clicks led to, their rate and revenue, from the link's Service API statistics for the same
// period and zone; the link's own record names each row's variant (with its weight) or rule. Under
// the table, a plain verdict on the A/B test (ab-result.ts). With the comparison on, each row's
// clicks show their change against the previous period's clicks to the same address (the dashboard's
// answer brings those), worked out as the server works out every change (src/shared/figure-change.ts).
import { Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { api, type Campaign, type DestinationStat, type ShortUrl } from '../api';
import { compareFigure } from '../../../src/shared/figure-change';
import { variantName } from '../routing-form';
import { type AbRow, abRows, abVerdict, type Routing, type Source } from './ab-result';
import { RowChange } from './figures';
import { Panel, type PanelScope, usePanelFigures } from './Panel';

/** The table's figure columns, right-aligned after the destination's. */
const NUMBER_COLUMNS = [
  'dashboard.ab.weight',
  'dashboard.clicks',
  'dashboard.ab.conversions',
  'dashboard.ab.rate',
  'dashboard.ab.revenue',
] as const;

function sourceName(t: TFunction, s: Source): string {
  if (s.kind === 'variant') return t('dashboard.ab.variant', { name: variantName(s.index) });
  if (s.kind === 'rule') return t('dashboard.ab.rule', { n: s.index + 1 });
  return t('dashboard.ab.original');
}

/** The row's name: its variant or rule (several when they share the address), else the address alone. */
const rowName = (t: TFunction, r: AbRow) =>
  r.sources.length ? r.sources.map((s) => sourceName(t, s)).join(' · ') : '';

function money(language: string, amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency }).format(amount);
  } catch {
    // UNKNOWN: a purchase that named no currency.
    return `${amount.toLocaleString(language)} ${currency}`;
  }
}

function Verdict({ rows }: { rows: AbRow[] }) {
  const { t, i18n } = useTranslation();
  const verdict = abVerdict(rows);
  if (verdict.kind === 'none') return null;
  const rate = (r: AbRow) => r.rate.toLocaleString(i18n.language);
  const text =
    verdict.kind === 'noConversions' || verdict.kind === 'even'
      ? t(`dashboard.ab.${verdict.kind}`)
      : t(`dashboard.ab.${verdict.kind}`, {
          leader: rowName(t, verdict.leader),
          other: rowName(t, verdict.other),
          leaderRate: rate(verdict.leader),
          otherRate: rate(verdict.other),
        });
  return (
    <Text size="sm" data-testid="ab-verdict" role="status">
      {text}
    </Text>
  );
}

export function DestinationsPanel({
  link,
  previous,
  ...scope
}: PanelScope & {
  link: { type: 'url' | 'campaign'; id: number };
  /** The previous period's clicks per destination, when the dashboard compares and can. */
  previous?: { url: string; count: number }[] | undefined;
}) {
  const { t, i18n } = useTranslation();
  const path = `${link.type === 'url' ? 'urls' : 'campaigns'}/${link.id}`;
  const stats = usePanelFigures<{ destinationStats: DestinationStat[] }>(scope, 'destinations', link, `${path}/stats`);
  // The link's variants and rules name the rows; without them (not loaded, or refused) the addresses alone do.
  const record = useQuery({
    queryKey: ['org', scope.orgId, 'routing-of', link],
    queryFn: () => api<ShortUrl | Campaign>('GET', `/organizations/${scope.orgId}/${path}`),
  });
  const routing: Routing | undefined = record.data;
  const items = stats.data?.destinationStats;
  const rows = items && abRows(items, routing);
  const n = (value: number) => value.toLocaleString(i18n.language);
  const before = previous && new Map(previous.map((d) => [d.url, d.count]));
  return (
    <Panel
      title={t('dashboard.destinations')}
      empty={items?.length === 0 && t('dashboard.noDestinations')}
      figures={stats}
    >
      {rows && (
        <Stack gap="xs">
          <Table.ScrollContainer minWidth={560}>
            <Table data-testid="ab-table" verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('dashboard.ab.destination')}</Table.Th>
                  {NUMBER_COLUMNS.map((key) => (
                    <Table.Th key={key} scope="col" ta="right">
                      {t(key)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.url}>
                    <Table.Th scope="row" fw="normal" maw={280}>
                      {r.sources.length > 0 && (
                        <Text size="sm" fw={500}>
                          {rowName(t, r)}
                        </Text>
                      )}
                      <Text size="xs" c="dimmed" truncate title={r.url}>
                        {r.url}
                      </Text>
                    </Table.Th>
                    <Table.Td ta="right">{r.weight === null ? '–' : `${n(r.weight)}%`}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {n(r.clicks)}{' '}
                      <Text span c="dimmed" size="xs">
                        ({n(r.share)}%)
                      </Text>
                      {before && (
                        <>
                          {' '}
                          <RowChange compared={compareFigure(r.clicks, before.get(r.url) ?? 0)} />
                        </>
                      )}
                    </Table.Td>
                    <Table.Td ta="right">{n(r.conversions)}</Table.Td>
                    <Table.Td ta="right">{`${n(r.rate)}%`}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {r.revenue.length === 0
                        ? '–'
                        : r.revenue.map((x) => money(i18n.language, x.amount, x.currency)).join(', ')}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Verdict rows={rows} />
          <Text size="xs" c="dimmed">
            {t('dashboard.ab.how')}
          </Text>
        </Stack>
      )}
    </Panel>
  );
}
