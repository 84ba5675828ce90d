// The dashboards' breakdowns against the previous period (compare=previous): each row of a list and
// each busiest link shows its change in percent, "new" when it had no clicks before, "—" when it had
// none in either; in words too (up, down, the previous count), not by colour alone, in Korean and
// English; with the comparison off, or when the periods cannot be compared, the rows show counts only.
import { screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DashboardData } from '../src/api';
import { DashboardView } from '../src/dashboard/DashboardView';
import { renderConsole, serveApi, type SentRequest } from './render';

type Trend = 'up' | 'down' | 'flat' | 'new' | 'none';
const compared = (current: number, previous: number, change: number | null, trend: Trend) => ({
  current,
  previous,
  change,
  trend,
});
/** A row; `before` is its previous-period figure, left out without a comparison, null when not comparable. */
const row = (name: string, count: number, percentage: number, before?: ReturnType<typeof compared> | null) => ({
  name,
  count,
  percentage,
  ...(before === undefined ? {} : { compared: before }),
});

function dashboardOf(compare: boolean, comparable = true): DashboardData {
  const c = (figure: ReturnType<typeof compared>) => (compare ? (comparable ? figure : null) : undefined);
  return {
    meta: {
      requestedStartDate: '2026-11-01',
      requestedEndDate: '2026-11-07',
      actualStartDate: '2026-11-01',
      actualEndDate: '2026-11-07',
      timeZone: 'Asia/Seoul',
      dataRetentionDays: 365,
      emptyReason: null,
      filters: {},
      geo: { regions: false, cities: false },
    },
    total: 10,
    previousTotal: 8,
    change: 25,
    comparison: compare
      ? {
          startDate: '2026-10-25',
          endDate: '2026-10-31',
          until: null,
          comparable,
          reason: comparable ? null : 'before_retention',
          total: comparable ? compared(10, 8, 25, 'up') : null,
          uniqueVisitors: comparable ? compared(10, 8, 25, 'up') : null,
          daily: comparable ? [{ date: '2026-10-31', count: 8, visitors: 8 }] : [],
          hourly: comparable ? [{ hour: '10:00', count: 8 }] : [],
        }
      : null,
    uniqueVisitors: 10,
    daily: [{ date: '2026-11-07', count: 10, visitors: 10 }],
    hourly: [{ hour: '10:00', count: 10 }],
    heatmap: [],
    countries: [
      row('JP', 6, 60, c(compared(6, 4, 50, 'up'))),
      row('KR', 3, 30, c(compared(3, 4, -25, 'down'))),
      row('US', 1, 10, c(compared(1, 0, null, 'new'))),
    ],
    browsers: [row('Chrome', 10, 100, c(compared(10, 8, 25, 'up')))],
    operatingSystems: [row('iOS', 10, 100, c(compared(10, 10, 0, 'flat')))],
    referrers: [row('Direct', 10, 100, c(compared(10, 8, 25, 'up')))],
    trackers: [],
    deviceTypes: [
      row('Mobile', 10, 100, c(compared(10, 8, 25, 'up'))),
      row('Desktop', 0, 0, c(compared(0, 0, null, 'none'))),
      row('Tablet', 0, 0, c(compared(0, 0, null, 'none'))),
    ],
    utm: { source: [row('kakao', 10, 100, c(compared(10, 8, 25, 'up')))], medium: [], campaign: [] },
    regions: [],
    cities: [],
    topLinks: [
      {
        type: 'url',
        id: 5,
        label: 'Sale',
        address: 'http://localhost:8080/sale',
        count: 10,
        percentage: 100,
        ...(compare ? { compared: comparable ? compared(10, 5, 100, 'up') : null } : {}),
      },
    ],
    link: null,
  } as unknown as DashboardData;
}

function serve(comparable = true): SentRequest[] {
  return serveApi({
    'GET /organizations/1/dashboard': (request) => ({
      status: 200,
      body: dashboardOf(new URL(request.path, 'http://x').searchParams.get('compare') === 'previous', comparable),
    }),
    'GET /organizations/1/dashboard/tags': (request) => {
      const compare = new URL(request.path, 'http://x').searchParams.get('compare') === 'previous';
      const tag = { id: 1, name: 'spring', color: '#228be6', clicks: 3, visitors: 3 };
      return {
        status: 200,
        body: { meta: {}, tags: [compare ? { ...tag, compared: compared(3, 1, 200, 'up') } : tag], comparison: null },
      };
    },
  });
}

/** The text of a list's row, by the name it shows. */
const rowText = async (name: string) => {
  const shown = await screen.findAllByText(name, { selector: 'li p' });
  return shown[0]!.closest('li')!.textContent;
};
const linkRow = async (label: string) => (await screen.findByRole('link', { name: label })).closest('tr')!;

describe('breakdowns against the previous period', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/console/dashboard?period=7d&timeZone=Asia%2FSeoul');
  });
  afterEach(async () => {
    await i18next.changeLanguage('ko');
  });

  it('shows each row its change in words and percent, new and none, and each busiest link its own, in Korean', async () => {
    const sent = serve();
    renderConsole(<DashboardView orgId={1} />);
    await waitFor(() =>
      expect(
        sent.some((r) => r.path.startsWith('/organizations/1/dashboard?') && r.path.includes('compare=previous')),
      ).toBe(true),
    );
    const japan = await rowText('일본');
    expect(japan).toContain('증가 50%');
    expect(japan).toContain('이전 기간: 4');
    expect(await rowText('대한민국')).toContain('감소 25%');
    const us = await rowText('미국');
    expect(us).toContain('신규');
    expect(us).toContain('이전 기간에는 없었음');
    expect(us).toContain('이전 기간: 0');
    expect(await rowText('iOS')).toContain('변화 없음 0%');
    const desktop = await rowText('데스크톱');
    expect(desktop).toContain('두 기간 모두 없음');
    const sale = within(await linkRow('Sale'));
    expect(sale.getByText(/증가/).closest('td')!.textContent).toContain('100%');
    expect(sale.getByText(/이전 기간: 5/)).toBeTruthy();
    // The Tags panel asks for the comparison too, and shows each tag's.
    const spring = await rowText('spring');
    expect(spring).toContain('증가 200%');
    expect(spring).toContain('이전 기간: 1');
    // The previous count is the badge's tooltip too.
    expect(screen.getByTitle('이전 기간: 5')).toBeTruthy();
    // A panel's CSV brings the previous period's columns too.
    const csv = screen.getByRole('link', { name: 'CSV 내려받기: 국가' }).getAttribute('href')!;
    expect(new URL(csv, 'http://x').searchParams.get('compare')).toBe('previous');
  });

  it('speaks English', async () => {
    await i18next.changeLanguage('en');
    serve();
    renderConsole(<DashboardView orgId={1} />);
    const japan = await rowText('Japan');
    expect(japan).toContain('up 50%');
    expect(japan).toContain('previous period: 4');
    expect(await rowText('South Korea')).toContain('down 25%');
    expect(await rowText('United States')).toContain('New');
    expect(await rowText('Desktop')).toContain('none in either period');
  });

  it('shows counts only with the comparison off, or when the previous period cannot be compared', async () => {
    window.history.replaceState(null, '', '/console/dashboard?period=7d&timeZone=Asia%2FSeoul&compare=off');
    const sent = serve();
    const { unmount } = renderConsole(<DashboardView orgId={1} />);
    const japan = await rowText('일본');
    expect(japan).not.toContain('이전 기간');
    expect(await rowText('spring')).not.toContain('이전 기간');
    expect(japan).not.toContain('%)▲');
    expect(sent.find((r) => r.path.startsWith('/organizations/1/dashboard?'))!.path).toContain('compare=off');
    const csv = screen.getByRole('link', { name: 'CSV 내려받기: 국가' }).getAttribute('href')!;
    expect(new URL(csv, 'http://x').searchParams.get('compare')).toBeNull();
    unmount();

    window.history.replaceState(null, '', '/console/dashboard?period=7d&timeZone=Asia%2FSeoul');
    serve(false);
    renderConsole(<DashboardView orgId={1} />);
    // The headline says why; the rows stay plain.
    expect(await screen.findByTestId('change-previous')).toHaveProperty(
      'textContent',
      '이전 기간은 보관 기간보다 오래되어 비교할 수 없습니다',
    );
    const plain = await rowText('일본');
    expect(plain).not.toContain('이전 기간');
    expect(plain).not.toContain('증가');
  });
});
