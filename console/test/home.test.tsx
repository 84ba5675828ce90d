// The console's home: today's clicks against yesterday's by the same time of day (from the week's
// weekday × hour figures, in a zone), the last 30 days' trend, the week's busiest links, and what
// it says with no click yet or when the figures do not come.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DashboardData, Usage } from '../src/api';
import { todayAgainstYesterday } from '../src/home/today';
import Overview from '../src/pages/Overview';
import { developer } from './fixtures';
import { renderConsole, serveApi } from './render';

describe("today's clicks against yesterday's by the same time", () => {
  // Wednesday 2026-11-25; yesterday is a Tuesday (weekday 2).
  const week = {
    daily: [
      { date: '2026-11-24', count: 40 },
      { date: '2026-11-25', count: 15 },
    ],
    heatmap: [
      { weekday: 2, hour: 8, count: 6 },
      { weekday: 2, hour: 9, count: 8 },
      { weekday: 2, hour: 10, count: 26 },
      // Last Wednesday's clicks are not yesterday's.
      { weekday: 3, hour: 8, count: 50 },
    ],
  };
  it.each([
    // 09:30 in Seoul: yesterday's 08:00 hour and half its 09:00 hour.
    ['2026-11-25T00:30:00Z', 'Asia/Seoul', { today: 15, yesterday: 10, change: 50, until: '09:30' }],
    // 10:00 sharp in Kathmandu (+5:45): the whole of 08:00 and 09:00, nothing of 10:00.
    ['2026-11-25T04:15:00Z', 'Asia/Kathmandu', { today: 15, yesterday: 14, change: 7.1, until: '10:00' }],
    // Before yesterday's first click: nothing to compare with.
    ['2026-11-25T07:59:00Z', 'UTC', { today: 15, yesterday: 0, change: null, until: '07:59' }],
    // Late in the day: every hour of yesterday.
    ['2026-11-25T23:00:00Z', 'UTC', { today: 15, yesterday: 40, change: -62.5, until: '23:00' }],
  ])('at %s in %s', (instant, zone, expected) => {
    expect(todayAgainstYesterday(week, new Date(instant), zone)).toEqual(expected);
  });

  it('counts the day after a spring-forward change in its own zone', () => {
    // 2025-03-10 09:00 in New York (EDT, UTC-4); yesterday, Sunday the 9th, lost its 02:00 hour.
    const dst = {
      daily: [{ date: '2025-03-10', count: 3 }],
      heatmap: [
        { weekday: 7, hour: 1, count: 2 },
        { weekday: 7, hour: 3, count: 4 },
      ],
    };
    expect(todayAgainstYesterday(dst, new Date('2025-03-10T13:00:00Z'), 'America/New_York')).toEqual({
      today: 3,
      yesterday: 6,
      change: -50,
      until: '09:00',
    });
  });
});

const usage = {
  plan: 'PRO',
  callsThisMonth: 120,
  monthlyQuota: 10000,
  remaining: 9880,
  resetsAt: '2026-12-01T00:00:00Z',
  addOns: { userJourney: false, revenueAnalytics: false },
  features: { qrCodes: true, dataRetentionDays: 365 },
} as unknown as Usage;

/** The organization's dashboard as the server answers it, with the figures the home reads. */
function dashboard(figures: Partial<DashboardData>): DashboardData {
  return {
    meta: {
      requestedStartDate: '2026-10-27',
      requestedEndDate: '2026-11-25',
      actualStartDate: '2026-10-27',
      actualEndDate: '2026-11-25',
      timeZone: 'UTC',
      dataRetentionDays: 365,
      emptyReason: null,
      filters: {},
    },
    total: 0,
    previousTotal: 0,
    change: null,
    uniqueVisitors: 0,
    daily: [],
    hourly: [],
    heatmap: [],
    countries: [],
    browsers: [],
    operatingSystems: [],
    referrers: [],
    trackers: [],
    deviceTypes: [],
    utm: { source: [], medium: [], campaign: [] },
    topLinks: [],
    link: null,
    ...figures,
  } as DashboardData;
}

/** Answers the home's two dashboard calls: 30 days (the trend) and 7 days (today, top links). */
function serveHome(month: DashboardData, week: DashboardData) {
  return serveApi({
    'GET /organizations/1/usage': { status: 200, body: usage },
    'GET /organizations/1/dashboard': (request) => {
      const q = new URL(request.path, 'http://x').searchParams;
      return { status: 200, body: q.get('startDate') === '2026-11-19' ? week : month };
    },
  });
}

describe('the home', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  // 14:30 on Wednesday 2026-11-25 in the zone the test runs in (the browser's, as the home reads it).
  const at = () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 25, 14, 30));
  };

  it("shows today's clicks, up against yesterday's by 14:30, the trend and the week's busiest link", async () => {
    at();
    const sent = serveHome(
      dashboard({
        total: 62,
        daily: [
          { date: '2026-11-24', count: 40, visitors: 30 },
          { date: '2026-11-25', count: 22, visitors: 20 },
        ],
      }),
      dashboard({
        total: 62,
        daily: [
          { date: '2026-11-24', count: 40, visitors: 30 },
          { date: '2026-11-25', count: 22, visitors: 20 },
        ],
        heatmap: [
          { weekday: 2, hour: 3, count: 8 },
          { weekday: 2, hour: 14, count: 6 },
          { weekday: 2, hour: 20, count: 26 },
        ],
        topLinks: [
          {
            type: 'url',
            id: 7,
            label: 'Winter sale',
            address: 'http://localhost:8080/winter',
            count: 50,
            percentage: 80.6,
          },
        ],
      }),
    );
    renderConsole(<Overview membership={developer} />);
    expect((await screen.findByTestId('today-clicks')).textContent).toBe('22');
    // 8 before 14:00 and half of the 14:00 hour's 6: 11, so today is up 100%.
    expect(screen.getByTestId('today-change').textContent).toBe('▲ 증가 100%');
    expect(screen.getByTestId('yesterday-clicks').textContent).toBe('어제 같은 시각(14:30)까지 11회');
    const trend = screen.getByTestId('trend-table');
    expect(
      within(trend)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['날짜클릭', '2026-11-2440', '2026-11-2522']);
    expect(screen.getByRole('link', { name: 'Winter sale' }).getAttribute('href')).toBe('/console/stats/urls/7');
    expect(screen.getByTestId('plan').textContent).toBe('PRO');
    const periods = sent
      .filter((r) => r.path.startsWith('/organizations/1/dashboard'))
      .map((r) => new URL(r.path, 'http://x').searchParams.get('startDate'));
    expect(periods.sort()).toEqual(['2026-10-27', '2026-11-19']);
  });

  it('says so when today is down, in English too', async () => {
    at();
    const week = dashboard({
      total: 21,
      daily: [{ date: '2026-11-25', count: 1, visitors: 1 }],
      heatmap: [{ weekday: 2, hour: 9, count: 20 }],
    });
    serveHome(week, week);
    await i18next.changeLanguage('en');
    try {
      renderConsole(<Overview membership={developer} />);
      expect((await screen.findByTestId('today-change')).textContent).toBe('▼ down 95%');
      expect(screen.getByTestId('yesterday-clicks').textContent).toBe('against 20 yesterday by 14:30');
      expect(screen.getByText("Today's clicks")).toBeTruthy();
      expect(screen.getByRole('heading', { name: 'Busiest links, last 7 days' })).toBeTruthy();
    } finally {
      await i18next.changeLanguage('ko');
    }
  });

  it('asks for a first link when nothing was clicked yet', async () => {
    at();
    serveHome(dashboard({}), dashboard({}));
    renderConsole(<Overview membership={developer} />);
    expect((await screen.findByTestId('no-clicks')).textContent).toBe(
      '아직 클릭이 없습니다 — 첫 링크를 만들어 보세요.',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: '링크 만들기' }));
    expect(window.location.pathname).toBe('/console/links');
    expect(screen.queryByTestId('today-clicks')).toBeNull();
  });

  it('says when the figures could not come, and tries again', async () => {
    let calls = 0;
    serveApi({
      'GET /organizations/1/usage': { status: 200, body: usage },
      'GET /organizations/1/dashboard': () => {
        calls += 1;
        return { status: 500, body: { status: 500, error: 'x', message: 'ClickHouse is away', code: 'INTERNAL' } };
      },
    });
    renderConsole(<Overview membership={developer} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('ClickHouse is away');
    const before = calls;
    await userEvent.setup().click(within(alert).getByRole('button', { name: '다시 시도' }));
    await vi.waitFor(() => expect(calls).toBeGreaterThan(before));
  });
});
