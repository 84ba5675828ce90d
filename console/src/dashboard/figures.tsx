// Pieces the dashboards draw alike: the row of headline figures, a change in percent, a chart of figures over a
// category axis (days, hours) with counts on the value axis, and a funnel's table of stages.
import { Badge, Card, SimpleGrid, Table, Text, VisuallyHidden } from '@mantine/core';
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

/** The headline figures, each a card with its label and a test id on the value. */
export function KpiCards({ items }: { items: { id: string; label: string; value: string }[] }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }}>
      {items.map(({ id, label, value }) => (
        <FigureCard key={id} label={label} value={value} testId={id} />
      ))}
    </SimpleGrid>
  );
}

/** A change in percent: an arrow and a word for screen readers besides the colour (up green, down red). */
export function ChangeBadge({ change, testId }: { change: number; testId: string }) {
  const { t, i18n } = useTranslation();
  const up = change >= 0;
  return (
    <Badge variant="light" color={up ? 'green' : 'red'} data-testid={testId}>
      <span aria-hidden>{up ? '▲' : '▼'}</span>{' '}
      <VisuallyHidden>{`${t(up ? 'dashboard.up' : 'dashboard.down')} `}</VisuallyHidden>
      {Math.abs(change).toLocaleString(i18n.language)}%
    </Badge>
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

/** Figures per day: one series a figure of the day's row, drawn as `draw` says; screen readers get the table. */
export function DailyChart<R extends { date: string }>({
  label,
  rows,
  series,
  format,
  legend,
  top,
  height = 260,
  testId,
}: {
  label: string;
  rows: R[];
  series: { name: string; value: (row: R) => number; draw: object }[];
  format: (value: number) => string;
  legend?: object;
  top?: number;
  height?: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Chart
      label={label}
      height={height}
      {...(testId ? { testId } : {})}
      table={{
        head: [t('dashboard.date'), ...series.map((s) => s.name)],
        rows: rows.map((row) => [row.date, ...series.map((s) => s.value(row))]),
      }}
      option={seriesOption({
        categories: rows.map((row) => row.date),
        format,
        ...(legend ? { legend } : {}),
        ...(top === undefined ? {} : { top }),
        series: series.map((s) => ({ ...s.draw, name: s.name, data: rows.map(s.value) })),
      })}
    />
  );
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
