// The chart of a report's mail: a PNG that decodes, at the size the mail shows it (twice, for sharp
// screens), with its Korean title drawn by the bundled font: rendered without that font, the same
// chart has no text where the title stands, so this test fails if the font goes missing.
import { describe, expect, it } from 'vitest';
import { CHART_HEIGHT, CHART_WIDTH, renderReportChart } from '../../src/core/reports/report-chart.js';
import { darkPixels, decodePng } from '../support/png.js';

const chart = {
  title: '봄맞이 캠페인 일별 클릭',
  days: ['11-16', '11-17', '11-18', '11-19', '11-20', '11-21', '11-22'].map((label, i) => ({ label, count: i * 2 })),
  previous: [1, 1, 2, 2, 3, 3, 4],
  seriesName: '클릭',
  previousName: '이전 기간',
};
// Where the title is drawn (left 16, top 10, 16 px), at the PNG's scale of 2.
const TITLE = { x: 32, y: 20, width: 360, height: 40 };

describe('report chart', () => {
  it('is a PNG of twice the chart size whose Korean title is drawn with the bundled font', async () => {
    const png = decodePng((await renderReportChart(chart))!);
    expect(png.width).toBe(CHART_WIDTH * 2);
    expect(png.height).toBe(CHART_HEIGHT * 2);
    const withFont = darkPixels(png, TITLE);
    const withoutFont = darkPixels(decodePng((await renderReportChart(chart, []))!), TITLE);
    expect(withoutFont).toBe(0);
    expect(withFont).toBeGreaterThan(500);
  });

  it('draws the line of clicks in the plot area', async () => {
    const png = decodePng((await renderReportChart(chart))!);
    const blue = (() => {
      let n = 0;
      for (let i = 0; i < png.width * png.height; i++) {
        const [r, g, b] = [png.pixels[i * 4]!, png.pixels[i * 4 + 1]!, png.pixels[i * 4 + 2]!];
        if (b > 180 && r < 60 && g < 140) n++;
      }
      return n;
    })();
    expect(blue).toBeGreaterThan(200);
  });
});
