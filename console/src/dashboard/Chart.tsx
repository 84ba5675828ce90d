// An Apache ECharts chart that follows the console's colour scheme and the page's width. Screen
// readers get its label and, where given, the figures as a table that only they see. Only the chart kinds the dashboards use are
// bundled, and only into the dashboards' chunk.
import { Box, Table, useComputedColorScheme, VisuallyHidden } from '@mantine/core';
import { BarChart, HeatmapChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import { type EChartsCoreOption, init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

use([
  LineChart,
  BarChart,
  PieChart,
  HeatmapChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  VisualMapComponent,
  SVGRenderer,
]);

export function Chart({
  option,
  height = 260,
  label,
  table,
  testId,
  onPick,
}: {
  option: EChartsCoreOption;
  height?: number;
  label: string;
  table?: { head: string[]; rows: (string | number)[][] };
  testId?: string;
  /** A click on a bar or slice: its index in the series' data (keyboard users pick from the panel's list instead). */
  onPick?: ((dataIndex: number) => void) | undefined;
}) {
  const element = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');
  const picked = useRef(onPick);
  picked.current = onPick;
  useEffect(() => {
    if (!element.current) return;
    const chart = init(element.current, scheme === 'dark' ? 'dark' : undefined, { renderer: 'svg' });
    chart.setOption({ backgroundColor: 'transparent', ...option });
    chart.on('click', (params) => picked.current?.((params as { dataIndex: number }).dataIndex));
    const resize = new ResizeObserver(() => chart.resize());
    resize.observe(element.current);
    return () => {
      resize.disconnect();
      chart.dispose();
    };
  }, [option, scheme]);
  return (
    <>
      <Box ref={element} h={height} w="100%" role="img" aria-label={label} />
      {table && (
        <VisuallyHidden>
          <Table data-testid={testId}>
            <Table.Thead>
              <Table.Tr>
                {table.head.map((h) => (
                  <Table.Th key={h}>{h}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {table.rows.map((row) => (
                <Table.Tr key={String(row[0])}>
                  <Table.Th scope="row">{row[0]}</Table.Th>
                  {table.head.slice(1).map((column, i) => (
                    <Table.Td key={column}>{row[i + 1]}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </VisuallyHidden>
      )}
    </>
  );
}
