// Long periods of click statistics read the hourly rollups where they are exact, and the
// 15-minute ones elsewhere: every figure equals the one counted from the raw clicks, in Asia/Seoul,
// America/New_York across both 2025 DST changes, Asia/Kolkata (+5:30) and Asia/Kathmandu (+5:45).
// The clicks come in two inserts. Clicks per destination come from the rollups too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePeriod } from '../src/core/stats/period.js';
import { createClickDashboard } from '../src/olap/click-dashboard.queries.js';
import { clickRollupFor, HOURLY_ROLLUP, hourAligned, QUARTER_HOUR_ROLLUP } from '../src/olap/click-rollup.js';
import { createClickStats, queryDimensions, rollupParts, statsOf } from '../src/olap/click-stats.queries.js';
import type { Clickhouse } from '../src/olap/clickhouse.js';
import { createInstallStats } from '../src/olap/install-stats.queries.js';
import { linkPeriodParams } from '../src/olap/query-period.js';
import { type MigratedClickhouse, migratedClickhouse } from './support/rollup-fixture.js';

const ORG = 5;
const LINK = 11;
const CAMPAIGN = 21;
let db: MigratedClickhouse;
let ch: Clickhouse;

const ZONES = ['Asia/Seoul', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu'] as const;
/** Around the 2025 DST changes of New York (2025-03-09, 2025-11-02); both longer than a week. */
const PERIODS = [
  { startDate: '2025-03-01', endDate: '2025-03-15' },
  { startDate: '2025-10-27', endDate: '2025-11-08' },
] as const;
const COUNTRIES = ['KR', 'US', 'IN', 'NP', ''];
const BROWSERS = ['Chrome', 'Mobile Safari', 'Firefox'];
const DEVICES = ['Mobile', 'Desktop', 'Tablet'];
const OSES = ['iOS', 'Android', 'Windows'];
const REFERRERS = ['', 't.co', 'www.google.com'];
const TRACKERS = ['', 'insta', 'kakao'];

/**
 * Clicks every 7 minutes from a day before the first period to a day after the last, on two links
 * and another organization, a few of them bots: every local hour and day edge of every zone is
 * crossed by clicks a few minutes either side.
 */
function clicksFrom(fromIso: string, toIso: string, parity: 0 | 1): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const step = 7 * 60_000;
  for (let t = Date.parse(fromIso), k = 0; t < Date.parse(toIso); t += step, k++) {
    if (k % 2 !== parity) continue;
    rows.push({
      event_id: crypto.randomUUID(),
      ts: new Date(t).toISOString().replace('T', ' ').replace('Z', ''),
      organization_id: k % 11 === 0 ? ORG + 1 : ORG,
      link_type: k % 7 === 3 ? 'campaign' : 'url',
      link_id: k % 7 === 3 ? CAMPAIGN : k % 5 === 0 ? LINK + 1 : LINK,
      host: 'localhost',
      cid: k % 7 === 3 && k % 4 !== 0 ? `user-${k % 3}` : '',
      tracker: TRACKERS[k % 3],
      referrer_host: REFERRERS[k % 3],
      utm_source: k % 4 === 0 ? 'newsletter' : '',
      utm_medium: k % 6 === 0 ? 'email' : '',
      utm_campaign: '',
      country: COUNTRIES[k % 5],
      device_type: DEVICES[k % 3],
      os: OSES[(k >> 1) % 3],
      browser: BROWSERS[(k >> 2) % 3],
      is_bot: k % 13 === 0 ? 1 : 0,
      visitor_hash: k % 17 === 0 ? 0 : 1 + (k % 97),
      // Some clicks of the short URLs were sent on by a rule or a variant; the rest to the link's own URL.
      destination_url: k % 7 === 3 ? '' : (['', 'https://shop.example/a', '', 'https://shop.example/b'][k % 4] ?? ''),
      // Some carry a deep-link token or click id, to which conversions could be tied.
      deep_link_token: k % 5 === 2 ? `token-${k}` : '',
    });
  }
  return rows;
}

const insertClicks = async (parity: 0 | 1) => {
  for (const [from, to] of [
    ['2025-02-27T00:00:00Z', '2025-03-17T00:00:00Z'],
    ['2025-10-25T00:00:00Z', '2025-11-10T00:00:00Z'],
  ] as const) {
    await ch.client.insert({ table: 'clicks', values: clicksFrom(from, to, parity), format: 'JSONEachRow' });
  }
};

const periodOf = (timeZone: string, p: { startDate: string; endDate: string }) =>
  resolvePeriod({ ...p, timeZone, retentionDays: 3650, now: new Date('2026-01-01T00:00:00Z') });

const RANGE = 'organization_id = {org:UInt64} AND link_type = {type:String} AND link_id = {id:UInt64}';
const RAW_ALL = `${RANGE} AND ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')} AND is_bot = 0`;

/** The same dimension counts as the rollups give, counted from the raw clicks (of one cid when asked). */
const rawPartsOf = (cid: string | null) => {
  const RAW = cid === null ? RAW_ALL : `${RAW_ALL} AND cid = {cid:String}`;
  return [
    `SELECT 'day' AS dim, toString(toDate(ts, {tz:String})) AS name, count() AS c FROM clicks WHERE ${RAW} GROUP BY name`,
    `SELECT 'visitors-day' AS dim, toString(toDate(ts, {tz:String})) AS name, uniqIf(visitor_hash, visitor_hash != 0) AS c FROM clicks WHERE ${RAW} GROUP BY name`,
    `SELECT 'hour' AS dim, toString(toHour(ts, {tz:String})) AS name, count() AS c FROM clicks WHERE ${RAW} GROUP BY name`,
    ...Object.entries({
      country: 'country',
      browser: 'browser',
      os: 'os',
      referrer: 'referrer_host',
      tracker: 'tracker',
      device: 'device_type',
    }).map(
      ([dim, column]) =>
        `SELECT '${dim}' AS dim, toString(${column}) AS name, count() AS c FROM clicks WHERE ${RAW} GROUP BY name`,
    ),
  ];
};
const rawParts = rawPartsOf(null);

beforeAll(async () => {
  db = await migratedClickhouse('rollups');
  ch = db.ch;
  await insertClicks(0);
  await insertClicks(1);
});

afterAll(async () => {
  await db?.dispose();
});

describe('which click rollup answers a period', () => {
  it('hourly beyond a week in whole-hour zones, 15-minute for +5:30, +5:45 and short periods', () => {
    for (const p of PERIODS) {
      expect(clickRollupFor(periodOf('Asia/Seoul', p))).toEqual(HOURLY_ROLLUP);
      expect(clickRollupFor(periodOf('America/New_York', p))).toEqual(HOURLY_ROLLUP);
      expect(clickRollupFor(periodOf('UTC', p))).toEqual(HOURLY_ROLLUP);
      expect(clickRollupFor(periodOf('Asia/Kolkata', p))).toEqual(QUARTER_HOUR_ROLLUP);
      expect(clickRollupFor(periodOf('Asia/Kathmandu', p))).toEqual(QUARTER_HOUR_ROLLUP);
    }
    expect(clickRollupFor(periodOf('Asia/Seoul', { startDate: '2025-03-01', endDate: '2025-03-07' }))).toEqual(
      QUARTER_HOUR_ROLLUP,
    );
    expect(clickRollupFor(periodOf('America/New_York', { startDate: '2025-03-03', endDate: '2025-03-10' }))).toEqual(
      HOURLY_ROLLUP,
    );
  });

  it('sees an offset of part of an hour anywhere in the window', () => {
    // Lord Howe Island is +11 in its summer and +10:30 after the first Sunday of April.
    const window = { utcStart: new Date('2025-03-20T13:00:00Z'), utcEnd: new Date('2025-04-20T13:00:00Z') };
    expect(hourAligned('Australia/Lord_Howe', window)).toBe(false);
    expect(
      hourAligned('Australia/Lord_Howe', { utcStart: window.utcStart, utcEnd: new Date('2025-04-05T13:00:00Z') }),
    ).toBe(true);
    expect(hourAligned('Asia/Seoul', { utcStart: new Date('2025-03-20T13:30:00Z'), utcEnd: window.utcEnd })).toBe(
      false,
    );
  });
});

describe('click statistics from the rollups equal the raw clicks', () => {
  for (const zone of ZONES) {
    for (const p of PERIODS) {
      it(`${zone}, ${p.startDate} to ${p.endDate}`, async () => {
        const period = periodOf(zone, p);
        const input = { organizationId: ORG, linkType: 'url' as const, linkId: LINK, period };
        const raw = statsOf(await queryDimensions(ch.client, rawParts, linkPeriodParams(input)), period);
        expect(raw.total).toBeGreaterThan(1000);
        // Clicks per destination: those a rule or variant chose from the rollups, the rest ('', the
        // link's own URL) the period's other clicks; as the raw clicks count them.
        const rawDestinations = await (
          await ch.client.query({
            query: `SELECT destination_url AS url, count() AS count FROM clicks WHERE ${RAW_ALL} GROUP BY url ORDER BY url`,
            query_params: linkPeriodParams(input),
            format: 'JSONEachRow',
          })
        ).json<{ url: string; count: string }>();
        expect(rawDestinations.length).toBe(3);
        // The clicks carrying a token, which decide whether conversions are read at all.
        const [tied] = await (
          await ch.client.query({
            query: `SELECT count() AS n FROM clicks WHERE ${RAW_ALL} AND deep_link_token != ''`,
            query_params: linkPeriodParams(input),
            format: 'JSONEachRow',
          })
        ).json<{ n: string }>();
        expect(Number(tied!.n)).toBeGreaterThan(100);
        const rolled = await queryDimensions(
          ch.client,
          rollupParts(RANGE, clickRollupFor(period), true),
          linkPeriodParams(input),
        );
        expect(rolled.get('tokens')?.get('tied')).toBe(Number(tied!.n));
        const { destinations, ...stats } = await createClickStats(ch.client).forLink(input);
        expect(stats).toEqual({ ...raw, customIds: [], conversions: [] });
        expect([...destinations].sort((a, b) => a.url.localeCompare(b.url))).toEqual(
          rawDestinations.map((d) => ({ url: d.url, count: Number(d.count) })),
        );
        // The 15-minute rollups answer the same wherever the hourly ones do.
        const quarter = statsOf(
          await queryDimensions(ch.client, rollupParts(RANGE, QUARTER_HOUR_ROLLUP), linkPeriodParams(input)),
          period,
        );
        expect(quarter).toEqual({ ...raw, customIds: [] });

        const installs = await createInstallStats(ch.client).forScope({
          organizationId: ORG,
          scope: { kind: 'url', linkId: LINK },
          platform: 'All',
          period,
        });
        expect(installs.totalClicks).toBe(raw.total);
        const ios = await createInstallStats(ch.client).forScope({
          organizationId: ORG,
          scope: { kind: 'url', linkId: LINK },
          platform: 'iOS',
          period,
        });
        expect(ios.totalClicks).toBe(raw.operatingSystems.find((o) => o.name === 'iOS')?.count);
      });
    }
  }

  it('one customId of a campaign, from the raw clicks in one pass, equals one query per figure', async () => {
    for (const zone of ['America/New_York', 'Asia/Kathmandu']) {
      for (const customId of ['user-1', 'user-2', 'nobody']) {
        const period = periodOf(zone, PERIODS[0]);
        const input = { organizationId: ORG, linkType: 'campaign' as const, linkId: CAMPAIGN, period };
        const parts = [
          ...rawPartsOf(customId),
          `SELECT 'cid' AS dim, cid AS name, count() AS c FROM clicks WHERE ${RAW_ALL} AND cid = {cid:String} GROUP BY name`,
        ];
        const raw = statsOf(
          await queryDimensions(ch.client, parts, { ...linkPeriodParams(input), cid: customId }),
          period,
        );
        if (customId !== 'nobody') expect(raw.total).toBeGreaterThan(50);
        expect(await createClickStats(ch.client).forLink({ ...input, customId })).toEqual({
          ...raw,
          destinations: raw.total === 0 ? [] : [{ url: '', count: raw.total }],
          conversions: [],
        });
      }
    }
  });

  it('would not be exact from hourly buckets in Asia/Kathmandu or Asia/Kolkata (the data crosses their edges)', async () => {
    for (const zone of ['Asia/Kathmandu', 'Asia/Kolkata']) {
      const period = periodOf(zone, PERIODS[0]);
      const params = linkPeriodParams({ organizationId: ORG, linkType: 'url', linkId: LINK, period });
      const raw = statsOf(await queryDimensions(ch.client, rawParts, params), period);
      const hourly = statsOf(await queryDimensions(ch.client, rollupParts(RANGE, HOURLY_ROLLUP), params), period);
      expect(hourly.hourly).not.toEqual(raw.hourly);
    }
  });

  it('the organization dashboard (heatmap, busiest links, previous period) too', async () => {
    for (const zone of ZONES) {
      const period = periodOf(zone, PERIODS[1]);
      const previous = {
        utcStart: new Date(2 * period.utcStart.getTime() - period.utcEnd.getTime()),
        utcEnd: period.utcStart,
      };
      const board = await createClickDashboard(ch.client).forScope(
        { organizationId: ORG, link: null },
        period,
        previous,
      );
      const params = {
        org: ORG,
        start: period.utcStart.getTime() / 1000,
        end: period.utcEnd.getTime() / 1000,
        tz: zone,
      };
      const heat = await (
        await ch.client.query({
          query: `SELECT toDayOfWeek(toDate(ts, {tz:String})) AS weekday, toHour(ts, {tz:String}) AS hour, count() AS count FROM clicks
                  WHERE organization_id = {org:UInt64} AND is_bot = 0 AND ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')}
                  GROUP BY weekday, hour ORDER BY weekday, hour`,
          query_params: params,
          format: 'JSONEachRow',
        })
      ).json<{ weekday: number; hour: number; count: string }>();
      const byCell = (a: { weekday: number; hour: number }, b: { weekday: number; hour: number }) =>
        a.weekday - b.weekday || a.hour - b.hour;
      expect([...board.heatmap].sort(byCell)).toEqual(
        heat.map((h) => ({ weekday: h.weekday, hour: h.hour, count: Number(h.count) })),
      );
      const links = await (
        await ch.client.query({
          query: `SELECT toString(link_type) AS link_type, link_id, count() AS c FROM clicks
                  WHERE organization_id = {org:UInt64} AND is_bot = 0 AND ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')}
                  GROUP BY link_type, link_id ORDER BY c DESC, link_id`,
          query_params: params,
          format: 'JSONEachRow',
        })
      ).json<{ link_type: string; link_id: string; c: string }>();
      expect(board.links).toEqual(
        links.map((l) => ({ linkType: l.link_type, linkId: Number(l.link_id), count: Number(l.c) })),
      );
      expect(board.stats.total).toBe(links.reduce((a, l) => a + Number(l.c), 0));
      const [prev] = await (
        await ch.client.query({
          query: `SELECT count() AS c FROM clicks WHERE organization_id = {org:UInt64} AND is_bot = 0
                  AND ts >= {ps:DateTime64(3, 'UTC')} AND ts < {pe:DateTime64(3, 'UTC')}`,
          query_params: { org: ORG, ps: previous.utcStart.getTime() / 1000, pe: previous.utcEnd.getTime() / 1000 },
          format: 'JSONEachRow',
        })
      ).json<{ c: string }>();
      expect(board.previousTotal).toBe(Number(prev?.c));
      expect(board.previousTotal).toBeGreaterThan(0);
    }
  });
});
