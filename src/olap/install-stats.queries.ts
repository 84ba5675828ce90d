// App-install statistics of a short URL, a campaign or a mobile app over a period, in the
// request's time zone: installs (first launches, attributed or organic), clicks for the conversion
// rate, re-engagement, the four-stage deep-link funnel and resolution quality. Every figure comes
// from rollups, so its cost follows buckets (or, for the funnel, sessions) rather than events:
// installs and resolution attempts per 15 minutes or hour (sql/clickhouse/0016, chosen as for
// clicks: click-rollup.ts), funnel sessions per 15 minutes, clicks from the click rollups. Only the
// ten most recent installs and the distinct re-engaged users are read from the raw tables.
import type { ClickHouseClient } from './clickhouse.js';
import { type ClickRollup, clickRollupFor, hourlyExact } from './click-rollup.js';
import { percent } from './percent.js';
import { periodParams, type StatsPeriod } from './query-period.js';

/** What the statistics are about: one link, or one app (with the links that point at it). */
export type InstallScope =
  | { kind: 'url' | 'campaign'; linkId: number }
  | { kind: 'app'; appId: number; urlIds: number[]; campaignIds: number[] };

export type PlatformFilter = 'All' | 'iOS' | 'Android';

export interface Share {
  name: string;
  count: number;
  percentage: number;
}

export interface FunnelStageStats {
  stageName: string;
  stageOrder: number;
  /** Sessions that reached this stage or a later one (a lost beacon does not break the funnel). */
  sessionsReached: number;
  /** Percent of the sessions of stage 1: the spec's field, the same as conversionRateFromFirstStage. */
  conversionRate: number;
  conversionRateFromFirstStage: number;
  /** Percent of the sessions of the stage before (100 for stage 1 when it has sessions). */
  conversionRateFromPreviousStage: number;
}

export interface InstallStats {
  totalInstalls: number;
  iosInstalls: number;
  androidInstalls: number;
  totalClicks: number;
  conversionRate: number;
  dailyInstalls: { date: string; installs: number; iosInstalls: number; androidInstalls: number }[];
  platformStats: { platform: 'iOS' | 'Android'; installs: number; percentage: number }[];
  countryStats: { country: string; installs: number; percentage: number }[];
  recentInstalls: {
    installedAt: string;
    platform: 'iOS' | 'Android';
    country: string;
    matchType: string;
    confidence: number;
    linkType: 'url' | 'campaign' | null;
    linkId: number | null;
  }[];
  /** How installs were attributed: referrer, clipboard, fingerprint or organic (extension). */
  installsByMatchType: { matchType: string; installs: number; percentage: number }[];
  /** Re-engagements per local day (extension). */
  dailyReengagements: { date: string; reengagements: number; successful: number }[];
  reengagementStats: {
    totalReengagements: number;
    successfulReengagements: number;
    successRate: number;
    uniqueReengagedUsers: number;
    platformDistribution: { ios: number; android: number; other: number };
  };
  funnelStats: {
    totalSessions: number;
    completedSessions: number;
    overallConversionRate: number;
    stages: FunnelStageStats[];
  };
  qualityStats: {
    totalAttempts: number;
    successfulResolutions: number;
    successRate: number;
    fingerprintMatchRate: number;
    failureReasons: Share[];
  };
}

/** The four stages of the install funnel, in order, with the console's Korean labels. */
const INSTALL_FUNNEL = [
  { stage: 'CLICKED', stageName: '딥링크 클릭' },
  { stage: 'STORE_VISITED', stageName: '스토어 방문' },
  { stage: 'APP_INSTALLED', stageName: '앱 설치' },
  { stage: 'APP_OPENED', stageName: '앱 실행' },
] as const;

/** What one pass over the resolution attempts of a scope gives (resolutionFigures). */
interface ResolutionFigures {
  attempts: number;
  ok: number;
  fingerprint: number;
  fingerprintOk: number;
  reengagements: { total: number; ok: number; users: number; ios: number; android: number };
  /** Failed attempts by reason, most first, at most REASON_LIMIT. */
  reasons: { reason: string; n: number }[];
  /** Re-engagements per local day (days with some only). */
  reengagedOn: Map<string, { total: number; ok: number }>;
}

/** The rollups of installs and resolution attempts (sql/clickhouse/0016) for a period. */
interface DeepLinkRollup {
  installs: 'app_installs_15m' | 'app_installs_1h';
  attempts: 'deeplink_attempts_15m' | 'deeplink_attempts_1h';
}

/** Hourly where hours are exact in the period's zone (as for clicks), else 15-minute. */
const deepLinkRollupFor = (period: StatsPeriod): DeepLinkRollup =>
  hourlyExact(period)
    ? { installs: 'app_installs_1h', attempts: 'deeplink_attempts_1h' }
    : { installs: 'app_installs_15m', attempts: 'deeplink_attempts_15m' };

const REASON_LIMIT = 20;

const COUNTRY_LIMIT = 20;
const RECENT_LIMIT = 10;
const WINDOW = `ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')}`;
const BUCKET_WINDOW = `bucket >= {start:DateTime('UTC')} AND bucket < {end:DateTime('UTC')}`;

/** The deep-link tables' rows of the scope (they all carry app and link columns). */
function scopeFilter(scope: InstallScope): string {
  return scope.kind === 'app'
    ? 'organization_id = {org:UInt64} AND app_id = {app:UInt64}'
    : 'organization_id = {org:UInt64} AND link_type = {type:String} AND link_id = {link:UInt64}';
}

const PLATFORM_VALUE = { iOS: 'IOS', Android: 'ANDROID' } as const;
/** ua-parser-js names of the two mobile systems, as the click rollups store them. */
const CLICK_OS = { iOS: 'iOS', Android: 'Android' } as const;

const appPlatform = (p: string): 'iOS' | 'Android' => (p === 'IOS' ? 'iOS' : 'Android');

export function createInstallStats(client: ClickHouseClient) {
  async function rows<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
    const result = await client.query({ query, query_params: params, format: 'JSONEachRow' });
    return result.json<T>();
  }

  /** People's clicks of the scope in the period, on the filtered platform (by the visitor's OS). */
  async function clicks(
    scope: InstallScope,
    platform: PlatformFilter,
    rollup: ClickRollup,
    params: Record<string, unknown>,
  ): Promise<number> {
    const links =
      scope.kind === 'app'
        ? `((link_type = 'url' AND link_id IN {urls:Array(UInt64)}) OR (link_type = 'campaign' AND link_id IN {campaigns:Array(UInt64)}))`
        : 'link_type = {type:String} AND link_id = {link:UInt64}';
    if (scope.kind === 'app' && scope.urlIds.length === 0 && scope.campaignIds.length === 0) return 0;
    // An app's clicks are the ones from its own platform: a desktop click is no install candidate.
    const os = platform !== 'All' ? CLICK_OS[platform] : scope.kind === 'app' ? (params.appOs as string) : null;
    const query =
      os === null
        ? `SELECT sum(clicks) AS c FROM ${rollup.series} WHERE organization_id = {org:UInt64} AND ${links} AND ${BUCKET_WINDOW}`
        : `SELECT sum(clicks) AS c FROM ${rollup.dims} WHERE organization_id = {org:UInt64} AND ${links} AND ${BUCKET_WINDOW}
             AND dim = 'os' AND value = {os:String}`;
    const [row] = await rows<{ c: string | number }>(query, { ...params, os });
    return Number(row?.c ?? 0);
  }

  /**
   * Re-engagement, resolution quality and failure reasons from one pass over the scope's
   * resolution attempts (their rollup), where one query per figure read them four times: grouping
   * sets count the same rows per local day (re-engagements per day), per failure reason and over
   * the whole period at once. grouping(x) is 0 on the rows of a set that groups by x. The distinct
   * users of the successful re-engagements (exact, as the figure has always been) are counted from
   * the raw attempts alongside: `rawWhere` is the same scope and period on them.
   */
  async function resolutionFigures(
    where: string,
    rawWhere: string,
    params: Record<string, unknown>,
    rollup: DeepLinkRollup,
  ): Promise<ResolutionFigures> {
    const [result, [users]] = await Promise.all([
      client.query({
        query: `SELECT grouping(g_day) = 0 AS by_day, grouping(g_reason) = 0 AS by_reason, g_day, g_reason,
                sum(attempts) AS total, sumIf(attempts, matched = 1) AS ok,
                sumIf(attempts, method = 'fingerprint') AS fp, sumIf(attempts, method = 'fingerprint' AND matched = 1) AS fp_ok,
                sumIf(attempts, matched = 0) AS failed,
                sumIf(attempts, reengagement = 1) AS re_total, sumIf(attempts, reengagement = 1 AND matched = 1) AS re_ok,
                sumIf(attempts, reengagement = 1 AND platform = 'IOS') AS re_ios, sumIf(attempts, reengagement = 1 AND platform = 'ANDROID') AS re_android,
                toString(toDate(bucket, {tz:String})) AS g_day, toString(failure_reason) AS g_reason
              FROM ${rollup.attempts} WHERE ${where}
              GROUP BY GROUPING SETS ((g_day), (g_reason), ())`,
        query_params: params,
        format: 'JSONEachRow',
        // grouping() in the SQL standard's sense, whatever the server's default
        clickhouse_settings: { force_grouping_standard_compatibility: 1 },
      }),
      rows<{ n: string | number }>(
        `SELECT uniqExact(user_key) AS n FROM deeplink_resolutions
       WHERE ${rawWhere} AND reengagement = 1 AND matched = 1 AND user_key != ''`,
        params,
      ),
    ]);
    type Row = Record<
      'total' | 'ok' | 'fp' | 'fp_ok' | 'failed' | 're_total' | 're_ok' | 're_ios' | 're_android',
      string | number
    > & {
      by_day: boolean | number;
      by_reason: boolean | number;
      g_day: string;
      g_reason: string;
    };
    const figures: ResolutionFigures = {
      attempts: 0,
      ok: 0,
      fingerprint: 0,
      fingerprintOk: 0,
      reengagements: { total: 0, ok: 0, users: Number(users?.n ?? 0), ios: 0, android: 0 },
      reasons: [],
      reengagedOn: new Map(),
    };
    for (const r of await result.json<Row>()) {
      if (Number(r.by_day) === 1) {
        if (Number(r.re_total) > 0)
          figures.reengagedOn.set(r.g_day, { total: Number(r.re_total), ok: Number(r.re_ok) });
      } else if (Number(r.by_reason) === 1) {
        if (Number(r.failed) > 0) figures.reasons.push({ reason: r.g_reason, n: Number(r.failed) });
      } else {
        Object.assign(figures, {
          attempts: Number(r.total),
          ok: Number(r.ok),
          fingerprint: Number(r.fp),
          fingerprintOk: Number(r.fp_ok),
        });
        figures.reengagements = {
          ...figures.reengagements,
          total: Number(r.re_total),
          ok: Number(r.re_ok),
          ios: Number(r.re_ios),
          android: Number(r.re_android),
        };
      }
    }
    // The twenty most frequent reasons, ties by name in ClickHouse's (byte) order.
    figures.reasons = figures.reasons
      .sort((a, b) => b.n - a.n || Buffer.compare(Buffer.from(a.reason), Buffer.from(b.reason)))
      .slice(0, REASON_LIMIT);
    return figures;
  }

  return {
    async forScope(input: {
      organizationId: number;
      scope: InstallScope;
      /** The app's own platform (app scope): its clicks are counted from that system only. */
      appPlatform?: 'IOS' | 'ANDROID' | undefined;
      platform: PlatformFilter;
      period: StatsPeriod;
      /** Every country, not the top ones: a previous period's, whose rows are looked up by country. */
      complete?: boolean | undefined;
    }): Promise<InstallStats> {
      const { scope, period, platform } = input;
      const params: Record<string, unknown> = {
        org: input.organizationId,
        app: scope.kind === 'app' ? scope.appId : 0,
        type: scope.kind === 'app' ? 'url' : scope.kind,
        link: scope.kind === 'app' ? 0 : scope.linkId,
        urls: scope.kind === 'app' ? scope.urlIds : [],
        campaigns: scope.kind === 'app' ? scope.campaignIds : [],
        appOs: input.appPlatform === 'ANDROID' ? 'Android' : 'iOS',
        ...periodParams(period),
        platform: platform === 'All' ? '' : PLATFORM_VALUE[platform],
      };
      const onPlatform = platform === 'All' ? '' : ' AND platform = {platform:String}';
      const where = `${scopeFilter(scope)} AND ${WINDOW}${onPlatform}`;
      // Every period starts and ends on a quarter hour, so its buckets hold exactly its events.
      const bucketWhere = `${scopeFilter(scope)} AND ${BUCKET_WINDOW}${onPlatform}`;
      const rollup = deepLinkRollupFor(period);

      const [installRows, recent, totalClicks, resolved, sessions] = await Promise.all([
        rows<{ day: string; platform: string; country: string; match_type: string; n: string }>(
          `SELECT toString(toDate(bucket, {tz:String})) AS day, platform, country, match_type, sum(installs) AS n FROM ${rollup.installs}
           WHERE ${bucketWhere} GROUP BY day, platform, country, match_type`,
          params,
        ),
        rows<{
          at: string;
          platform: string;
          country: string;
          match_type: string;
          confidence: number;
          link_type: string;
          link_id: string;
        }>(
          `SELECT toString(ts) AS at, platform, country, match_type, confidence, toString(link_type) AS link_type, link_id FROM app_installs
           WHERE ${where} ORDER BY ts DESC, event_id DESC LIMIT ${RECENT_LIMIT}`,
          params,
        ),
        clicks(scope, platform, clickRollupFor(period), params),
        resolutionFigures(bucketWhere, where, params, rollup),
        // The furthest of the four stages each session reached, from its furthest per bucket.
        rows<{ furthest: number; n: string }>(
          `SELECT furthest, count() AS n FROM (
             SELECT session_id, max(furthest) AS furthest FROM deeplink_funnel_sessions_15m
             WHERE ${bucketWhere} GROUP BY session_id)
           GROUP BY furthest`,
          params,
        ),
      ]);

      const byDay = new Map<string, { ios: number; android: number }>();
      const byCountry = new Map<string, number>();
      const byMatchType = new Map<string, number>();
      let ios = 0;
      let android = 0;
      for (const r of installRows) {
        const n = Number(r.n);
        const day = byDay.get(r.day) ?? { ios: 0, android: 0 };
        if (r.platform === 'IOS') {
          day.ios += n;
          ios += n;
        } else {
          day.android += n;
          android += n;
        }
        byDay.set(r.day, day);
        const country = r.country || 'Unknown';
        byCountry.set(country, (byCountry.get(country) ?? 0) + n);
        byMatchType.set(r.match_type, (byMatchType.get(r.match_type) ?? 0) + n);
      }
      const { reasons, reengagedOn } = resolved;
      const totalInstalls = ios + android;

      // Stage order values of the enum: CLICKED 1 … APP_OPENED 4.
      const furthest = new Map(sessions.map((s) => [Number(s.furthest), Number(s.n)]));
      const reached = (order: number) => [...furthest].filter(([f]) => f >= order).reduce((a, [, n]) => a + n, 0);
      const totalSessions = reached(1);
      const completedSessions = reached(INSTALL_FUNNEL.length);

      const attempts = resolved.attempts;
      const failures = reasons.reduce((a, r) => a + r.n, 0);
      const reeng = resolved.reengagements;
      return {
        totalInstalls,
        iosInstalls: ios,
        androidInstalls: android,
        totalClicks,
        conversionRate: percent(totalInstalls, totalClicks),
        dailyInstalls: period.days.map((date) => {
          const d = byDay.get(date) ?? { ios: 0, android: 0 };
          return { date, installs: d.ios + d.android, iosInstalls: d.ios, androidInstalls: d.android };
        }),
        platformStats: (['iOS', 'Android'] as const).map((p) => {
          const installs = p === 'iOS' ? ios : android;
          return { platform: p, installs, percentage: percent(installs, totalInstalls) };
        }),
        countryStats: [...byCountry]
          .map(([country, installs]) => ({ country, installs, percentage: percent(installs, totalInstalls) }))
          .sort((a, b) => b.installs - a.installs || a.country.localeCompare(b.country))
          .slice(0, input.complete ? undefined : COUNTRY_LIMIT),
        recentInstalls: recent.map((r) => ({
          installedAt: `${r.at.replace(' ', 'T')}Z`,
          platform: appPlatform(r.platform),
          country: r.country || 'Unknown',
          matchType: r.match_type,
          confidence: Number(r.confidence),
          linkType: r.link_type === 'url' || r.link_type === 'campaign' ? r.link_type : null,
          linkId: r.link_type === 'none' ? null : Number(r.link_id),
        })),
        installsByMatchType: [...byMatchType]
          .map(([matchType, installs]) => ({ matchType, installs, percentage: percent(installs, totalInstalls) }))
          .sort((a, b) => b.installs - a.installs || a.matchType.localeCompare(b.matchType)),
        dailyReengagements: period.days.map((date) => {
          const d = reengagedOn.get(date);
          return { date, reengagements: d?.total ?? 0, successful: d?.ok ?? 0 };
        }),
        reengagementStats: {
          totalReengagements: reeng.total,
          successfulReengagements: reeng.ok,
          successRate: percent(reeng.ok, reeng.total),
          uniqueReengagedUsers: reeng.users,
          platformDistribution: {
            ios: reeng.ios,
            android: reeng.android,
            other: reeng.total - reeng.ios - reeng.android,
          },
        },
        funnelStats: {
          totalSessions,
          completedSessions,
          overallConversionRate: percent(completedSessions, totalSessions),
          stages: INSTALL_FUNNEL.map((s, i) => ({
            stageName: s.stageName,
            stageOrder: i + 1,
            sessionsReached: reached(i + 1),
            conversionRate: percent(reached(i + 1), reached(1)),
            conversionRateFromFirstStage: percent(reached(i + 1), reached(1)),
            conversionRateFromPreviousStage: percent(reached(i + 1), i === 0 ? reached(1) : reached(i)),
          })),
        },
        qualityStats: {
          totalAttempts: attempts,
          successfulResolutions: resolved.ok,
          successRate: percent(resolved.ok, attempts),
          fingerprintMatchRate: percent(resolved.fingerprintOk, resolved.fingerprint),
          failureReasons: reasons.map((r) => ({ name: r.reason, count: r.n, percentage: percent(r.n, failures) })),
        },
      };
    },
  };
}

export type InstallStatsQueries = ReturnType<typeof createInstallStats>;
