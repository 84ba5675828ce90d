// URL and campaign statistics: known clicks in, exact figures out, in UTC, Asia/Seoul, New York
// across both 2025 DST changes and Asia/Kathmandu (+5:45); retention clamping; bots excluded;
// the customId filter; 400s; another organization's id.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/error-body.js';
import { uuidv7 } from '../src/shared/ids.js';
import { type Click, recordClicks as recordSharedClicks } from './support/recorded-clicks.js';
import { serviceForFile } from './support/service.js';

let org: { id: number; apiKey: string };

const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

const svc = serviceForFile();

beforeAll(async () => {
  // ENTERPRISE keeps 1825 days, so the 2025 dates below are inside its retention.
  org = await svc.createOrganization('Stats', 'ENTERPRISE');
});

const recordClicks = (linkType: 'url' | 'campaign', linkId: number, clicks: Click[], organizationId = org.id) =>
  recordSharedClicks(svc, organizationId, linkType, linkId, clicks);

async function newUrl(): Promise<number> {
  return (await svc.createLink(org, { url: 'https://example.com/stats' })).id;
}

const urlStats = async (id: number, query: string, apiKey = org.apiKey) =>
  svc.service('GET', `/urls/${id}/stats?${query}`, apiKey);
const hour = (body: { hourlyChartData: number[] }, h: number) => body.hourlyChartData[h];

describe('URL statistics in time zones', () => {
  let linkId: number;
  beforeAll(async () => {
    linkId = await newUrl();
    await recordClicks('url', linkId, [
      { at: '2025-03-08T23:30:00Z' },
      { at: '2025-03-09T00:10:00Z', userAgent: DESKTOP, referrer: 'https://m.facebook.com/story' },
      { at: '2025-03-09T13:45:00Z' },
      { at: '2025-03-09T13:50:00Z', bot: true },
    ]);
  });

  it('counts per UTC day and hour, zero-filling the rest, bots left out', async () => {
    const res = await urlStats(linkId, 'startDate=2025-03-07&endDate=2025-03-09');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.chartLabels).toEqual(['2025-03-07', '2025-03-08', '2025-03-09']);
    expect(body.chartData).toEqual([0, 1, 2]);
    expect(body.hourlyChartLabels).toHaveLength(24);
    expect(body.hourlyChartLabels[0]).toBe('00:00');
    expect(body.hourlyChartLabels[23]).toBe('23:00');
    expect([hour(body, 23), hour(body, 0), hour(body, 13)]).toEqual([1, 1, 1]);
    expect(body.hourlyChartData.reduce((a: number, b: number) => a + b, 0)).toBe(3);
    expect(body.meta).toMatchObject({
      actualStartDate: '2025-03-07',
      actualEndDate: '2025-03-09',
      timeZone: 'UTC',
      dataRetentionDays: 1825,
    });
    expect(body.url.id).toBe(linkId);
  });

  it("gives the link's clicks of all time as url.clickCount, whatever the period (people only)", async () => {
    const inside = (await urlStats(linkId, 'startDate=2025-03-09&endDate=2025-03-09')).json();
    expect(inside.chartData).toEqual([2]);
    expect(inside.url.clickCount).toBe(3);
    const before = (await urlStats(linkId, 'startDate=2025-03-01&endDate=2025-03-02')).json();
    expect(before.chartData).toEqual([0, 0]);
    expect(before.url.clickCount).toBe(3);
  });

  it('moves the same clicks to local days and hours in Asia/Seoul', async () => {
    const body = (await urlStats(linkId, 'startDate=2025-03-08&endDate=2025-03-09&timeZone=Asia/Seoul')).json();
    // 08:30, 09:10 and 22:45 on 2025-03-09, Seoul time.
    expect(body.chartData).toEqual([0, 3]);
    expect([hour(body, 8), hour(body, 9), hour(body, 22)]).toEqual([1, 1, 1]);
  });

  it('gives the top lists one shape, with shares of the total, and always three device types', async () => {
    const body = (await urlStats(linkId, 'startDate=2025-03-08&endDate=2025-03-09')).json();
    expect(body.deviceTypeStats).toEqual([
      { name: 'Mobile', count: 2, percentage: 66.7 },
      { name: 'Desktop', count: 1, percentage: 33.3 },
      { name: 'Tablet', count: 0, percentage: 0 },
    ]);
    expect(body.topCountries).toEqual([{ name: 'KR', count: 3, percentage: 100 }]);
    expect(body.topReferrers).toEqual([
      { name: 'Direct', count: 2, percentage: 66.7 },
      { name: 'm.facebook.com', count: 1, percentage: 33.3 },
    ]);
    expect(body.topBrowsers.map((b: { name: string }) => b.name).sort()).toEqual(['Chrome', 'Mobile Safari']);
    expect(body.topOsSystems.map((b: { name: string }) => b.name).sort()).toEqual(['Windows', 'iOS']);
  });
});

describe('DST in America/New_York', () => {
  it('keeps local days and hours right on 2025-03-09 (23-hour day)', async () => {
    const linkId = await newUrl();
    await recordClicks('url', linkId, [
      { at: '2025-03-09T06:30:00Z' }, // 01:30 EST
      { at: '2025-03-09T07:30:00Z' }, // 03:30 EDT (02:00-03:00 does not exist)
      { at: '2025-03-10T03:59:00Z' }, // 23:59 EDT on 03-09
      { at: '2025-03-10T04:00:00Z' }, // 00:00 EDT on 03-10
    ]);
    const body = (await urlStats(linkId, 'startDate=2025-03-09&endDate=2025-03-10&timeZone=America/New_York')).json();
    expect(body.chartData).toEqual([3, 1]);
    expect([hour(body, 1), hour(body, 2), hour(body, 3), hour(body, 23), hour(body, 0)]).toEqual([1, 0, 1, 1, 1]);
  });

  it('keeps local days and hours right on 2025-11-02 (25-hour day, 01:00 twice)', async () => {
    const linkId = await newUrl();
    await recordClicks('url', linkId, [
      { at: '2025-11-02T05:30:00Z' }, // 01:30 EDT
      { at: '2025-11-02T06:30:00Z' }, // 01:30 EST
      { at: '2025-11-03T04:59:00Z' }, // 23:59 EST on 11-02
      { at: '2025-11-03T05:00:00Z' }, // 00:00 EST on 11-03
    ]);
    const body = (await urlStats(linkId, 'startDate=2025-11-02&endDate=2025-11-03&timeZone=America/New_York')).json();
    expect(body.chartData).toEqual([3, 1]);
    expect([hour(body, 1), hour(body, 23), hour(body, 0)]).toEqual([2, 1, 1]);
  });
});

describe('Asia/Kathmandu (+5:45)', () => {
  it('splits days at local midnight, which falls on a quarter hour in UTC', async () => {
    const linkId = await newUrl();
    await recordClicks('url', linkId, [
      { at: '2025-03-08T18:14:00Z' }, // 23:59 on 03-08
      { at: '2025-03-08T18:15:00Z' }, // 00:00 on 03-09
      { at: '2025-03-09T06:20:00Z' }, // 12:05 on 03-09
    ]);
    const body = (await urlStats(linkId, 'startDate=2025-03-08&endDate=2025-03-09&timeZone=Asia/Kathmandu')).json();
    expect(body.chartData).toEqual([1, 2]);
    expect([hour(body, 23), hour(body, 0), hour(body, 12)]).toEqual([1, 1, 1]);
  });
});

describe('periods', () => {
  it('defaults to the last 30 days ending today, every day present', async () => {
    const linkId = await newUrl();
    await recordClicks('url', linkId, [{ at: new Date().toISOString() }]);
    const body = (await urlStats(linkId, '')).json();
    expect(body.chartLabels).toHaveLength(30);
    expect(body.chartLabels[29]).toBe(new Date().toISOString().slice(0, 10));
    expect(body.chartData[29]).toBe(1);
    expect(body.meta.actualEndDate).toBe(body.chartLabels[29]);
  });

  it("clamps the period to the plan's retention and says so in meta", async () => {
    const free = await svc.createOrganization('FreeStats', 'FREE');
    const link = await svc.createLink(free, { url: 'https://example.com/free' });
    const body = (await urlStats(link.id, 'startDate=2020-01-01', free.apiKey)).json();
    expect(body.meta.dataRetentionDays).toBe(30);
    expect(body.chartLabels).toHaveLength(30);
    expect(body.meta.actualStartDate).toBe(body.chartLabels[0]);
    expect(body.meta.actualStartDate > '2020-01-01').toBe(true);
  });

  it('meta: a range wholly older than the retention answers empty, with no start after the end', async () => {
    const free = await svc.createOrganization('FreeOld', 'FREE');
    const link = await svc.createLink(free, { url: 'https://example.com/old' });
    const body = (await urlStats(link.id, 'startDate=2020-01-01&endDate=2020-01-31', free.apiKey)).json();
    expect(body.meta).toMatchObject({
      dataRetentionDays: 30,
      actualStartDate: null,
      actualEndDate: null,
      requestedStartDate: '2020-01-01',
      requestedEndDate: '2020-01-31',
      empty: true,
      emptyReason: 'before_retention',
    });
    expect(body.chartLabels).toEqual([]);
    expect(body.chartData).toEqual([]);
    const clipped = (await urlStats(link.id, 'startDate=2020-01-01', free.apiKey)).json();
    expect(clipped.meta).toMatchObject({
      empty: false,
      emptyReason: null,
      actualEndDate: new Date().toISOString().slice(0, 10),
    });
  });

  it('refuses malformed dates, a start after the end and unknown zones with 400', async () => {
    const linkId = await newUrl();
    for (const [query, field] of [
      ['startDate=2025-02-30', 'startDate'],
      ['endDate=03/09/2025', 'endDate'],
      ['startDate=2025-03-10&endDate=2025-03-09', 'startDate'],
      ['timeZone=Mars/Olympus', 'timeZone'],
    ] as const) {
      expectError(await urlStats(linkId, query), 400, { field });
    }
  });

  it("answers 404 for another organization's link", async () => {
    const other = await svc.createOrganization('Other', 'PRO');
    const linkId = await newUrl();
    expectError(await urlStats(linkId, '', other.apiKey), 404, { code: 'SHORT_URL_NOT_FOUND' });
  });
});

describe('campaign statistics', () => {
  let campaignId: number;
  beforeAll(async () => {
    campaignId = (await svc.createCampaign(org, { name: 'Stats Campaign', originalUrl: 'https://example.com/c' })).id;
    await recordClicks('campaign', campaignId, [
      { at: '2025-03-09T01:00:00Z', cid: 'user-a', tracker: 'insta' },
      { at: '2025-03-09T02:00:00Z', cid: 'user-a', tracker: 'insta' },
      { at: '2025-03-09T03:00:00Z', cid: 'user-b', tracker: 'kakao', userAgent: DESKTOP },
      { at: '2025-03-09T04:00:00Z' },
      { at: '2025-03-09T05:00:00Z', cid: 'user-a', bot: true },
    ]);
  });

  it('has totals, series, clicks per cid and trackers', async () => {
    const res = await svc.service(
      'GET',
      `/campaigns/${campaignId}/stats?startDate=2025-03-09&endDate=2025-03-09`,
      org.apiKey,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.campaign).toMatchObject({ id: campaignId, name: 'Stats Campaign', expiresAt: null });
    expect(body.totalClicks).toBe(4);
    expect(body.dailyClicks).toEqual([{ date: '2025-03-09', count: 4 }]);
    expect(body.hourlyClicks).toHaveLength(24);
    expect(body.hourlyClicks[1]).toEqual({ hour: '01:00', count: 1 });
    expect(body.userClicks).toEqual([
      { name: 'user-a', count: 2, percentage: 50 },
      { name: 'user-b', count: 1, percentage: 25 },
    ]);
    expect(body.topTrackers).toEqual([
      { name: 'insta', count: 2, percentage: 50 },
      { name: '(none)', count: 1, percentage: 25 },
      { name: 'kakao', count: 1, percentage: 25 },
    ]);
    expect(body.revenueStats).toMatchObject({ totalRevenue: 0, purchases: 0, currency: null, byCurrency: [] });
    expect(body.revenueStats.dailyRevenue).toEqual([{ date: '2025-03-09', revenue: 0, purchases: 0 }]);
  });

  it('filters everything to one customId', async () => {
    const body = (
      await svc.service(
        'GET',
        `/campaigns/${campaignId}/stats?startDate=2025-03-09&endDate=2025-03-09&customId=user-a`,
        org.apiKey,
      )
    ).json();
    expect(body.totalClicks).toBe(2);
    expect(body.userClicks).toEqual([{ name: 'user-a', count: 2, percentage: 100 }]);
    expect(body.topTrackers).toEqual([{ name: 'insta', count: 2, percentage: 100 }]);
    expect(body.deviceTypeStats[0]).toEqual({ name: 'Mobile', count: 2, percentage: 100 });
    expectError(
      await svc.service('GET', `/campaigns/${campaignId}/stats?customId=${'x'.repeat(101)}`, org.apiKey),
      400,
      { field: 'customId' },
    );
  });
});

describe('campaign revenue', () => {
  let campaignId: number;
  const goal = (
    type: 'journey_funnel' | 'funnel_stage',
    at: string,
    goalType: string,
    goalValue: number,
    currency: string | null,
    linkId: number,
    organizationId = org.id,
  ) =>
    svc.container.events.record({
      eventId: uuidv7(),
      type,
      occurredAt: Date.parse(at),
      organizationId,
      data:
        type === 'journey_funnel'
          ? {
              sessionId: uuidv7(),
              appId: 1,
              platform: 'WEB',
              stage: 'GOAL_COMPLETED',
              goalType,
              goalValue,
              currency,
              transactionId: null,
              urlId: null,
              campaignId: linkId,
              externalUserId: null,
            }
          : {
              sessionId: uuidv7(),
              appId: 1,
              platform: 'IOS',
              stage: 'GOAL_COMPLETED',
              goalType,
              goalValue,
              currency,
              linkType: 'campaign',
              linkId,
              source: 'sdk',
            },
    });

  beforeAll(async () => {
    campaignId = (await svc.createCampaign(org, { name: 'Revenue', originalUrl: 'https://example.com/r' })).id;
    await recordClicks(
      'campaign',
      campaignId,
      Array.from({ length: 10 }, (_, i) => ({ at: `2025-04-01T0${i}:00:00Z` })),
    );
    // Web purchases (user journey) and app purchases (mobile funnel), in two currencies; a signup
    // goal and another campaign's purchase that must not count.
    goal('journey_funnel', '2025-04-01T14:30:00Z', 'purchase_KRW', 15000, 'KRW', campaignId); // 23:30 in Seoul
    goal('journey_funnel', '2025-04-01T15:30:00Z', 'purchase_KRW', 25000, null, campaignId); // 00:30 next day in Seoul
    goal('funnel_stage', '2025-04-02T03:00:00Z', 'purchase_KRW', 10000.5, 'KRW', campaignId);
    goal('journey_funnel', '2025-04-02T04:00:00Z', 'purchase_USD', 19.99, 'USD', campaignId);
    goal('journey_funnel', '2025-04-02T05:00:00Z', 'signup', 1, null, campaignId);
    goal('journey_funnel', '2025-04-02T06:00:00Z', 'purchase_KRW', 99999, 'KRW', campaignId + 1000);
    expect(await svc.container.events.flush(10_000)).toBe(true);
    expect(await svc.container.bus.drain(15_000)).toBe(true);
  });

  it("sums purchases per currency, never across currencies, in the request's time zone", async () => {
    const res = await svc.service(
      'GET',
      `/campaigns/${campaignId}/stats?startDate=2025-04-01&endDate=2025-04-02&timeZone=Asia/Seoul`,
      org.apiKey,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().revenueStats).toEqual({
      available: true,
      currency: 'KRW',
      totalRevenue: 50000.5,
      purchases: 4,
      averageOrderValue: 16666.83,
      purchaseConversionRate: 40,
      dailyRevenue: [
        { date: '2025-04-01', revenue: 15000, purchases: 1 },
        { date: '2025-04-02', revenue: 35000.5, purchases: 2 },
      ],
      byCurrency: [
        { currency: 'KRW', totalRevenue: 50000.5, purchases: 3 },
        { currency: 'USD', totalRevenue: 19.99, purchases: 1 },
      ],
    });
  });

  it('stays empty without the revenue-analytics add-on', async () => {
    const free = await svc.createOrganization('No add-on', 'PRO');
    const { id } = await svc.createCampaign(free, { name: 'Revenue', originalUrl: 'https://example.com/r' });
    // PRO keeps 365 days: a purchase of five days ago.
    const day = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
    goal('journey_funnel', `${day}T10:00:00Z`, 'purchase_KRW', 5000, 'KRW', id, free.id);
    expect(await svc.container.events.flush(10_000)).toBe(true);
    expect(await svc.container.bus.drain(15_000)).toBe(true);
    const stats = async () =>
      (await svc.service('GET', `/campaigns/${id}/stats?startDate=${day}&endDate=${day}`, free.apiKey)).json()
        .revenueStats;
    expect(await stats()).toMatchObject({ available: false, totalRevenue: 0, purchases: 0, byCurrency: [] });
    expect((await svc.admin('PUT', `/organizations/${free.id}/add-ons`, { revenueAnalytics: true })).statusCode).toBe(
      200,
    );
    expect(await stats()).toMatchObject({ available: true, currency: 'KRW', totalRevenue: 5000, purchases: 1 });
  });
});
