// App-install statistics read the resolution attempts once (re-engagement per day and in total,
// quality, failure reasons by grouping sets) instead of once per figure, and from their rollup
// (deeplink_attempts_15m or _1h) instead of the raw attempts: on seeded attempts over a year
// (two apps, two links, both platforms, re-engagements by repeat users, more than twenty failure
// reasons with ties), written in two inserts, they answer exactly what the per-figure queries over the raw attempts answer,
// in UTC, Asia/Seoul, America/New_York (across its DST changes) and Asia/Kathmandu (+5:45), for a
// URL, a campaign and an app, filtered and not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePeriod } from '../src/core/stats/period.js';
import type { Clickhouse } from '../src/olap/clickhouse.js';
import {
  createInstallStats,
  type InstallScope,
  type InstallStats,
  type PlatformFilter,
} from '../src/olap/install-stats.queries.js';
import { percent } from '../src/olap/percent.js';
import { periodParams, type StatsPeriod } from '../src/olap/query-period.js';
import { type MigratedClickhouse, migratedClickhouse } from './support/rollup-fixture.js';

const ORG = 4;
const now = new Date();
let db: MigratedClickhouse;
let ch: Clickhouse;

beforeAll(async () => {
  db = await migratedClickhouse('install_pass');
  ch = db.ch;
  // 60,000 attempts over the last 400 days, at times that cross every zone's midnight; 26 reasons
  // (one capitalised, which sorts before the lower-case ones byte-wise), some far more frequent.
  // The odd-numbered ones first, then the even ones.
  const attempts = (parity: number) =>
    ch.client.command({
      query: `INSERT INTO deeplink_resolutions (event_id, ts, organization_id, app_id, platform, method, matched, match_type, confidence,
              failure_reason, link_type, link_id, reengagement, user_key)
            SELECT generateUUIDv4(number), now64(3, 'UTC') - toIntervalSecond((number * 7919) % (400 * 86400)),
              if(number % 13 = 0, ${ORG + 1}, ${ORG}), 1 + intDiv(number, 17) % 2, ['IOS', 'ANDROID', ''][1 + intDiv(number, 7) % 3],
              ['fingerprint', 'token', 'referrer'][1 + intDiv(number, 3) % 3], toUInt8(number % 4 = 0),
              if(number % 4 = 0, 'fingerprint', ''), toUInt8(number % 101),
              if(number % 4 = 0, '', if(number % 5 = 1, 'Zeta', concat('reason-', toString(number % 25)))),
              ['url', 'campaign', 'none'][1 + number % 3], if(number % 3 = 2, 0, 7 + intDiv(number, 5) % 2),
              toUInt8(intDiv(number, 11) % 7 < 3), if(number % 11 = 0, '', concat('user-', toString(intDiv(number, 3) % 97)))
            FROM numbers(60000) WHERE number % 2 = ${parity}`,
    });
  await attempts(1);
  await attempts(0);
});

afterAll(async () => {
  await db?.dispose();
});

const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString().slice(0, 10);

/** The four queries the figures were answered with before, one per figure, as they were. */
async function perFigure(where: string, params: Record<string, unknown>, period: StatsPeriod) {
  const rows = async <T>(query: string) =>
    (await ch.client.query({ query, query_params: params, format: 'JSONEachRow' })).json<T>();
  const [[reengagement], reengagementDays, [quality], reasons] = await Promise.all([
    rows<{ total: string; ok: string; users: string; ios: string; android: string }>(
      `SELECT count() AS total, countIf(matched = 1) AS ok,
         uniqExactIf(user_key, matched = 1 AND user_key != '') AS users,
         countIf(platform = 'IOS') AS ios, countIf(platform = 'ANDROID') AS android
       FROM deeplink_resolutions WHERE ${where} AND reengagement = 1`,
    ),
    rows<{ day: string; total: string; ok: string }>(
      `SELECT toString(toDate(ts, {tz:String})) AS day, count() AS total, countIf(matched = 1) AS ok
       FROM deeplink_resolutions WHERE ${where} AND reengagement = 1 GROUP BY day`,
    ),
    rows<{ total: string; ok: string; fp: string; fp_ok: string }>(
      `SELECT count() AS total, countIf(matched = 1) AS ok,
         countIf(method = 'fingerprint') AS fp, countIf(method = 'fingerprint' AND matched = 1) AS fp_ok
       FROM deeplink_resolutions WHERE ${where}`,
    ),
    rows<{ reason: string; n: string }>(
      `SELECT failure_reason AS reason, count() AS n FROM deeplink_resolutions
       WHERE ${where} AND matched = 0 GROUP BY reason ORDER BY n DESC, reason LIMIT 20`,
    ),
  ]);
  const reengagedOn = new Map(reengagementDays.map((r) => [r.day, { total: Number(r.total), ok: Number(r.ok) }]));
  const attempts = Number(quality?.total ?? 0);
  const failures = reasons.reduce((a, r) => a + Number(r.n), 0);
  const total = Number(reengagement?.total ?? 0);
  const ok = Number(reengagement?.ok ?? 0);
  const ios = Number(reengagement?.ios ?? 0);
  const android = Number(reengagement?.android ?? 0);
  return {
    dailyReengagements: period.days.map((date) => {
      const d = reengagedOn.get(date);
      return { date, reengagements: d?.total ?? 0, successful: d?.ok ?? 0 };
    }),
    reengagementStats: {
      totalReengagements: total,
      successfulReengagements: ok,
      successRate: percent(ok, total),
      uniqueReengagedUsers: Number(reengagement?.users ?? 0),
      platformDistribution: { ios, android, other: total - ios - android },
    },
    qualityStats: {
      totalAttempts: attempts,
      successfulResolutions: Number(quality?.ok ?? 0),
      successRate: percent(Number(quality?.ok ?? 0), attempts),
      fingerprintMatchRate: percent(Number(quality?.fp_ok ?? 0), Number(quality?.fp ?? 0)),
      failureReasons: reasons.map((r) => ({
        name: r.reason,
        count: Number(r.n),
        percentage: percent(Number(r.n), failures),
      })),
    },
  };
}

const SCOPES: { label: string; scope: InstallScope; where: string }[] = [
  {
    label: 'a URL',
    scope: { kind: 'url', linkId: 7 },
    where: "organization_id = {org:UInt64} AND link_type = 'url' AND link_id = 7",
  },
  {
    label: 'a campaign',
    scope: { kind: 'campaign', linkId: 8 },
    where: "organization_id = {org:UInt64} AND link_type = 'campaign' AND link_id = 8",
  },
  {
    label: 'an app',
    scope: { kind: 'app', appId: 2, urlIds: [7], campaignIds: [8] },
    where: 'organization_id = {org:UInt64} AND app_id = 2',
  },
];

const figuresOf = (s: InstallStats) => ({
  dailyReengagements: s.dailyReengagements,
  reengagementStats: s.reengagementStats,
  qualityStats: s.qualityStats,
});

describe('install statistics read the resolution attempts in one pass', () => {
  for (const timeZone of ['UTC', 'Asia/Seoul', 'America/New_York', 'Asia/Kathmandu']) {
    for (const startDate of [daysAgo(364), daysAgo(29)]) {
      for (const { label, scope, where } of SCOPES) {
        it(`${label}, ${timeZone} from ${startDate}`, async () => {
          const period = resolvePeriod({ startDate, timeZone, retentionDays: 1825, now });
          for (const platform of ['All', 'iOS'] as PlatformFilter[]) {
            const filtered = `${where} AND ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')}${platform === 'All' ? '' : " AND platform = 'IOS'"}`;
            const expected = await perFigure(filtered, { org: ORG, ...periodParams(period) }, period);
            // The seed reaches every figure: a comparison of zeros would prove nothing.
            expect(expected.reengagementStats.uniqueReengagedUsers).toBeGreaterThan(10);
            expect(expected.qualityStats.failureReasons).toHaveLength(20);
            expect(expected.qualityStats.fingerprintMatchRate).toBeGreaterThan(0);
            expect(expected.dailyReengagements.filter((d) => d.successful > 0).length).toBeGreaterThan(10);
            const stats = await createInstallStats(ch.client).forScope({
              organizationId: ORG,
              scope,
              appPlatform: 'IOS',
              platform,
              period,
            });
            expect(figuresOf(stats)).toEqual(expected);
          }
        });
      }
    }
  }

  it('a scope without attempts: zeros and no reasons', async () => {
    const period = resolvePeriod({ startDate: daysAgo(6), timeZone: 'Asia/Kathmandu', retentionDays: 1825, now });
    const stats = await createInstallStats(ch.client).forScope({
      organizationId: ORG + 2,
      scope: { kind: 'url', linkId: 7 },
      platform: 'All',
      period,
    });
    expect(figuresOf(stats)).toEqual(
      await perFigure('organization_id = {org:UInt64}', { org: ORG + 2, ...periodParams(period) }, period),
    );
    expect(stats.qualityStats).toEqual({
      totalAttempts: 0,
      successfulResolutions: 0,
      successRate: 0,
      fingerprintMatchRate: 0,
      failureReasons: [],
    });
  });
});
