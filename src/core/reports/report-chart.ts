// The chart of a report's mail: clicks per day of the period, drawn by the library the console's
// dashboards use (Apache ECharts, its server-side SVG rendering) and turned into a PNG by resvg, a
// renderer shipped as a native binary inside its npm package. A server may have no fonts at all, so
// text is drawn only with the font the repository bundles (assets/fonts: Noto Sans KR, Latin and
// every Hangul syllable, SIL Open Font License); system fonts are never looked up. resvg's binary
// comes as an optional dependency per platform: an install without optional dependencies
// (`npm ci --omit=optional`, to leave chDB out) has none, and reports then go without their chart.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as echarts from 'echarts';

/** The bundled font, wherever the code runs from (src with tsx, dist when built): ../../../assets/fonts. */
const REPORT_FONT_FILES = [
  path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '..',
    '..',
    '..',
    'assets',
    'fonts',
    'NotoSansKR-Regular-Hangul.ttf',
  ),
];
const FONT_FAMILY = 'Noto Sans KR';

export const CHART_WIDTH = 640;
export const CHART_HEIGHT = 280;

export interface ReportChartInput {
  title: string;
  /** Labels of the x axis (the period's days) and the clicks of each. */
  days: { label: string; count: number }[];
  /** Previous period's clicks per day, drawn faintly beside; optional. */
  previous?: number[] | undefined;
  seriesName: string;
  previousName?: string | undefined;
}

function reportChartSvg(input: ReportChartInput): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: CHART_WIDTH, height: CHART_HEIGHT });
  try {
    chart.setOption({
      animation: false,
      backgroundColor: '#ffffff',
      textStyle: { fontFamily: FONT_FAMILY },
      title: {
        text: input.title,
        left: 16,
        top: 10,
        textStyle: { fontSize: 16, fontWeight: 'normal', color: '#1f2328' },
      },
      legend: input.previous ? { right: 16, top: 12, textStyle: { color: '#424a53' } } : undefined,
      grid: { left: 48, right: 24, top: 52, bottom: 36 },
      xAxis: { type: 'category', data: input.days.map((d) => d.label), axisLabel: { color: '#424a53' } },
      yAxis: { type: 'value', minInterval: 1, axisLabel: { color: '#424a53' } },
      series: [
        ...(input.previous
          ? [
              {
                name: input.previousName ?? '',
                type: 'line' as const,
                data: input.previous,
                symbol: 'none',
                lineStyle: { type: 'dashed' as const, color: '#8c959f' },
                itemStyle: { color: '#8c959f' },
              },
            ]
          : []),
        {
          name: input.seriesName,
          type: 'line' as const,
          data: input.days.map((d) => d.count),
          areaStyle: { opacity: 0.12 },
          lineStyle: { width: 2, color: '#0969da' },
          itemStyle: { color: '#0969da' },
        },
      ],
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

let renderer: Promise<typeof import('@resvg/resvg-js') | null> | undefined;
/** resvg, loaded on first use; null where its platform binary is not installed. */
const loadRenderer = () => (renderer ??= import('@resvg/resvg-js').catch(() => null));

/**
 * The chart as a PNG (twice the size, for sharp screens), text in the bundled font only; null when
 * this install has no PNG renderer.
 */
export async function renderReportChart(
  input: ReportChartInput,
  fontFiles: string[] = REPORT_FONT_FILES,
): Promise<Buffer | null> {
  const resvg = await loadRenderer();
  if (!resvg) return null;
  const png = new resvg.Resvg(reportChartSvg(input), {
    fitTo: { mode: 'zoom', value: 2 },
    background: '#ffffff',
    font: {
      fontFiles,
      loadSystemFonts: false,
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY,
    },
  })
    .render()
    .asPng();
  return png;
}
