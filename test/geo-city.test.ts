// With a City database as GEOIP_DB (a GeoLite2 City file the test writes, test/support/mmdb-writer.ts):
// clicks record their ISO 3166-2 region and city; the URL and campaign statistics and the console's
// dashboards break clicks down by them (regionStats, cityStats; from the rollups unfiltered, from
// the raw clicks filtered) and filter on them; meta.geo says the database tells both; and routing
// rules naming regions and cities send real redirects where they say. The bundled country-only
// database's side (empty breakdowns, filters refused) is in stats-filters.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { UA } from './support/deep-links.js';
import { writeCityDatabase } from './support/mmdb-writer.js';
import { type Click, recordClicks } from './support/recorded-clicks.js';
import { serviceForFile } from './support/service.js';

const SEOUL = '203.0.113.10';
const SEOUL_2 = '203.0.113.11';
const BUSAN = '203.0.113.200';
const SAN_JOSE = '198.51.100.7';
/** Listed with a country only, as a City database lists many networks. */
const TOKYO_UNKNOWN = '192.0.2.9';

const GEOIP_DB = path.join(mkdtempSync(path.join(tmpdir(), 'signpost-geo-city-')), 'GeoLite2-City.mmdb');
writeCityDatabase(GEOIP_DB, [
  { network: '203.0.113.0/25', country: 'KR', region: '11', city: 'Seoul', latitude: 37.5665, longitude: 126.978 },
  { network: '203.0.113.128/25', country: 'KR', region: '26', city: 'Busan', latitude: 35.1796, longitude: 129.0756 },
  {
    network: '198.51.100.0/24',
    country: 'US',
    region: 'CA',
    city: 'San Jose',
    latitude: 37.3382,
    longitude: -121.8863,
  },
  { network: '192.0.2.0/24', country: 'JP', latitude: 35.6895, longitude: 139.6917 },
]);

const HOST = 'sgnp.example';
// Loopback is a trusted proxy: its X-Forwarded-For names the visitor, as behind a load balancer.
const svc = serviceForFile({ GEOIP_DB, PUBLIC_BASE_URL: `https://${HOST}`, TRUST_PROXY: 'loopback' });
let org: { id: number; apiKey: string };
let urlId: number;
let campaignId: number;
let cookie: string;

const CLICKS: Click[] = [
  { at: '2025-05-01T10:00:00Z', ip: SEOUL },
  { at: '2025-05-01T11:00:00Z', ip: SEOUL_2, userAgent: UA.desktop },
  { at: '2025-05-02T12:00:00Z', ip: BUSAN },
  { at: '2025-05-02T13:00:00Z', ip: SAN_JOSE, userAgent: UA.pixel },
  { at: '2025-05-02T14:00:00Z', ip: TOKYO_UNKNOWN },
  { at: '2025-05-02T15:00:00Z', ip: SEOUL, bot: true },
];
const PERIOD = 'startDate=2025-05-01&endDate=2025-05-02';
/** More than a week: the hourly rollups answer. */
const LONG_PERIOD = 'startDate=2025-04-20&endDate=2025-05-02';

const stats = async (path: string, query: string, status = 200) => {
  const res = await svc.service('GET', `${path}?${query}`, org.apiKey);
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
};

beforeAll(async () => {
  org = await svc.createOrganization('Places', 'ENTERPRISE');
  urlId = (await svc.createLink(org, { url: 'https://example.com/places' })).id;
  campaignId = (await svc.createCampaign(org, { name: 'Places', originalUrl: 'https://example.com/c' })).id;
  await recordClicks(svc, org.id, 'url', urlId, CLICKS);
  await recordClicks(svc, org.id, 'campaign', campaignId, CLICKS);
  await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'owner@places.example', role: 'owner' });
  const login = new URL((await svc.admin('POST', '/login-links', { email: 'owner@places.example' })).json().url);
  const res: LightMyRequestResponse = await svc.inject({ method: 'GET', url: `${login.pathname}${login.search}` });
  const set = res.headers['set-cookie'];
  cookie = (Array.isArray(set) ? set : [String(set)]).find((c) => c.startsWith('sp_session='))!.split(';')[0]!;
});

describe(`region and city statistics with a City database (${backend})`, () => {
  const REGIONS = [
    { name: 'KR-11', count: 2, percentage: 40 },
    { name: 'KR-26', count: 1, percentage: 20 },
    { name: 'US-CA', count: 1, percentage: 20 },
  ];
  const CITIES = [
    { name: 'Seoul', count: 2, percentage: 40 },
    { name: 'Busan', count: 1, percentage: 20 },
    { name: 'San Jose', count: 1, percentage: 20 },
  ];

  it('count people by region and city over short and long periods, leaving out what the database does not know', async () => {
    for (const period of [PERIOD, LONG_PERIOD]) {
      const body = await stats(`/urls/${urlId}/stats`, period);
      expect(body.meta.geo).toEqual({ regions: true, cities: true });
      expect(body.regionStats).toEqual(REGIONS);
      expect(body.cityStats).toEqual(CITIES);
      expect(body.topCountries.map((c: { name: string }) => c.name)).toEqual(['KR', 'JP', 'US']);
    }
    const campaign = await stats(`/campaigns/${campaignId}/stats`, PERIOD);
    expect(campaign.regionStats).toEqual(REGIONS);
    expect(campaign.cityStats).toEqual(CITIES);
  });

  it('filter every figure by region and by city, in any case, and combine with other filters', async () => {
    const seoul = await stats(`/urls/${urlId}/stats`, `${PERIOD}&region=kr-11`);
    expect(seoul.chartData).toEqual([2, 0]);
    expect(seoul.topCountries).toEqual([{ name: 'KR', count: 2, percentage: 100 }]);
    expect(seoul.regionStats).toEqual([{ name: 'KR-11', count: 2, percentage: 100 }]);
    expect(seoul.meta.filters).toEqual({ region: ['kr-11'] });

    const two = await stats(`/urls/${urlId}/stats`, `${LONG_PERIOD}&city=busan,San Jose`);
    expect(two.cityStats).toEqual([
      { name: 'Busan', count: 1, percentage: 50 },
      { name: 'San Jose', count: 1, percentage: 50 },
    ]);
    const phones = await stats(`/campaigns/${campaignId}/stats`, `${PERIOD}&city=Seoul&deviceType=mobile`);
    expect(phones.totalClicks).toBe(1);
    expect(phones.meta.filters).toEqual({ city: ['Seoul'], deviceType: ['mobile'] });
    const nowhere = await stats(`/urls/${urlId}/stats`, `${PERIOD}&city=Tokyo`);
    expect([nowhere.chartData, nowhere.cityStats]).toEqual([[0, 0], []]);
  });

  it('show on the console dashboards, which filter by them and export them as CSV', async () => {
    const get = (url: string) => svc.inject({ method: 'GET', url: `/console/api${url}`, headers: { cookie } });
    const overview = (await get(`/organizations/${org.id}/dashboard?${PERIOD}&timeZone=UTC`)).json();
    expect(overview.meta.geo).toEqual({ regions: true, cities: true });
    // Both links' clicks.
    expect(overview.regions[0]).toEqual({ name: 'KR-11', count: 4, percentage: 40 });
    const busan = (await get(`/organizations/${org.id}/dashboard/urls/${urlId}?${PERIOD}&region=KR-26`)).json();
    expect([busan.total, busan.cities]).toEqual([1, [{ name: 'Busan', count: 1, percentage: 100 }]]);
    const csv = await get(`/organizations/${org.id}/dashboard/export.csv?${PERIOD}&panel=cities&link=url:${urlId}`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain('Seoul,2,40');
  });
});

describe(`a shared statistics page with a City database (${backend})`, () => {
  it('shows the regions and cities panels as the console does, without sign-in', async () => {
    const shared = (await svc.createLink(org, { url: 'https://example.com/shared-places', title: 'Places shared' })).id;
    const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
    await recordClicks(svc, org.id, 'url', shared, [
      { at: ago(2), ip: SEOUL },
      { at: ago(3), ip: SEOUL_2, userAgent: UA.desktop },
      { at: ago(4), ip: BUSAN },
      { at: ago(5), ip: TOKYO_UNKNOWN },
    ]);
    const res = await svc.service('POST', `/urls/${shared}/share`, org.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    const page = await svc.inject({ method: 'GET', url: new URL(res.json().shareUrl).pathname });
    expect(page.statusCode).toBe(200);
    const text = page.body
      .replace(/<style[^>]*>[\s\S]*?<\/style>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
    // Tokyo's click has a country only: left out of both, as on the console.
    expect(text).toContain('Top regions Region Clicks Share KR-11 (South Korea) 2 50% KR-26 (South Korea) 1 25%');
    expect(text).toContain('Top cities City Clicks Share Seoul 2 50% Busan 1 25%');
  });
});

describe(`routing rules naming regions and cities with a City database (${backend})`, () => {
  it('are accepted and send each visitor where their region or city says, through real redirects', async () => {
    const res = await svc.service('POST', '/urls', org.apiKey, {
      url: 'https://shop.example/',
      routingRules: [
        { conditions: { regions: ['KR-26'] }, url: 'https://shop.example/busan' },
        { conditions: { cities: ['seoul', 'San Jose'] }, url: 'https://shop.example/city' },
        { conditions: { countries: ['KR'] }, url: 'https://shop.example/kr' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const code = new URL(res.json().shortUrl).pathname;
    const visit = async (ip: string) => {
      const r = await svc.inject({
        method: 'GET',
        url: code,
        remoteAddress: '127.0.0.1',
        headers: { host: HOST, 'user-agent': UA.desktop, 'x-forwarded-for': ip },
      });
      expect(r.statusCode, r.body).toBe(302);
      return String(r.headers.location);
    };
    expect(await visit(BUSAN)).toBe('https://shop.example/busan');
    expect(await visit(SEOUL)).toBe('https://shop.example/city');
    expect(await visit(SAN_JOSE)).toBe('https://shop.example/city');
    expect(await visit(TOKYO_UNKNOWN)).toBe('https://shop.example/');
  });
});
