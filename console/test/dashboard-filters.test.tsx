// A link's click dashboard filtered: the filters as chips above the panels (Korean and English,
// countries named in the console's language), a panel's row that adds its filter, every request
// and CSV link carrying the filters, and the whole state (period, zone, filters) in the address:
// read from it on arrival, written to it on each change, and followed back through history.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DashboardData } from '../src/api';
import { DashboardView } from '../src/dashboard/DashboardView';
import { readState, writeState } from '../src/dashboard/dashboard-state';
import { renderConsole, serveApi, type SentRequest } from './render';

const item = (name: string, count: number, percentage: number) => ({ name, count, percentage });

function dashboardOf(total: number, geo = { regions: false, cities: false }): DashboardData {
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
      geo,
    },
    total,
    previousTotal: 0,
    change: null,
    comparison: null,
    uniqueVisitors: total,
    daily: [{ date: '2026-11-07', count: total, visitors: total }],
    hourly: [{ hour: '10:00', count: total }],
    heatmap: [],
    countries: [item('JP', 6, 60), item('KR', 3, 30), item('Unknown', 1, 10)],
    browsers: [item('Chrome', total, 100)],
    operatingSystems: [item('iOS', total, 100)],
    referrers: [item('Direct', total, 100)],
    trackers: [],
    deviceTypes: [item('Mobile', total, 100), item('Desktop', 0, 0), item('Tablet', 0, 0)],
    utm: { source: [item('kakao', total, 100)], medium: [], campaign: [] },
    regions: geo.regions ? [item('KR-11', 7, 70), item('JP-13', 3, 30)] : [],
    cities: geo.cities ? [item('Seoul', 7, 70)] : [],
    topLinks: [],
    link: { type: 'url', id: 5, label: 'Sale', address: 'http://localhost:8080/sale' },
  } as unknown as DashboardData;
}

function serve(geo?: { regions: boolean; cities: boolean }): SentRequest[] {
  return serveApi({
    'GET /organizations/1/dashboard/urls/5': { status: 200, body: dashboardOf(10, geo) },
    'GET /organizations/1/urls/5/stats': { status: 200, body: { destinationStats: [] } },
  });
}

const dashboardCalls = (sent: SentRequest[]) =>
  sent
    .filter((r) => r.path.startsWith('/organizations/1/dashboard/'))
    .map((r) => new URL(r.path, 'http://x').searchParams);
const lastCall = (sent: SentRequest[]) => dashboardCalls(sent).at(-1)!;
const address = () => new URLSearchParams(window.location.search);
const chipTexts = (scope: HTMLElement = document.body) =>
  within(scope)
    .queryAllByTestId('filter-chip')
    .map((c) => c.textContent);

describe('dashboard state in the address', () => {
  it('reads the period, zone and filters, and writes them back the same', () => {
    const state = readState(
      '?period=custom&from=2026-11-01&to=2026-11-07&timeZone=Asia%2FSeoul&country=JP,KR&deviceType=mobile&os=',
    );
    expect(state).toEqual({
      choice: { preset: 'custom', from: '2026-11-01', to: '2026-11-07', timeZone: 'Asia/Seoul' },
      filters: { country: ['JP', 'KR'], deviceType: ['mobile'] },
      compare: true,
    });
    expect(readState(writeState(state))).toEqual(state);
    // The comparison with the previous period is on unless the address turns it off.
    const off = readState('?period=7d&timeZone=UTC&compare=off');
    expect(off.compare).toBe(false);
    expect(new URLSearchParams(writeState(off)).get('compare')).toBe('off');
    expect(readState(writeState(off))).toEqual(off);
    expect(readState('?period=forever&from=yesterday').choice).toMatchObject({ preset: '30d', from: '' });
  });
});

describe("a link's dashboard with filters", () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/console/stats/urls/5?period=7d&timeZone=Asia%2FSeoul&country=JP');
  });
  afterEach(async () => {
    await i18next.changeLanguage('ko');
  });

  it('shows the filters of the address as chips and asks every panel with them', async () => {
    const sent = serve();
    renderConsole(<DashboardView orgId={1} link={{ type: 'url', id: 5 }} />);
    const chips = await screen.findByRole('group', { name: '필터' });
    expect(chipTexts(chips)).toEqual(['국가: 일본']);
    await waitFor(() => expect(dashboardCalls(sent).length).toBeGreaterThan(0));
    expect(lastCall(sent).get('country')).toBe('JP');
    expect(lastCall(sent).get('timeZone')).toBe('Asia/Seoul');
    const destinations = sent.find((r) => r.path.startsWith('/organizations/1/urls/5/stats'))!;
    expect(new URL(destinations.path, 'http://x').searchParams.get('country')).toBe('JP');
    const csv = (await screen.findByRole('link', { name: 'CSV 내려받기: 국가' })).getAttribute('href')!;
    expect(new URL(csv, 'http://x').searchParams.get('country')).toBe('JP');
    expect(new URL(csv, 'http://x').searchParams.get('link')).toBe('url:5');
  });

  it('adds a filter from a panel row by keyboard, removes chips one by one and all, and follows history', {
    timeout: 60_000,
  }, async () => {
    const sent = serve();
    const user = userEvent.setup();
    renderConsole(<DashboardView orgId={1} link={{ type: 'url', id: 5 }} />);
    // A role query walks the whole page; on a busy machine one walk can take longer than the default second.
    const korea = await screen.findByRole('button', { name: '국가: 대한민국만 보기' }, { timeout: 10_000 });
    // Unknown countries filter nothing: no button.
    expect(screen.queryByRole('button', { name: /알 수 없음만 보기/ })).toBeNull();
    korea.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(address().get('country')).toBe('JP,KR'));
    await waitFor(() => expect(lastCall(sent).get('country')).toBe('JP,KR'));
    expect(address().get('period')).toBe('7d');

    await user.click(screen.getByRole('button', { name: '기기: 모바일만 보기' }));
    await waitFor(() => expect(address().get('deviceType')).toBe('mobile'));
    expect(chipTexts()).toEqual(['국가: 일본', '국가: 대한민국', '기기: 모바일']);

    await user.click(screen.getByRole('button', { name: '필터 제거: 국가: 일본' }));
    await waitFor(() => expect(address().get('country')).toBe('KR'));
    await waitFor(() => expect(lastCall(sent).get('country')).toBe('KR'));

    await user.click(screen.getByRole('button', { name: '필터 모두 지우기' }));
    await waitFor(() => expect(screen.queryByTestId('filter-chip')).toBeNull());
    expect(address().get('country')).toBeNull();
    expect(lastCall(sent).get('deviceType')).toBeNull();

    // Back: the filters of the entry before.
    window.history.back();
    await waitFor(() => expect(chipTexts()).toEqual(['국가: 대한민국', '기기: 모바일']));
  });

  it('writes a bare address out in full, and speaks English', async () => {
    window.history.replaceState(null, '', '/console/stats/urls/5');
    await i18next.changeLanguage('en');
    serve();
    renderConsole(<DashboardView orgId={1} link={{ type: 'url', id: 5 }} />);
    await waitFor(() => expect(address().get('period')).toBe('30d'));
    expect(address().get('timeZone')).toBeTruthy();
    expect(await screen.findByText(/Select a country, device/)).toBeTruthy();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Show only Country: Japan' }));
    const chips = await screen.findByRole('group', { name: 'Filters' });
    expect(chipTexts(chips)).toEqual(['Country: Japan']);
    expect(within(chips).getByRole('button', { name: 'Remove filter Country: Japan' })).toBeTruthy();
    expect(within(chips).getByRole('button', { name: 'Clear all filters' })).toBeTruthy();
  });
});

describe('regions and cities on a dashboard', () => {
  afterEach(async () => {
    await i18next.changeLanguage('ko');
  });

  it('show no panel when the GeoIP database knows countries only', async () => {
    window.history.replaceState(null, '', '/console/stats/urls/5?period=7d');
    serve();
    renderConsole(<DashboardView orgId={1} link={{ type: 'url', id: 5 }} />);
    // The first render of a file waits for the lazy chart library: long on a busy machine.
    await screen.findByRole('region', { name: '국가' }, { timeout: 20_000 });
    expect(screen.queryByRole('region', { name: '지역별 클릭' })).toBeNull();
    expect(screen.queryByRole('region', { name: '도시별 클릭' })).toBeNull();
  });

  it('list regions beside their country and cities, and a row adds its filter, in Korean and English', async () => {
    window.history.replaceState(null, '', '/console/stats/urls/5?period=7d');
    const sent = serve({ regions: true, cities: true });
    const user = userEvent.setup();
    renderConsole(<DashboardView orgId={1} link={{ type: 'url', id: 5 }} />);
    const regions = await screen.findByRole('region', { name: '지역별 클릭' }, { timeout: 20_000 });
    expect(within(regions).getByText('KR-11 (대한민국)')).toBeTruthy();
    await user.click(within(regions).getByRole('button', { name: '지역: KR-11만 보기' }));
    await waitFor(() => expect(address().get('region')).toBe('KR-11'));
    await waitFor(() => expect(lastCall(sent).get('region')).toBe('KR-11'));
    expect(chipTexts()).toEqual(['지역: KR-11']);

    await i18next.changeLanguage('en');
    const cities = await screen.findByRole('region', { name: 'Clicks by city' });
    await user.click(within(cities).getByRole('button', { name: 'Show only City: Seoul' }));
    await waitFor(() => expect(address().get('city')).toBe('Seoul'));
    expect(chipTexts()).toEqual(['Region: KR-11', 'City: Seoul']);
    const csv = within(cities).getByRole('link', { name: 'Download CSV: Clicks by city' }).getAttribute('href')!;
    expect(new URL(csv, 'http://x').searchParams.get('panel')).toBe('cities');
  });
});
