// The console's click dashboards over the console API: known clicks in, the organization's and one
// link's panels out in UTC and in Asia/Seoul (days and the weekday × hour heatmap move with the
// zone), the previous period's change, the busiest links with their names, UTM sources, each panel
// as CSV with the API's own numbers, and who may read them.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/shared/ids.js';
import { looseEvent } from './support/loose-event.js';
import { recordClicks } from './support/recorded-clicks.js';
import { eventually, isolate, startService, type Isolation, type TestService } from './support/service.js';

const BASE = 'http://localhost:8080';

describe('console dashboards', () => {
  let isolation: Isolation;
  let svc: TestService;
  let org: { id: number; apiKey: string };
  let urlId: number;
  let campaignId: number;
  let owner: string;
  let analyst: string;
  let stranger: string;

  const cookieOf = (res: LightMyRequestResponse) => {
    const all = res.headers['set-cookie'];
    const list = Array.isArray(all) ? all : all ? [String(all)] : [];
    return list.find((c) => c.startsWith('sp_session='))!.split(';')[0]!;
  };
  async function signIn(email: string): Promise<string> {
    const link = new URL((await svc.admin('POST', '/login-links', { email })).json().url);
    return cookieOf(await svc.inject({ method: 'GET', url: `${link.pathname}${link.search}` }));
  }
  const get = (url: string, cookie = owner) =>
    svc.inject({ method: 'GET', url: `/console/api${url}`, headers: { cookie } });
  const dashboard = async (path: string, query: string, cookie = owner) => {
    const res = await get(`/organizations/${org.id}/dashboard${path}?${query}`, cookie);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    isolation = await isolate();
    svc = await startService(isolation, { PUBLIC_BASE_URL: BASE });
    org = await svc.createOrganization('Dashboards', 'ENTERPRISE');
    const other = await svc.createOrganization('Elsewhere', 'ENTERPRISE');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'owner@dash.example', role: 'owner' });
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'analyst@dash.example', role: 'analyst' });
    await svc.admin('POST', `/organizations/${other.id}/members`, { email: 'owner@else.example', role: 'owner' });
    [owner, analyst, stranger] = (await Promise.all(
      ['owner@dash.example', 'analyst@dash.example', 'owner@else.example'].map(signIn),
    )) as [string, string, string];
    urlId = (await svc.createLink(org, { url: 'https://example.com/sale', customAlias: 'sale', title: 'Sale' })).id;
    campaignId = (
      await svc.createCampaign(org, { name: 'Push', originalUrl: 'https://example.com/push', alias: 'push' })
    ).id;
    // Friday 2026-11-20 23:30 UTC is Saturday 08:30 in Seoul.
    await recordClicks(svc, org.id, 'url', urlId, [
      { at: '2026-11-18T09:00:00Z' },
      { at: '2026-11-19T09:00:00Z' },
      { at: '2026-11-20T23:30:00Z' },
      { at: '2026-11-20T23:40:00Z' },
      { at: '2026-11-20T23:50:00Z' },
      { at: '2026-11-21T10:00:00Z', utmSource: 'kakao' },
      { at: '2026-11-21T10:05:00Z', utmSource: 'kakao' },
    ]);
    await recordClicks(svc, org.id, 'campaign', campaignId, [{ at: '2026-11-21T12:00:00Z', tracker: 'insta' }]);
  });

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  const PERIOD = 'startDate=2026-11-20&endDate=2026-11-21';

  it('counts the organization by day and weekday × hour in the zone asked, against the previous period', async () => {
    const utc = await dashboard('', `${PERIOD}&timeZone=UTC`);
    // Every click came from one address and browser: one visitor a UTC day, two over the period.
    expect(utc.daily).toEqual([
      { date: '2026-11-20', count: 3, visitors: 1 },
      { date: '2026-11-21', count: 3, visitors: 1 },
    ]);
    expect(utc.total).toBe(6);
    expect(utc.uniqueVisitors).toBe(2);
    expect(utc.previousTotal).toBe(2);
    expect(utc.change).toBe(200);
    expect(utc.heatmap).toEqual(
      expect.arrayContaining([
        { weekday: 5, hour: 23, count: 3 },
        { weekday: 6, hour: 10, count: 2 },
        { weekday: 6, hour: 12, count: 1 },
      ]),
    );
    expect(utc.heatmap).toHaveLength(3);
    expect(utc.meta).toMatchObject({ actualStartDate: '2026-11-20', actualEndDate: '2026-11-21', timeZone: 'UTC' });

    const seoul = await dashboard('', `${PERIOD}&timeZone=Asia/Seoul`);
    // Saturday in Seoul spans two UTC days, so the same person is two visitors in it.
    expect(seoul.daily).toEqual([
      { date: '2026-11-20', count: 0, visitors: 0 },
      { date: '2026-11-21', count: 6, visitors: 2 },
    ]);
    expect(seoul.heatmap).toEqual(
      expect.arrayContaining([
        { weekday: 6, hour: 8, count: 3 },
        { weekday: 6, hour: 19, count: 2 },
        { weekday: 6, hour: 21, count: 1 },
      ]),
    );
    expect(seoul.hourly.find((h: { hour: string }) => h.hour === '08:00').count).toBe(3);

    expect(utc.topLinks).toEqual([
      { type: 'url', id: urlId, label: 'Sale', address: `${BASE}/sale`, count: 5, percentage: 83.3 },
      { type: 'campaign', id: campaignId, label: 'Push', address: `${BASE}/push`, count: 1, percentage: 16.7 },
    ]);
    expect(utc.utm.source).toEqual([{ name: 'kakao', count: 2, percentage: 33.3 }]);
    expect(utc.deviceTypes[0]).toEqual({ name: 'Mobile', count: 6, percentage: 100 });
  });

  it("answers one link's page with the Service API's figures, and a campaign's trackers", async () => {
    const page = await dashboard(`/urls/${urlId}`, `${PERIOD}&timeZone=UTC`);
    expect(page.link).toEqual({ type: 'url', id: urlId, label: 'Sale', address: `${BASE}/sale` });
    expect(page.total).toBe(5);
    expect(page.topLinks).toEqual([]);
    const api = (await svc.service('GET', `/urls/${urlId}/stats?${PERIOD}&timeZone=UTC`, org.apiKey)).json();
    expect(page.daily.map((d: { count: number }) => d.count)).toEqual(api.chartData);
    expect(page.daily.map((d: { visitors: number }) => d.visitors)).toEqual(api.uniqueVisitorsChartData);
    expect(page.uniqueVisitors).toBe(api.uniqueVisitors);
    expect(page.countries).toEqual(api.topCountries);
    // The campaign's Service API statistics carry the visitors beside the spec's dailyClicks, which keep their shape.
    const campaignApi = (
      await svc.service('GET', `/campaigns/${campaignId}/stats?${PERIOD}&timeZone=UTC`, org.apiKey)
    ).json();
    expect(campaignApi.dailyClicks).toEqual([
      { date: '2026-11-20', count: 0 },
      { date: '2026-11-21', count: 1 },
    ]);
    expect(campaignApi.dailyUniqueVisitors).toEqual([
      { date: '2026-11-20', count: 0 },
      { date: '2026-11-21', count: 1 },
    ]);
    expect(campaignApi.uniqueVisitors).toBe(1);
    const campaign = await dashboard(`/campaigns/${campaignId}`, `${PERIOD}&timeZone=UTC`);
    expect(campaign.trackers).toEqual([{ name: 'insta', count: 1, percentage: 100 }]);
    expect(campaign.previousTotal).toBe(0);
    expect(campaign.change).toBeNull();
  });

  it('compares with the previous period in one call: its figures are those of a direct query of it, local days across the spring-forward change in New York', async () => {
    const { id } = await svc.createLink(org, { url: 'https://example.com/spring', customAlias: 'spring' });
    // 2026-03-08 is the 23-hour day in America/New_York; the previous period of 03-09 … 03-22 is 02-23 … 03-08.
    await recordClicks(svc, org.id, 'url', id, [
      { at: '2026-02-23T04:30:00Z' }, // 02-22 23:30 EST: before the previous period
      { at: '2026-02-23T05:30:00Z', utmSource: 'kakao' }, // 02-23 00:30 EST: its first day
      { at: '2026-03-08T06:30:00Z', utmSource: 'kakao' }, // 03-08 01:30 EST
      { at: '2026-03-08T07:30:00Z' }, // 03-08 03:30 EDT
      { at: '2026-03-09T03:30:00Z', utmSource: 'kakao' }, // 03-08 23:30 EDT: its last day
      { at: '2026-03-09T04:30:00Z' }, // 03-09 00:30 EDT: the period's first day
      { at: '2026-03-10T15:00:00Z', utmSource: 'kakao' },
      { at: '2026-03-22T12:00:00Z' },
    ]);
    const zone = 'timeZone=America/New_York';
    for (const filter of ['', '&utmSource=kakao']) {
      const page = await dashboard(
        `/urls/${id}`,
        `startDate=2026-03-09&endDate=2026-03-22&${zone}${filter}&compare=previous`,
      );
      const direct = await dashboard(`/urls/${id}`, `startDate=2026-02-23&endDate=2026-03-08&${zone}${filter}`);
      const { comparison } = page;
      expect(comparison).toMatchObject({
        startDate: '2026-02-23',
        endDate: '2026-03-08',
        until: null,
        comparable: true,
      });
      expect(comparison.daily).toEqual(direct.daily);
      expect(comparison.hourly).toEqual(direct.hourly);
      expect(comparison.total).toEqual({
        current: page.total,
        previous: direct.total,
        change: Math.round(((page.total - direct.total) / direct.total) * 1000) / 10,
        trend: page.total > direct.total ? 'up' : page.total < direct.total ? 'down' : 'flat',
      });
      expect(comparison.uniqueVisitors.previous).toBe(direct.uniqueVisitors);
      // The n-th previous day lines up with the n-th day: both 14 local days long.
      expect(comparison.daily).toHaveLength(page.daily.length);
    }
    const all = await dashboard(`/urls/${id}`, `startDate=2026-03-09&endDate=2026-03-22&${zone}&compare=previous`);
    expect(all.comparison.total).toEqual({ current: 3, previous: 4, change: -25, trend: 'down' });
    expect(all.comparison.daily.at(-1)).toMatchObject({ date: '2026-03-08', count: 3 });
    expect(all.comparison.daily[0]).toMatchObject({ date: '2026-02-23', count: 1 });
    const kakao = await dashboard(
      `/urls/${id}`,
      `startDate=2026-03-09&endDate=2026-03-22&${zone}&utmSource=kakao&compare=previous`,
    );
    expect(kakao.comparison.total).toEqual({ current: 1, previous: 3, change: -66.7, trend: 'down' });
    // A day with no clicks the day before: new.
    const day = await dashboard(`/urls/${id}`, `startDate=2026-03-22&endDate=2026-03-22&${zone}&compare=previous`);
    expect(day.comparison.total).toEqual({ current: 1, previous: 0, change: null, trend: 'new' });
    // Without compare=previous nothing more is read.
    expect((await dashboard(`/urls/${id}`, `startDate=2026-03-09&endDate=2026-03-22&${zone}`)).comparison).toBeNull();
  });

  it('compares each row of every breakdown with the same row of the previous period, in the answer and in the CSV', async () => {
    const rows = await svc.createOrganization('Compared rows', 'ENTERPRISE');
    await svc.admin('POST', `/organizations/${rows.id}/members`, { email: 'owner@dash.example', role: 'owner' });
    const alpha = (await svc.createLink(rows, { url: 'https://example.com/a', customAlias: 'alpha', title: 'Alpha' }))
      .id;
    const beta = (await svc.createLink(rows, { url: 'https://example.com/b', customAlias: 'beta', title: 'Beta' })).id;
    const DESKTOP =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
    // The previous period of 10-08 … 10-14 is 10-01 … 10-07: three clicks there, five in the period.
    await recordClicks(svc, rows.id, 'url', alpha, [
      { at: '2026-10-02T09:00:00Z', utmSource: 'kakao', referrer: 'https://news.example/a' },
      {
        at: '2026-10-02T09:10:00Z',
        utmSource: 'kakao',
        referrer: 'https://news.example/a',
        destinationUrl: 'https://example.com/v',
      },
      {
        at: '2026-10-10T09:00:00Z',
        utmSource: 'kakao',
        referrer: 'https://news.example/a',
        destinationUrl: 'https://example.com/a',
      },
      { at: '2026-10-10T09:10:00Z', referrer: 'https://blog.example/p' },
      { at: '2026-10-10T09:20:00Z', referrer: 'https://blog.example/p' },
    ]);
    await recordClicks(svc, rows.id, 'url', beta, [
      { at: '2026-10-02T10:00:00Z', utmSource: 'naver' },
      { at: '2026-10-10T10:00:00Z', utmSource: 'naver', userAgent: DESKTOP },
      { at: '2026-10-10T10:10:00Z', utmSource: 'naver' },
    ]);
    const page = async (path: string, query: string) => {
      const res = await get(
        `/organizations/${rows.id}/dashboard${path}?startDate=2026-10-08&endDate=2026-10-14&timeZone=UTC&${query}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const rowsOf = (items: { name?: string; label?: string; count: number; compared?: unknown }[]) =>
      items.map((i) => [i.name ?? i.label, i.count, i.compared]);
    const overview = await page('', 'compare=previous');
    expect(overview.comparison.total).toEqual({ current: 5, previous: 3, change: 66.7, trend: 'up' });
    expect(rowsOf(overview.topLinks)).toEqual([
      ['Alpha', 3, { current: 3, previous: 2, change: 50, trend: 'up' }],
      ['Beta', 2, { current: 2, previous: 1, change: 100, trend: 'up' }],
    ]);
    expect(rowsOf(overview.utm.source)).toEqual([
      ['naver', 2, { current: 2, previous: 1, change: 100, trend: 'up' }],
      ['kakao', 1, { current: 1, previous: 2, change: -50, trend: 'down' }],
    ]);
    // blog.example had no click before: new; Direct (Beta's) doubled; news.example halved.
    expect(rowsOf(overview.referrers)).toEqual([
      ['blog.example', 2, { current: 2, previous: 0, change: null, trend: 'new' }],
      ['Direct', 2, { current: 2, previous: 1, change: 100, trend: 'up' }],
      ['news.example', 1, { current: 1, previous: 2, change: -50, trend: 'down' }],
    ]);
    expect(rowsOf(overview.deviceTypes)).toEqual([
      ['Mobile', 4, { current: 4, previous: 3, change: 33.3, trend: 'up' }],
      ['Desktop', 1, { current: 1, previous: 0, change: null, trend: 'new' }],
      ['Tablet', 0, { current: 0, previous: 0, change: null, trend: 'none' }],
    ]);
    expect(
      overview.countries.reduce((sum: number, c: { compared: { previous: number } }) => sum + c.compared.previous, 0),
    ).toBe(3);
    // Filtered, both periods narrow alike; one link's page compares its own rows.
    const naver = await page('', 'compare=previous&utmSource=naver');
    expect(rowsOf(naver.topLinks)).toEqual([['Beta', 2, { current: 2, previous: 1, change: 100, trend: 'up' }]]);
    const one = await page(`/urls/${alpha}`, 'compare=previous');
    expect(rowsOf(one.referrers)).toEqual([
      ['blog.example', 2, { current: 2, previous: 0, change: null, trend: 'new' }],
      ['news.example', 1, { current: 1, previous: 2, change: -50, trend: 'down' }],
    ]);
    // The previous period's clicks per destination, for the destinations panel: those of the link's statistics of it.
    expect(one.comparison.destinations).toEqual([
      { url: 'https://example.com/a', count: 1 },
      { url: 'https://example.com/v', count: 1 },
    ]);
    const direct = (
      await svc.service('GET', `/urls/${alpha}/stats?startDate=2026-10-01&endDate=2026-10-07&timeZone=UTC`, rows.apiKey)
    ).json();
    expect(
      direct.destinationStats.map((d: { url: string; count: number }) => ({ url: d.url, count: d.count })),
    ).toEqual(one.comparison.destinations);
    expect(overview.comparison.destinations).toEqual([]);
    // Without the comparison the rows are as they were.
    expect((await page('', 'compare=off')).utm.source).toEqual([
      { name: 'naver', count: 2, percentage: 40 },
      { name: 'kakao', count: 1, percentage: 20 },
    ]);

    const csv = async (query: string) => {
      const res = await get(
        `/organizations/${rows.id}/dashboard/export.csv?startDate=2026-10-08&endDate=2026-10-14&timeZone=UTC&${query}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.body.replace('\uFEFF', '').trimEnd().split('\r\n');
    };
    expect(await csv('panel=utmSource&compare=previous')).toEqual([
      'name,clicks,percentage,previousClicks,change,trend',
      'naver,2,40,1,100,up',
      'kakao,1,20,2,-50,down',
    ]);
    expect(await csv('panel=topLinks&compare=previous')).toEqual([
      'type,id,label,address,clicks,percentage,previousClicks,change,trend',
      `url,${alpha},Alpha,${BASE}/alpha,3,60,2,50,up`,
      `url,${beta},Beta,${BASE}/beta,2,40,1,100,up`,
    ]);
    const daily = await csv('panel=daily&compare=previous');
    expect(daily[0]).toBe('date (UTC),clicks,visitors,previousDate,previousClicks,previousVisitors,change,trend');
    expect(daily.slice(1, 4)).toEqual([
      '2026-10-08,0,0,2026-10-01,0,0,,none',
      '2026-10-09,0,0,2026-10-02,3,1,-100,down',
      '2026-10-10,5,2,2026-10-03,0,0,,new',
    ]);
    expect((await csv('panel=hourly&compare=previous')).slice(10, 12)).toEqual(['09:00,3,2,50,up', '10:00,2,1,100,up']);
    expect(await csv('panel=utmSource')).toEqual(['name,clicks,percentage', 'naver,2,40', 'kakao,1,20']);
  });

  it('compares today so far with the same time of day yesterday, and nothing older than the retention', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const before = Date.now();
    const page = await dashboard('', `startDate=${today}&endDate=${today}&timeZone=UTC&compare=previous`);
    const after = Date.now();
    const until = Date.parse(page.comparison.until);
    const DAY = 86_400_000;
    // Yesterday up to now's time of day, to the quarter hour.
    expect(until).toBeLessThanOrEqual(after - DAY);
    expect(until).toBeGreaterThan(before - DAY - 15 * 60_000);
    expect(page.comparison.endDate).toBe(new Date(before - DAY).toISOString().slice(0, 10));
    const free = await svc.createOrganization('Free compare', 'FREE');
    await svc.admin('POST', `/organizations/${free.id}/members`, { email: 'owner@dash.example', role: 'owner' });
    const res = await get(`/organizations/${free.id}/dashboard?timeZone=UTC&compare=previous`);
    expect(res.json().comparison).toMatchObject({ comparable: false, reason: 'before_retention', total: null });
    const bad = await get(`/organizations/${org.id}/dashboard?compare=yes`);
    expect(bad.statusCode).toBe(400);
  });

  it('counts unique visitors: an address and browser once a day, bots never, the period as the sum of its days, in the Service API and the dashboard alike', async () => {
    const { id } = await svc.createLink(org, { url: 'https://example.com/visitors', customAlias: 'visitors' });
    const ANDROID =
      'Mozilla/5.0 (Linux; Android 14; SM-S918N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
    await recordClicks(svc, org.id, 'url', id, [
      { at: '2026-11-22T01:00:00Z', ip: '198.51.100.1' },
      { at: '2026-11-22T02:00:00Z', ip: '198.51.100.1' },
      { at: '2026-11-22T03:00:00Z', ip: '198.51.100.2' },
      { at: '2026-11-22T04:00:00Z', ip: '198.51.100.2', userAgent: ANDROID },
      { at: '2026-11-22T05:00:00Z', ip: '198.51.100.3', bot: true },
      // One UTC day, two days in Seoul (23:30 and 00:30 there).
      { at: '2026-11-22T14:30:00Z', ip: '198.51.100.9' },
      { at: '2026-11-22T15:30:00Z', ip: '198.51.100.9' },
      { at: '2026-11-23T01:00:00Z', ip: '198.51.100.1' },
    ]);
    const query = 'startDate=2026-11-22&endDate=2026-11-23&timeZone=UTC';
    const api = (await svc.service('GET', `/urls/${id}/stats?${query}`, org.apiKey)).json();
    expect(api.chartData).toEqual([6, 1]);
    expect(api.uniqueVisitorsChartData).toEqual([4, 1]);
    expect(api.uniqueVisitors).toBe(5);
    const page = await dashboard(`/urls/${id}`, query);
    expect(page.uniqueVisitors).toBe(5);
    expect(page.daily.map((d: { visitors: number }) => d.visitors)).toEqual([4, 1]);
    // The period's visitors are the sum of its days': in Seoul the late visitor is there on both.
    const seoul = (
      await svc.service(
        'GET',
        `/urls/${id}/stats?startDate=2026-11-22&endDate=2026-11-23&timeZone=Asia/Seoul`,
        org.apiKey,
      )
    ).json();
    expect(seoul.chartData).toEqual([5, 2]);
    expect(seoul.uniqueVisitorsChartData).toEqual([4, 2]);
    expect(seoul.uniqueVisitors).toBe(6);
    // One hash per address, browser and day, bots included in the raw table.
    const rows = await svc.clickhouse<{ visitor: string }>(
      'SELECT toString(visitor_hash) AS visitor FROM clicks WHERE link_id = {id:UInt64} ORDER BY ts',
      { id },
    );
    expect(rows.map((r) => r.visitor).filter((v, i, all) => all.indexOf(v) === i)).toHaveLength(6);
  });

  it('exports a panel as CSV with the same numbers', async () => {
    const res = await get(`/organizations/${org.id}/dashboard/export.csv?${PERIOD}&timeZone=Asia/Seoul&panel=daily`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="organization-daily-2026-11-20-2026-11-21.csv"',
    );
    expect(res.body).toBe('\uFEFFdate (Asia/Seoul),clicks,visitors\r\n2026-11-20,0,0\r\n2026-11-21,6,2\r\n');
    const links = await get(`/organizations/${org.id}/dashboard/export.csv?${PERIOD}&timeZone=UTC&panel=topLinks`);
    expect(links.body.split('\r\n').slice(1, 3)).toEqual([
      `url,${urlId},Sale,${BASE}/sale,5,83.3`,
      `campaign,${campaignId},Push,${BASE}/push,1,16.7`,
    ]);
    const trackers = await get(
      `/organizations/${org.id}/dashboard/export.csv?${PERIOD}&timeZone=UTC&panel=trackers&link=campaign:${campaignId}`,
    );
    expect(trackers.body).toBe('\uFEFFname,clicks,percentage\r\ninsta,1,100\r\n');
    // A campaign's revenue (ENTERPRISE includes the add-on): the campaign statistics' figures, per day and per currency.
    const revenue = await get(
      `/organizations/${org.id}/dashboard/export.csv?${PERIOD}&timeZone=UTC&panel=revenue&link=campaign:${campaignId}`,
    );
    expect(revenue.statusCode).toBe(200);
    const stats = (
      await svc.service('GET', `/campaigns/${campaignId}/stats?${PERIOD}&timeZone=UTC`, org.apiKey)
    ).json();
    expect(revenue.body.split('\r\n').slice(1, 3)).toEqual(
      stats.revenueStats.dailyRevenue.map(
        (d: { date: string; revenue: number; purchases: number }) => `${d.date},${d.revenue},${d.purchases}`,
      ),
    );
    expect(
      (await get(`/organizations/${org.id}/dashboard/export.csv?${PERIOD}&panel=revenue&link=url:${urlId}`)).statusCode,
    ).toBe(400);
    const heat = await get(`/organizations/${org.id}/dashboard/export.csv?${PERIOD}&timeZone=UTC&panel=heatmap`);
    expect(
      heat.body
        .split('\r\n')[5]!
        .split(',')
        .slice(0, 1 + 24)[24],
    ).toBe('3');
  });

  it('narrows every figure, the heatmap, top links and previous total included, to the filters; and the CSV alike', async () => {
    const all = await dashboard(`/urls/${urlId}`, `${PERIOD}&timeZone=UTC`);
    expect(all.meta.filters).toEqual({});
    const kakao = await dashboard(`/urls/${urlId}`, `${PERIOD}&timeZone=UTC&utmSource=KAKAO,kakao`);
    expect(kakao.meta.filters).toEqual({ utmSource: ['KAKAO', 'kakao'] });
    expect(kakao.total).toBe(2);
    expect(kakao.daily.map((d: { count: number }) => d.count)).toEqual([0, 2]);
    expect(kakao.heatmap).toEqual([{ weekday: 6, hour: 10, count: 2 }]);
    expect(kakao.utm.source).toEqual([{ name: 'kakao', count: 2, percentage: 100 }]);
    expect(kakao.countries.reduce((sum: number, c: { count: number }) => sum + c.count, 0)).toBe(2);
    expect(kakao.deviceTypes.find((d: { name: string }) => d.name === 'Mobile').count).toBe(2);
    expect(kakao.previousTotal).toBe(0);
    // The same figures as the Service API's filtered statistics.
    const stats = (
      await svc.service('GET', `/urls/${urlId}/stats?${PERIOD}&timeZone=UTC&utmSource=kakao`, org.apiKey)
    ).json();
    expect(stats.chartData).toEqual(kakao.daily.map((d: { count: number }) => d.count));
    expect(stats.topCountries).toEqual(kakao.countries);
    // The organization's page: only the link with such clicks among the busiest.
    const overview = await dashboard('', `${PERIOD}&timeZone=UTC&utmSource=kakao`);
    expect(overview.topLinks.map((l: { id: number; count: number }) => [l.id, l.count])).toEqual([[urlId, 2]]);
    expect((await dashboard('', `${PERIOD}&timeZone=UTC&deviceType=desktop`)).total).toBe(0);
    const csv = await get(
      `/organizations/${org.id}/dashboard/export.csv?${PERIOD}&timeZone=UTC&panel=daily&link=url:${urlId}&utmSource=kakao`,
    );
    expect(csv.body).toBe('\uFEFFdate (UTC),clicks,visitors\r\n2026-11-20,0,0\r\n2026-11-21,2,1\r\n');
    const wrong = await get(`/organizations/${org.id}/dashboard/urls/${urlId}?${PERIOD}&deviceType=phone`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details).toEqual([{ field: 'deviceType', message: expect.stringContaining('phone') }]);
  });

  it('lets every member read, and no one else; refuses a bad zone, panel or link', async () => {
    expect((await get(`/organizations/${org.id}/dashboard?${PERIOD}`, analyst)).statusCode).toBe(200);
    expect((await get(`/organizations/${org.id}/dashboard?${PERIOD}`, stranger)).statusCode).toBe(404);
    expect((await get(`/organizations/${org.id}/dashboard/urls/${urlId}`, stranger)).statusCode).toBe(404);
    expect((await get(`/organizations/${org.id}/dashboard/urls/999999`)).json().code).toBe('SHORT_URL_NOT_FOUND');
    expect((await get(`/organizations/${org.id}/dashboard?timeZone=Mars/Olympus`)).statusCode).toBe(400);
    expect((await get(`/organizations/${org.id}/dashboard/export.csv?panel=everything`)).statusCode).toBe(400);
    expect((await get(`/organizations/${org.id}/dashboard/export.csv?panel=daily&link=url:abc`)).statusCode).toBe(400);
    expect(
      (await svc.inject({ method: 'GET', url: `/console/api/organizations/${org.id}/dashboard` })).statusCode,
    ).toBe(401);
  });

  it("compares an app's installs per country and per source with the previous period's, row by row", async () => {
    const app = await svc.createApp(org, { platform: 'IOS', appName: 'Rows App', bundleId: 'com.dash.rows' });
    const install = (at: string, ip: string, matchType: string) =>
      looseEvent({
        eventId: uuidv7(),
        type: 'app_install',
        occurredAt: Date.parse(at),
        organizationId: org.id,
        data: {
          appId: app.id,
          platform: 'IOS',
          linkType: 'url',
          linkId: urlId,
          matchType,
          confidence: 80,
          ip,
          osVersion: '17.4',
          sessionId: null,
        },
      });
    const KR = '211.234.10.1';
    const US = '8.8.8.8';
    // One install in the previous period (2026-11-18 – 19), three in the period.
    for (const event of [
      install('2026-11-19T09:00:00Z', KR, 'fingerprint'),
      install('2026-11-20T09:00:00Z', KR, 'fingerprint'),
      install('2026-11-20T10:00:00Z', KR, 'referrer'),
      install('2026-11-21T09:00:00Z', US, 'referrer'),
    ])
      svc.container.events.record(event);
    expect(await svc.container.events.flush(10_000)).toBe(true);
    expect(await svc.container.bus.drain(15_000)).toBe(true);
    const page = (
      await get(`/organizations/${org.id}/dashboard/apps/${app.id}?${PERIOD}&timeZone=UTC&compare=previous`)
    ).json();
    expect(page.countryStats.map((c: { country: string }) => c.country)).toEqual(['KR', 'US']);
    expect(page.comparison.countryStats).toEqual([
      { name: 'KR', compared: { current: 2, previous: 1, change: 100, trend: 'up' } },
      { name: 'US', compared: { current: 1, previous: 0, change: null, trend: 'new' } },
    ]);
    expect(page.comparison.installsByMatchType).toEqual([
      { name: 'referrer', compared: { current: 2, previous: 0, change: null, trend: 'new' } },
      { name: 'fingerprint', compared: { current: 1, previous: 1, change: 0, trend: 'flat' } },
    ]);
    // The CSV of the same panels, with the previous period's columns when asked.
    const csv = async (query: string) =>
      (await get(`/organizations/${org.id}/dashboard/apps/${app.id}/export.csv?${PERIOD}&timeZone=UTC&${query}`)).body
        .replace('\uFEFF', '')
        .trimEnd()
        .split('\r\n');
    expect(await csv('panel=countries&compare=previous')).toEqual([
      'country,installs,percentage,previousInstalls,change,trend',
      'KR,2,66.7,1,100,up',
      'US,1,33.3,0,,new',
    ]);
    expect((await csv('panel=matchTypes&compare=previous'))[0]).toBe(
      'matchType,installs,percentage,previousInstalls,change,trend',
    );
    expect(await csv('panel=dailyInstalls&compare=previous')).toEqual([
      'date (UTC),installs,iOS,Android,previousDate,previousInstalls,change,trend',
      '2026-11-20,2,2,0,2026-11-18,0,,new',
      '2026-11-21,1,1,0,2026-11-19,1,0,flat',
    ]);
    expect(await csv('panel=countries')).toEqual(['country,installs,percentage', 'KR,2,66.7', 'US,1,33.3']);
  });

  it("exports an app's install panels as CSV from the Service API's install statistics", async () => {
    const app = await svc.createApp(org, { platform: 'IOS', appName: 'Dash App', bundleId: 'com.dash.app' });
    const api = (
      await svc.service('GET', `/mobile-apps/${app.id}/install-stats?${PERIOD}&timeZone=UTC`, org.apiKey)
    ).json();
    // The app's dashboard: the Service API's figures, and the previous period's (2026-11-18 – 19) as a direct query of it answers them.
    const page = await get(`/organizations/${org.id}/dashboard/apps/${app.id}?${PERIOD}&timeZone=UTC&compare=previous`);
    expect(page.statusCode, page.body).toBe(200);
    const { comparison, ...figures } = page.json();
    expect(figures).toEqual(api);
    const before = (
      await svc.service(
        'GET',
        `/mobile-apps/${app.id}/install-stats?startDate=2026-11-18&endDate=2026-11-19&timeZone=UTC`,
        org.apiKey,
      )
    ).json();
    expect(comparison).toMatchObject({
      startDate: '2026-11-18',
      endDate: '2026-11-19',
      comparable: true,
      totalInstalls: { current: api.totalInstalls, previous: before.totalInstalls },
      totalClicks: { current: api.totalClicks, previous: before.totalClicks },
      dailyInstalls: before.dailyInstalls,
    });
    expect(
      (await get(`/organizations/${org.id}/dashboard/apps/${app.id}?${PERIOD}&timeZone=UTC`)).json().comparison,
    ).toBeNull();
    const funnel = await get(
      `/organizations/${org.id}/dashboard/apps/${app.id}/export.csv?${PERIOD}&timeZone=UTC&panel=funnel`,
    );
    expect(funnel.statusCode).toBe(200);
    const rows = funnel.body.replace('\uFEFF', '').trimEnd().split('\r\n');
    expect(rows[0]).toBe('stage,order,sessionsReached,conversionRateFromFirstStage,conversionRateFromPreviousStage');
    type Stage = {
      stageName: string;
      stageOrder: number;
      sessionsReached: number;
      conversionRateFromFirstStage: number;
      conversionRateFromPreviousStage: number;
    };
    expect(rows.slice(1)).toEqual(
      api.funnelStats.stages.map((f: Stage) =>
        [
          f.stageName,
          f.stageOrder,
          f.sessionsReached,
          f.conversionRateFromFirstStage,
          f.conversionRateFromPreviousStage,
        ].join(','),
      ),
    );
    const daily = await get(
      `/organizations/${org.id}/dashboard/apps/${app.id}/export.csv?${PERIOD}&timeZone=Asia/Seoul&panel=dailyInstalls&platform=ios`,
    );
    expect(daily.body).toBe('\uFEFFdate (Asia/Seoul),installs,iOS,Android\r\n2026-11-20,0,0,0\r\n2026-11-21,0,0,0\r\n');
    const reengagements = await get(
      `/organizations/${org.id}/dashboard/apps/${app.id}/export.csv?${PERIOD}&timeZone=UTC&panel=dailyReengagements`,
    );
    expect(reengagements.body).toBe(
      '\uFEFFdate (UTC),reengagements,successful\r\n2026-11-20,0,0\r\n2026-11-21,0,0\r\n',
    );
    expect(
      (await get(`/organizations/${org.id}/dashboard/apps/${app.id}/export.csv?${PERIOD}&panel=matchTypes`)).body,
    ).toBe('\uFEFFmatchType,installs,percentage\r\n');
    expect(
      (await get(`/organizations/${org.id}/dashboard/apps/${app.id}/export.csv?panel=funnel`, stranger)).statusCode,
    ).toBe(404);
    // Access before input: a stranger's request the schema would refuse is still not theirs (404),
    // and tells nothing of what the route takes.
    for (const path of [
      `/organizations/${org.id}/dashboard/apps/${app.id}/export.csv?panel=installs`,
      `/organizations/${org.id}/dashboard?timeZone=Mars/Olympus`,
      `/organizations/${org.id}/dashboard/export.csv?panel=everything`,
    ]) {
      const res = await get(path, stranger);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().code, path).toBe('ORGANIZATION_NOT_FOUND');
    }
    expect(
      (await get(`/organizations/${org.id}/dashboard/apps/${app.id}/export.csv?panel=funnel&platform=web`)).statusCode,
    ).toBe(400);
  });

  it("answers an app's revenue per currency from the purchases its SDK recorded, and its CSV", async () => {
    const app = await svc.createApp(org, { platform: 'ANDROID', appName: 'Shop App', bundleId: 'com.shop.app' });
    const purchase = (sessionId: string, goalType: string, goalValue: string) =>
      svc.inject({
        method: 'POST',
        url: '/api/v1/sdk/mobile/deeplink/funnel/track',
        headers: { 'x-app-id': String(app.id), 'x-mobile-app-api-key': app.apiKey },
        payload: { sessionId, stage: 'GOAL_COMPLETED', goalType, goalValue, timestamp: '2026-11-21T09:00:00Z' },
      });
    for (const [session, type, value] of [
      ['p1', 'purchase_KRW', '39000'],
      ['p2', 'purchase_KRW', '11000'],
      ['p3', 'purchase_USD', '12.5'],
    ] as const) {
      const res = await purchase(session, type, value);
      expect(res.statusCode, res.body).toBe(200);
    }
    await svc.container.events.flush();
    expect(await svc.container.bus.drain(10_000)).toBe(true);
    const revenue = async () =>
      (await get(`/organizations/${org.id}/dashboard/apps/${app.id}/revenue?${PERIOD}&timeZone=UTC`)).json();
    await eventually(async () => (await revenue()).revenueStats?.purchases === 3, 15_000, 'the purchases counted');
    const { revenueStats } = await revenue();
    expect(revenueStats).toMatchObject({
      available: true,
      currency: 'KRW',
      totalRevenue: 50000,
      purchases: 3,
      averageOrderValue: 25000,
    });
    expect(revenueStats.byCurrency).toEqual([
      { currency: 'KRW', totalRevenue: 50000, purchases: 2 },
      { currency: 'USD', totalRevenue: 12.5, purchases: 1 },
    ]);
    expect(revenueStats.dailyRevenue).toEqual([
      { date: '2026-11-20', revenue: 0, purchases: 0 },
      { date: '2026-11-21', revenue: 50000, purchases: 2 },
    ]);
    const csv = await get(
      `/organizations/${org.id}/dashboard/apps/${app.id}/export.csv?${PERIOD}&timeZone=UTC&panel=revenue`,
    );
    expect(csv.body).toBe(
      '\uFEFFdate (UTC),revenue (KRW),purchases\r\n2026-11-20,0,0\r\n2026-11-21,50000,2\r\ncurrency,totalRevenue,purchases\r\nKRW,50000,2\r\nUSD,12.5,1\r\n',
    );
    expect((await get(`/organizations/${org.id}/dashboard/apps/${app.id}/revenue`, stranger)).statusCode).toBe(404);
  });
});
