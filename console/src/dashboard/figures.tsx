// Pieces the dashboards draw alike: the row of headline figures, a change in percent (and a figure
// against the previous period's), a chart of figures over a category axis (days, hours) with counts
// on the value axis and the previous period's beside them, and a funnel's table of stages.
import { Badge, Card, Group, SimpleGrid, Switch, Table, Text, VisuallyHidden } from '@mantine/core';
import type { EChartsCoreOption } from 'echarts/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart } from './Chart';

/** One headline figure: its label, the value (a test id on it) and what goes under it. */
export function FigureCard({
  label,
  value,
  testId,
  size = 28,
  children,
}: {
  label: string;
  value: string;
  testId: string;
  size?: number;
  children?: ReactNode;
}) {
  return (
    <Card withBorder>
      <Text c="dimmed" size="sm">
        {label}
      </Text>
      <Text fz={size} fw={700} data-testid={testId}>
        {value}
      </Text>
      {children}
    </Card>
  );
}

/** The headline figures, each a card with its label, a test id on the value and what goes under it. */
export function KpiCards({ items }: { items: { id: string; label: string; value: string; under?: ReactNode }[] }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }}>
      {items.map(({ id, label, value, under }) => (
        <FigureCard key={id} label={label} value={value} testId={id}>
          {under}
        </FigureCard>
      ))}
    </SimpleGrid>
  );
}

/** The switch of the comparison with the previous period (the address's `compare`). */
export function CompareSwitch({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Switch
      label={t('dashboard.compare')}
      checked={checked}
      onChange={(event) => onChange(event.currentTarget.checked)}
    />
  );
}

/** The previous period as a dashboard's answer describes it (compare=previous). */
interface PreviousPeriod {
  startDate: string | null;
  endDate: string | null;
  until: string | null;
  comparable: boolean;
  reason: 'empty_period' | 'before_retention' | null;
}

/**
 * How a dashboard words its figures against the previous period: a function from a figure's
 * comparison (null when there is none) to what goes under the figure; nothing without a comparison.
 */
export function useCompared(
  comparison: PreviousPeriod | null,
  timeZone: string | undefined,
  format: (n: number) => string,
) {
  const { t, i18n } = useTranslation();
  const until = comparison?.until
    ? ` ${t('dashboard.until', {
        time: new Date(comparison.until).toLocaleTimeString(i18n.language, {
          timeZone,
          hour: '2-digit',
          minute: '2-digit',
        }),
      })}`
    : '';
  const span = `${comparison?.startDate} – ${comparison?.endDate}${until}`;
  return (figure: FigureChange | null, testId: string, formatted = format) =>
    comparison && (
      <ComparedFigure
        figure={comparison.comparable ? figure : null}
        why={t(`dashboard.notComparable.${comparison.reason ?? 'empty_period'}`)}
        previous={t('dashboard.previousFigure', { span, value: formatted(figure?.previous ?? 0) })}
        testId={testId}
      />
    );
}

/** A change in percent: an arrow and a word for screen readers besides the colour (up green, down red). */
export function ChangeBadge({
  change,
  testId,
  size,
}: {
  change: number;
  testId?: string | undefined;
  size?: 'xs' | 'sm' | undefined;
}) {
  const { t, i18n } = useTranslation();
  const up = change >= 0;
  return (
    <Badge
      component="span"
      variant="light"
      size={size}
      color={change === 0 ? 'gray' : up ? 'green' : 'red'}
      data-testid={testId}
    >
      <span aria-hidden>{change === 0 ? '→' : up ? '▲' : '▼'}</span>{' '}
      <VisuallyHidden>{`${t(change === 0 ? 'dashboard.flat' : up ? 'dashboard.up' : 'dashboard.down')} `}</VisuallyHidden>
      {new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 }).format(
        Math.abs(change) / 100,
      )}
    </Badge>
  );
}

/** A figure against the previous period's, as the server compares them (src/core/stats/comparison.ts). */
export interface FigureChange {
  current: number;
  previous: number;
  change: number | null;
  trend: 'up' | 'down' | 'flat' | 'new' | 'none';
}

/**
 * How a figure moved, as a badge: its change in percent (arrow, colour and words), "new" when there
 * was none before, "—" when there was none in either period or nothing to compare (`why` says so
 * then, to screen readers; `figure` is null).
 */
function TrendBadge({
  figure,
  why,
  testId,
  size,
}: {
  figure: FigureChange | null;
  why: string;
  testId?: string | undefined;
  size?: 'xs' | 'sm' | undefined;
}) {
  const { t } = useTranslation();
  if (figure === null || figure.trend === 'none')
    return (
      <Badge component="span" variant="light" size={size} color="gray" data-testid={testId}>
        <span aria-hidden>—</span>
        <VisuallyHidden>{figure === null ? why : t('dashboard.noneEither')}</VisuallyHidden>
      </Badge>
    );
  if (figure.change === null)
    return (
      <Badge component="span" variant="light" size={size} color="blue" data-testid={testId}>
        {t('dashboard.new')}
        <VisuallyHidden>{` ${t('dashboard.newHelp')}`}</VisuallyHidden>
      </Badge>
    );
  return <ChangeBadge change={figure.change} testId={testId} size={size} />;
}

/**
 * A breakdown row's change against the same row of the previous period (compare=previous): the
 * badge, and the previous count in words (read by screen readers, shown as the badge's tooltip).
 * Nothing without a comparison, or when the periods cannot be compared (the totals say why).
 */
export function RowChange({ compared }: { compared?: FigureChange | null | undefined }) {
  const { t, i18n } = useTranslation();
  if (!compared) return null;
  const previous = t('dashboard.previousRow', { value: compared.previous.toLocaleString(i18n.language) });
  return (
    <span title={previous} style={{ whiteSpace: 'nowrap' }}>
      <TrendBadge figure={compared} why="" size="xs" />
      <VisuallyHidden>{` (${previous})`}</VisuallyHidden>
    </span>
  );
}

/**
 * Under a headline figure: its change against the previous period (arrow, colour and words; "new"
 * when there was none before; "—" when there is nothing to compare) and the previous figure with
 * its dates. `figure` is null when the periods cannot be compared, `why` then says so.
 */
function ComparedFigure({
  figure,
  why,
  previous,
  testId,
}: {
  figure: FigureChange | null;
  why: string;
  /** The previous figure and its dates, as words. */
  previous: string;
  testId: string;
}) {
  return (
    <Group gap="xs">
      <TrendBadge figure={figure} why={why} testId={testId} />
      <Text size="sm" c="dimmed" data-testid={`${testId}-previous`}>
        {figure === null ? why : previous}
      </Text>
    </Group>
  );
}

/** A chart's option for series over categories; a legend on top moves the plot down to make room. */
export function seriesOption({
  categories,
  series,
  format,
  legend,
  top = legend ? 32 : 16,
}: {
  categories: string[];
  series: object[];
  format: (value: number) => string;
  legend?: object;
  top?: number;
}): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    ...(legend ? { legend } : {}),
    grid: { left: 48, right: 16, top, bottom: 32 },
    xAxis: { type: 'category', data: categories },
    yAxis: { type: 'value', minInterval: 1, axisLabel: { formatter: format } },
    series,
  };
}

/** How a series of the previous period is drawn: dashed and faded beside the period's own. */
const PREVIOUS_DRAW = { lineStyle: { type: 'dashed', opacity: 0.6 }, itemStyle: { opacity: 0.5 } };

/** A series' drawing for its previous-period twin: no area under it, dashed and faded. */
export const previousDraw = ({ areaStyle: _area, ...draw }: { areaStyle?: unknown; [key: string]: unknown }) => ({
  ...draw,
  ...PREVIOUS_DRAW,
});

/** The name of a series of the previous period. */
export const usePreviousName = () => {
  const { t } = useTranslation();
  return (name: string) => t('dashboard.previousSeries', { name });
};

/**
 * Figures per day: one series a figure of the day's row, drawn as `draw` says; screen readers get
 * the table. With `previous` (the previous period's rows, the n-th beside the n-th day), each series
 * gets a dashed, faded twin, and the tooltip and the table name both days.
 */
export function DailyChart<R extends { date: string }>({
  label,
  rows,
  series,
  previous,
  format,
  legend,
  top,
  height = 260,
  testId,
}: {
  label: string;
  rows: R[];
  series: { name: string; value: (row: R) => number; draw: Record<string, unknown> }[];
  previous?: R[] | undefined;
  format: (value: number) => string;
  legend?: object;
  top?: number;
  height?: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  const previousName = usePreviousName();
  const before = previous ? rows.map((_, i) => previous[i]) : [];
  const twins = previous
    ? series.map((s) => ({
        ...previousDraw(s.draw),
        name: previousName(s.name),
        data: before.map((row) => (row ? s.value(row) : null)),
      }))
    : [];
  const option = seriesOption({
    categories: rows.map((row) => row.date),
    format,
    ...(legend ? { legend } : {}),
    ...(top === undefined ? {} : { top }),
    series: [...series.map((s) => ({ ...s.draw, name: s.name, data: rows.map(s.value) })), ...twins],
  });
  return (
    <Chart
      label={label}
      height={height}
      {...(testId ? { testId } : {})}
      table={{
        head: [
          t('dashboard.date'),
          ...series.map((s) => s.name),
          ...(previous ? [t('dashboard.previousDate'), ...series.map((s) => previousName(s.name))] : []),
        ],
        rows: rows.map((row, i) => {
          const twin = before[i];
          return [
            row.date,
            ...series.map((s) => s.value(row)),
            ...(previous ? [twin?.date ?? '—', ...series.map((s) => (twin ? s.value(twin) : '—'))] : []),
          ];
        }),
      }}
      option={
        previous
          ? {
              ...option,
              tooltip: {
                trigger: 'axis',
                formatter: (params: TooltipParam[]) => twoPeriodTooltip(params, rows, before, series.length, format),
              },
            }
          : option
      }
    />
  );
}

interface TooltipParam {
  seriesIndex: number;
  dataIndex: number;
  marker: string;
  seriesName: string;
  value: number | null;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** An axis tooltip naming both days: the period's series under its date, the previous period's under its own. */
function twoPeriodTooltip(
  params: TooltipParam[],
  rows: { date: string }[],
  before: ({ date: string } | undefined)[],
  count: number,
  format: (value: number) => string,
): string {
  const index = params[0]?.dataIndex ?? 0;
  const line = (p: TooltipParam) =>
    `${p.marker}${escapeHtml(p.seriesName)} <b>${p.value === null ? '—' : escapeHtml(format(p.value))}</b>`;
  const own = params.filter((p) => p.seriesIndex < count);
  const twins = params.filter((p) => p.seriesIndex >= count);
  return [
    `<b>${escapeHtml(rows[index]?.date ?? '')}</b>`,
    ...own.map(line),
    ...(twins.length > 0 ? [`<b>${escapeHtml(before[index]?.date ?? '—')}</b>`, ...twins.map(line)] : []),
  ].join('<br/>');
}

/** A funnel's stages: name, sessions reached, share of the first stage, conversion from the one before. */
export function FunnelTable({
  testId,
  stages,
}: {
  testId: string;
  stages: { key: string | number; name: string; reached: string; share: string; step: string | null }[];
}) {
  return (
    <Table data-testid={testId}>
      <Table.Tbody>
        {stages.map((stage) => (
          <Table.Tr key={stage.key}>
            <Table.Th scope="row">{stage.name}</Table.Th>
            <Table.Td ta="right">{stage.reached}</Table.Td>
            <Table.Td ta="right">{stage.share}</Table.Td>
            <Table.Td ta="right" c="dimmed">
              {stage.step === null ? '' : `→ ${stage.step}`}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
