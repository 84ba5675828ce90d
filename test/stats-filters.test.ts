// Filters on URL and campaign statistics (contract: "Filters and shared statistics"): each filter
// narrows every figure of the answer (totals, series, visitors, top lists, destinationStats), several
// values of one filter add up, filters combine, meta.filters repeats them, and a device type that
// does not exist is a 400 naming the parameter.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/error-body.js';
import { type Click, recordClicks } from './support/recorded-clicks.js';
import { UA } from './support/deep-links.js';
import { NO_CONVERSIONS } from './support/destination-stats.js';
import { serviceForFile } from './support/service.js';

const KR = '211.234.10.1';
const JP = '133.242.0.1';
const US = '8.8.8.8';

const svc = serviceForFile();
let org: { id: number; apiKey: string };

/** Five clicks by people (and a bot) over two days: KR phone and desktop, a US Android, two JP phones. */
const CLICKS: Click[] = [
  {
    at: '2025-05-01T10:00:00Z',
    ip: KR,
    referrer: 'https://m.facebook.com/story',
    utmSource: 'newsletter',
    utmMedium: 'email',
    utmCampaign: 'spring',
    cid: 'u1',
  },
  { at: '2025-05-01T11:00:00Z', ip: KR, userAgent: UA.desktop, utmSource: 'google', cid: 'u2' },
  { at: '2025-05-02T12:00:00Z', ip: US, userAgent: UA.pixel, referrer: 'https://t.co/x', utmSource: 'Newsletter' },
  { at: '2025-05-02T13:00:00Z', ip: JP, referrer: 'https://m.facebook.com/', cid: 'u1' },
  { at: '2025-05-02T14:00:00Z', ip: '133.242.0.2', utmMedium: 'Email' },
  { at: '2025-05-02T15:00:00Z', ip: KR, bot: true },
];

const PERIOD = 'startDate=2025-05-01&endDate=2025-05-02';
const get = (path: string, query: string) => svc.service('GET', `${path}?${PERIOD}&${query}`, org.apiKey);
const names = (items: { name: string; count: number }[]) =>
  Object.fromEntries(items.filter((i) => i.count > 0).map((i) => [i.name, i.count]));

let urlId: number;
let campaignId: number;

beforeAll(async () => {
  org = await svc.createOrganization('Filters', 'ENTERPRISE');
  urlId = (await svc.createLink(org, { url: 'https://example.com/filters' })).id;
  campaignId = (await svc.createCampaign(org, { name: 'Filtered', originalUrl: 'https://example.com/c' })).id;
  await recordClicks(svc, org.id, 'url', urlId, CLICKS);
  await recordClicks(svc, org.id, 'campaign', campaignId, CLICKS);
});

describe('URL statistics with filters', () => {
  it('without filters counts every click by a person and says no filter was applied', async () => {
    const body = (await get(`/urls/${urlId}/stats`, '')).json();
    expect(body.chartData).toEqual([2, 3]);
    expect(body.meta.filters).toEqual({});
  });

  it('narrows every figure to one country, the code in any case', async () => {
    const res = await get(`/urls/${urlId}/stats`, 'country=kr');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.chartLabels).toEqual(['2025-05-01', '2025-05-02']);
    expect(body.chartData).toEqual([2, 0]);
    expect(body.uniqueVisitors).toBe(2);
    expect(body.uniqueVisitorsChartData).toEqual([2, 0]);
    expect(body.hourlyChartData[10]).toBe(1);
    expect(body.hourlyChartData[11]).toBe(1);
    expect(body.hourlyChartData.reduce((a: number, b: number) => a + b, 0)).toBe(2);
    expect(body.topCountries).toEqual([{ name: 'KR', count: 2, percentage: 100 }]);
    expect(names(body.topReferrers)).toEqual({ 'm.facebook.com': 1, Direct: 1 });
    expect(names(body.topOsSystems)).toEqual({ iOS: 1, Windows: 1 });
    expect(names(body.topBrowsers)).toEqual({ 'Mobile Safari': 1, Chrome: 1 });
    expect(names(body.deviceTypeStats)).toEqual({ Mobile: 1, Desktop: 1 });
    expect(body.destinationStats).toEqual([
      { url: 'https://example.com/filters', count: 2, percentage: 100, ...NO_CONVERSIONS },
    ]);
    expect(body.meta.filters).toEqual({ country: ['kr'] });
    expect(body.meta.actualStartDate).toBe('2025-05-01');
  });

  it('adds up several values of one filter and combines filters', async () => {
    const several = (await get(`/urls/${urlId}/stats`, 'country=KR,JP')).json();
    expect(several.chartData).toEqual([2, 2]);
    expect(names(several.topCountries)).toEqual({ KR: 2, JP: 2 });
    expect(several.meta.filters).toEqual({ country: ['KR', 'JP'] });

    const both = (await get(`/urls/${urlId}/stats`, 'country=KR,JP&deviceType=mobile')).json();
    expect(both.chartData).toEqual([1, 2]);
    expect(names(both.deviceTypeStats)).toEqual({ Mobile: 3 });
    expect(both.meta.filters).toEqual({ country: ['KR', 'JP'], deviceType: ['mobile'] });
  });

  it.each([
    ['deviceType=desktop,tablet', [1, 0]],
    ['os=ios', [1, 2]],
    ['os=Android,windows', [1, 1]],
    ['browser=mobile safari', [1, 2]],
    ['referrer=m.facebook.com', [1, 1]],
    ['referrer=T.CO', [0, 1]],
    ['utmSource=newsletter', [1, 1]],
    ['utmMedium=email', [1, 1]],
    ['utmCampaign=spring', [1, 0]],
    ['utmSource=nobody', [0, 0]],
  ])('%s narrows the totals, the series and the top lists', async (query, chart) => {
    const body = (await get(`/urls/${urlId}/stats`, query)).json();
    expect(body.chartData).toEqual(chart);
    const total = chart[0]! + chart[1]!;
    const sum = (items: { count: number }[]) => items.reduce((a, b) => a + b.count, 0);
    expect(sum(body.topCountries)).toBe(total);
    expect(sum(body.deviceTypeStats)).toBe(total);
    expect(sum(body.destinationStats)).toBe(total);
    expect(body.hourlyChartData.reduce((a: number, b: number) => a + b, 0)).toBe(total);
    const [name, values] = query.split('=') as [string, string];
    expect(body.meta.filters).toEqual({ [name]: values.split(',') });
  });

  it('refuses a device type that does not exist with 400 naming deviceType', async () => {
    const body = expectError(await get(`/urls/${urlId}/stats`, 'deviceType=mobile,phone'), 400, {
      field: 'deviceType',
    });
    expect(body.details).toEqual([{ field: 'deviceType', message: expect.stringContaining('phone') }]);
  });
});

describe('region and city with the bundled country-only GeoIP database', () => {
  it('leave regionStats and cityStats empty and say so in meta.geo', async () => {
    for (const path of [`/urls/${urlId}/stats`, `/campaigns/${campaignId}/stats`]) {
      const body = (await get(path, '')).json();
      expect([body.regionStats, body.cityStats, body.meta.geo]).toEqual([[], [], { regions: false, cities: false }]);
    }
  });

  it('refuse the region and city filters with 400 naming the parameter and GEOIP_DB', async () => {
    for (const [query, field] of [
      ['region=KR-11', 'region'],
      ['city=Seoul&country=KR', 'city'],
    ] as const) {
      const body = expectError(await get(`/urls/${urlId}/stats`, query), 400, { field });
      expect(body.details).toEqual([{ field, message: expect.stringContaining('GEOIP_DB') }]);
      expectError(await get(`/campaigns/${campaignId}/stats`, query), 400, { field });
    }
  });
});

describe('campaign statistics with filters', () => {
  it('narrows every figure, the clicks per cid included', async () => {
    const res = await get(`/campaigns/${campaignId}/stats`, 'deviceType=Mobile&country=kr,jp');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totalClicks).toBe(3);
    expect(body.dailyClicks).toEqual([
      { date: '2025-05-01', count: 1 },
      { date: '2025-05-02', count: 2 },
    ]);
    expect(body.uniqueVisitors).toBe(3);
    expect(body.userClicks).toEqual([
      { name: 'u1', count: 2, percentage: 66.7 },
      { name: '', count: 1, percentage: 33.3 },
    ]);
    expect(names(body.topCountries)).toEqual({ KR: 1, JP: 2 });
    expect(names(body.topOs)).toEqual({ iOS: 3 });
    expect(body.destinationStats).toEqual([
      { url: 'https://example.com/c', count: 3, percentage: 100, ...NO_CONVERSIONS },
    ]);
    expect(body.meta.filters).toEqual({ country: ['kr', 'jp'], deviceType: ['Mobile'] });
  });

  it('combines with customId', async () => {
    const body = (await get(`/campaigns/${campaignId}/stats`, 'customId=u1&country=JP')).json();
    expect(body.totalClicks).toBe(1);
    expect(body.userClicks).toEqual([{ name: 'u1', count: 1, percentage: 100 }]);
  });

  it('refuses a bad device type with 400 naming deviceType', async () => {
    expectError(await get(`/campaigns/${campaignId}/stats`, 'deviceType=watch'), 400, { field: 'deviceType' });
  });
});
