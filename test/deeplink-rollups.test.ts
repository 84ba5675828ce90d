// The deep-link rollups answer what the raw events answer. The install funnel is read from
// its per-session, per-15-minute rollup instead of grouping every stage event at query time,
// installs from installs per 15 minutes or hour, and the deferred-match statistics from first
// launches per 15 minutes or hour (resolution attempts: install-stats-pass.test.ts): every figure
// equals the one counted from the raw events, in UTC, Asia/Seoul, America/New_York across both
// 2025 DST changes and Asia/Kathmandu (+5:45); for a URL, a campaign and an app, all platforms and
// one. Events cross every zone's midnight; funnel stages
// come hours after their click in a later insert, one batch of them twice over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePeriod } from '../src/core/stats/period.js';
import type { Clickhouse } from '../src/olap/clickhouse.js';
import { createDeferredMatchStats } from '../src/olap/deferred-match-stats.queries.js';
import { createInstallStats, type InstallScope, type PlatformFilter } from '../src/olap/install-stats.queries.js';
import { periodParams } from '../src/olap/query-period.js';
import { MATCH_TYPES, MISS_REASONS } from '../src/shared/deferred-match-outcomes.js';
import {
  migratedClickhouse,
  type MigratedClickhouse,
  ROLLUP_PERIODS as PERIODS,
  ROLLUP_SPANS as SPANS,
  ROLLUP_ZONES as ZONES,
} from './support/rollup-fixture.js';

const ORG = 6;
const URL_ID = 31;
const CAMPAIGN_ID = 41;
let db: MigratedClickhouse;
let ch: Clickhouse;

const STAGES = [
  'CLICKED',
  'STORE_VISITED',
  'APP_INSTALLED',
  'APP_OPENED',
  'DEEP_LINK_RESOLVED',
  'GOAL_COMPLETED',
] as const;

type Part = 'early' | 'late';

/**
 * A session every 11 minutes: its click, a store visit minutes later, an install up to three hours
 * later and an open five to nine hours later (the late part), some stages missing, some
 * repeated, some without a platform, a few past the install funnel (stages 5 and 6), some of another
 * organization or without a session id. `early` is each session's click and store visit, `late`
 * the rest.
 */
function stagesOf(part: Part, parity: 0 | 1 | 'any'): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const at = (t: number) => new Date(t).toISOString().replace('T', ' ').replace('Z', '');
  for (const [from, to] of SPANS) {
    for (let t = Date.parse(from), k = 0; t < Date.parse(to); t += 11 * 60_000, k++) {
      if (parity !== 'any' && k % 2 !== parity) continue;
      const campaign = k % 5 === 2;
      const base = {
        organization_id: k % 13 === 0 ? ORG + 1 : ORG,
        app_id: 1 + (k % 2),
        session_id: k % 29 === 0 ? '' : `s-${from.slice(0, 7)}-${k}`,
        link_type: k % 11 === 0 ? 'none' : campaign ? 'campaign' : 'url',
        link_id: k % 11 === 0 ? 0 : campaign ? CAMPAIGN_ID : URL_ID,
        source: 'sdk',
      };
      const platform = ['IOS', 'ANDROID'][(k >> 1) % 2]!;
      const stage = (order: number, delayMinutes: number, p = platform) =>
        rows.push({
          ...base,
          event_id: crypto.randomUUID(),
          ts: at(t + delayMinutes * 60_000),
          platform: p,
          stage: STAGES[order - 1],
        });
      if (part === 'early') {
        if (k % 9 !== 4) stage(1, 0, k % 3 === 0 ? '' : platform);
        if (k % 4 !== 0) stage(2, 3 + (k % 17));
        if (k % 8 === 1) stage(2, 14);
      } else {
        if (k % 3 !== 0) stage(3, (k % 6) * 37);
        if (k % 7 < 3) stage(4, 300 + (k % 5) * 61);
        if (k % 10 === 5) stage(5, 301);
        if (k % 12 === 7) stage(6, 302);
      }
    }
  }
  return rows;
}

const insert = (rows: Record<string, unknown>[]) =>
  ch.client.insert({ table: 'deeplink_funnel', values: rows, format: 'JSONEachRow' });

/**
 * A resolution every 7 minutes: first launches matched by each type (and one the statistics do
 * not list), missed for each reason and for others, at every confidence; re-engagements, other
 * apps and another organization around them.
 */
function resolutionsOf(parity: 0 | 1): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const [from, to] of SPANS) {
    for (let t = Date.parse(from), k = 0; t < Date.parse(to); t += 7 * 60_000, k++) {
      if (k % 2 !== parity) continue;
      const matched = k % 3 !== 0;
      rows.push({
        event_id: crypto.randomUUID(),
        ts: new Date(t).toISOString().replace('T', ' ').replace('Z', ''),
        organization_id: k % 13 === 0 ? ORG + 1 : ORG,
        app_id: 1 + (k % 2),
        platform: 'IOS',
        method: 'fingerprint',
        matched: matched ? 1 : 0,
        match_type: matched ? [...MATCH_TYPES, 'token'][(k >> 2) % 4] : '',
        confidence: (k * 37) % 101,
        failure_reason: matched ? '' : [...MISS_REASONS, 'link_deleted', 'unknown_token'][(k >> 1) % 6],
        link_type: 'url',
        link_id: URL_ID,
        reengagement: k % 5 === 1 ? 1 : 0,
        user_key: '',
      });
    }
  }
  return rows;
}

const insertResolutions = (parity: 0 | 1) =>
  ch.client.insert({ table: 'deeplink_resolutions', values: resolutionsOf(parity), format: 'JSONEachRow' });

/** The deferred-match figures per local day and the confidence deciles, counted from the raw resolutions. */
async function rawFirstLaunches(params: Record<string, unknown>) {
  const where = `organization_id = {org:UInt64} AND app_id = 2 AND reengagement = 0
    AND ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')}`;
  const reasons = MISS_REASONS.map((r) => `'${r}'`).join(', ');
  const query = async <T>(sql: string) =>
    (await ch.client.query({ query: sql, query_params: params, format: 'JSONEachRow' })).json<T>();
  const days = await query<Record<string, string | number>>(
    `SELECT toString(toDate(ts, {tz:String})) AS day, count() AS first, countIf(matched = 1) AS ok,
       ${MATCH_TYPES.map((m) => `countIf(matched = 1 AND match_type = '${m}') AS m_${m}`).join(', ')},
       ${MISS_REASONS.map((r) => `countIf(matched = 0 AND failure_reason = '${r}') AS r_${r}`).join(', ')},
       countIf(matched = 0 AND failure_reason NOT IN (${reasons})) AS r_other
     FROM deeplink_resolutions WHERE ${where} GROUP BY day`,
  );
  const deciles = await query<{ decile: number; n: string }>(
    `SELECT least(intDiv(confidence, 10), 9) AS decile, count() AS n FROM deeplink_resolutions WHERE ${where} AND matched = 1 GROUP BY decile`,
  );
  return {
    byDay: new Map(
      days.map((d) => [
        String(d.day),
        {
          firstLaunches: Number(d.first),
          matched: Number(d.ok),
          matchesByType: Object.fromEntries(MATCH_TYPES.map((m) => [m, Number(d[`m_${m}`])])),
          missesByReason: Object.fromEntries([...MISS_REASONS, 'other'].map((r) => [r, Number(d[`r_${r}`])])),
        },
      ]),
    ),
    deciles: Array.from({ length: 10 }, (_, i) => Number(deciles.find((d) => Number(d.decile) === i)?.n ?? 0)),
  };
}

/** An install every 13 minutes: both platforms, four countries (one unknown), attributed or organic. */
function installsOf(parity: 0 | 1): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const [from, to] of SPANS) {
    for (let t = Date.parse(from), k = 0; t < Date.parse(to); t += 13 * 60_000, k++) {
      if (k % 2 !== parity) continue;
      const organic = k % 7 === 0;
      const campaign = k % 5 === 2;
      rows.push({
        event_id: crypto.randomUUID(),
        ts: new Date(t).toISOString().replace('T', ' ').replace('Z', ''),
        organization_id: k % 13 === 0 ? ORG + 1 : ORG,
        app_id: 1 + (k % 2),
        platform: ['IOS', 'ANDROID'][(k >> 1) % 2],
        link_type: organic ? 'none' : campaign ? 'campaign' : 'url',
        link_id: organic ? 0 : campaign ? CAMPAIGN_ID : URL_ID,
        match_type: organic ? 'organic' : ['referrer', 'fingerprint', 'clipboard'][(k >> 2) % 3],
        confidence: 80,
        country: ['KR', 'US', 'NP', ''][(k >> 3) % 4],
        os_version: '17.4',
        session_id: '',
      });
    }
  }
  return rows;
}

const insertInstalls = (parity: 0 | 1) =>
  ch.client.insert({ table: 'app_installs', values: installsOf(parity), format: 'JSONEachRow' });

/** Installs per local day and platform, per country and per match type, counted from the raw installs. */
async function rawInstalls(where: string, params: Record<string, unknown>) {
  const query = async (sql: string) =>
    (await ch.client.query({ query: sql, query_params: params, format: 'JSONEachRow' })).json<{
      name: string;
      ios: string;
      android: string;
    }>();
  const window = `${where} AND ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')}`;
  const counts = "countIf(platform = 'IOS') AS ios, countIf(platform = 'ANDROID') AS android";
  const byName = async (column: string) =>
    Object.fromEntries(
      (await query(`SELECT ${column} AS name, ${counts} FROM app_installs WHERE ${window} GROUP BY name`)).map((r) => [
        r.name,
        Number(r.ios) + Number(r.android),
      ]),
    );
  return {
    days: new Map(
      (
        await query(
          `SELECT toString(toDate(ts, {tz:String})) AS name, ${counts} FROM app_installs WHERE ${window} GROUP BY name`,
        )
      ).map((r) => [r.name, { ios: Number(r.ios), android: Number(r.android) }]),
    ),
    countries: await byName("if(country = '', 'Unknown', toString(country))"),
    matchTypes: await byName('match_type'),
  };
}

const SCOPES: { label: string; scope: InstallScope; where: string }[] = [
  {
    label: 'a URL',
    scope: { kind: 'url', linkId: URL_ID },
    where: `organization_id = {org:UInt64} AND link_type = 'url' AND link_id = ${URL_ID}`,
  },
  {
    label: 'a campaign',
    scope: { kind: 'campaign', linkId: CAMPAIGN_ID },
    where: `organization_id = {org:UInt64} AND link_type = 'campaign' AND link_id = ${CAMPAIGN_ID}`,
  },
  {
    label: 'an app',
    scope: { kind: 'app', appId: 2, urlIds: [URL_ID], campaignIds: [CAMPAIGN_ID] },
    where: 'organization_id = {org:UInt64} AND app_id = 2',
  },
];

/** Sessions reaching each of the four stages or a later one, grouped from the raw stage events. */
async function rawReached(where: string, params: Record<string, unknown>): Promise<number[]> {
  const result = await ch.client.query({
    query: `SELECT furthest, count() AS n FROM (
              SELECT session_id, max(toUInt8(stage)) AS furthest FROM deeplink_funnel
              WHERE ${where} AND ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')}
                AND session_id != '' AND stage IN ('CLICKED', 'STORE_VISITED', 'APP_INSTALLED', 'APP_OPENED')
              GROUP BY session_id)
            GROUP BY furthest`,
    query_params: params,
    format: 'JSONEachRow',
  });
  const rows = await result.json<{ furthest: number; n: string }>();
  return [1, 2, 3, 4].map((order) =>
    rows.filter((r) => Number(r.furthest) >= order).reduce((a, r) => a + Number(r.n), 0),
  );
}

beforeAll(async () => {
  db = await migratedClickhouse('deeplink_rollups');
  ch = db.ch;
  // First the even sessions' clicks and store visits, and some of their later stages.
  await insert(stagesOf('early', 0));
  await insert(stagesOf('late', 0).filter((_, i) => i % 2 === 0));
  await insertResolutions(0);
  await insertInstalls(0);
  await insertResolutions(1);
  await insertInstalls(1);
  // Then the odd sessions' first stages, then every session's later stages hours late, one
  // batch of them twice over.
  await insert(stagesOf('early', 1));
  await insert(stagesOf('late', 0).filter((_, i) => i % 2 === 1));
  const late = stagesOf('late', 1);
  await insert(late);
  await insert(late.slice(0, 500));
});

afterAll(async () => {
  await db?.dispose();
});

describe('install funnel from the per-session rollup', () => {
  for (const timeZone of ZONES) {
    for (const p of PERIODS) {
      it(`${timeZone} ${p.startDate} to ${p.endDate}`, async () => {
        const period = resolvePeriod({ ...p, timeZone, retentionDays: 3650, now: new Date('2026-01-01T00:00:00Z') });
        for (const { scope, where } of SCOPES) {
          for (const platform of ['All', 'iOS', 'Android'] as PlatformFilter[]) {
            const filtered =
              platform === 'All' ? where : `${where} AND platform = '${platform === 'iOS' ? 'IOS' : 'ANDROID'}'`;
            const reached = await rawReached(filtered, { org: ORG, ...periodParams(period) });
            // Each stage has sessions, fewer further on: a comparison of zeros would prove nothing.
            expect(reached[3]).toBeGreaterThan(0);
            expect(reached[0]).toBeGreaterThan(reached[3]!);
            const { funnelStats } = await createInstallStats(ch.client).forScope({
              organizationId: ORG,
              scope,
              appPlatform: 'IOS',
              platform,
              period,
            });
            expect(funnelStats.stages.map((s) => s.sessionsReached)).toEqual(reached);
            expect([funnelStats.totalSessions, funnelStats.completedSessions]).toEqual([reached[0], reached[3]]);
          }
        }
      });
    }
  }

  it('the rollup keeps one row per session, bucket and platform once merged', async () => {
    await ch.client.command({ query: 'OPTIMIZE TABLE deeplink_funnel_sessions_15m FINAL' });
    const result = await ch.client.query({
      query: `SELECT count() AS n, uniqExact(organization_id, app_id, link_type, link_id, bucket, platform, session_id) AS keys
              FROM deeplink_funnel_sessions_15m`,
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ n: string; keys: string }>();
    expect(Number(row?.n)).toBe(Number(row?.keys));
  });
});

describe('installs from the install rollups', () => {
  for (const timeZone of ZONES) {
    for (const p of PERIODS) {
      it(`${timeZone} ${p.startDate} to ${p.endDate}`, async () => {
        const period = resolvePeriod({ ...p, timeZone, retentionDays: 3650, now: new Date('2026-01-01T00:00:00Z') });
        for (const { scope, where } of SCOPES) {
          for (const platform of ['All', 'iOS'] as PlatformFilter[]) {
            const raw = await rawInstalls(platform === 'All' ? where : `${where} AND platform = 'IOS'`, {
              org: ORG,
              ...periodParams(period),
            });
            expect(raw.days.size).toBe(period.days.length);
            const stats = await createInstallStats(ch.client).forScope({
              organizationId: ORG,
              scope,
              appPlatform: 'IOS',
              platform,
              period,
            });
            expect(stats.dailyInstalls).toEqual(
              period.days.map((date) => {
                const d = raw.days.get(date) ?? { ios: 0, android: 0 };
                return { date, installs: d.ios + d.android, iosInstalls: d.ios, androidInstalls: d.android };
              }),
            );
            expect(Object.fromEntries(stats.countryStats.map((c) => [c.country, c.installs]))).toEqual(raw.countries);
            expect(Object.fromEntries(stats.installsByMatchType.map((m) => [m.matchType, m.installs]))).toEqual(
              raw.matchTypes,
            );
          }
        }
      });
    }
  }
});

describe('deferred-match statistics from the first-launch rollups', () => {
  for (const timeZone of ZONES) {
    for (const p of PERIODS) {
      it(`${timeZone} ${p.startDate} to ${p.endDate}`, async () => {
        const period = resolvePeriod({ ...p, timeZone, retentionDays: 3650, now: new Date('2026-01-01T00:00:00Z') });
        const raw = await rawFirstLaunches({ org: ORG, ...periodParams(period) });
        const stats = await createDeferredMatchStats(ch.client).forApp({ organizationId: ORG, appId: 2, period });
        // Every day has matches and misses: a comparison of zeros would prove nothing.
        expect(stats.daily.every((d) => d.matched > 0 && d.firstLaunches > d.matched)).toBe(true);
        expect(stats.daily).toEqual(period.days.map((date) => ({ date, ...raw.byDay.get(date) })));
        expect(stats.confidenceDistribution.map((c) => c.count)).toEqual(raw.deciles);
      });
    }
  }
});
