// App-install statistics of a short URL, a campaign or a mobile app over a period, in the
// request's time zone: installs (first launches, attributed or organic), clicks for the conversion
// rate, re-engagement, the four-stage deep-link funnel and resolution quality. Installs and
// resolution attempts are orders of magnitude fewer than clicks, so they are read from the raw
// deep-link tables (sql/clickhouse/0004); clicks come from the 15-minute rollups.
import type { ClickHouseClient } from './clickhouse.js';
import { percent } from './percent.js';
import { periodParams, type StatsPeriod } from './stats-period.js';

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
  /** Percent of the sessions that entered the funnel (stage 1). */
  conversionRate: number;
  /** Percent of the sessions of the stage before (100 for stage 1 when it has sessions). */
  stepConversionRate: number;
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
  /** How installs were attributed: referrer, fingerprint or organic (extension). */
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
  async function clicks(scope: InstallScope, platform: PlatformFilter, params: Record<string, unknown>): Promise<number> {
    const links =
      scope.kind === 'app'
        ? `((link_type = 'url' AND link_id IN {urls:Array(UInt64)}) OR (link_type = 'campaign' AND link_id IN {campaigns:Array(UInt64)}))`
        : 'link_type = {type:String} AND link_id = {link:UInt64}';
    if (scope.kind === 'app' && scope.urlIds.length === 0 && scope.campaignIds.length === 0) return 0;
    // An app's clicks are the ones from its own platform: a desktop click is no install candidate.
    const os = platform !== 'All' ? CLICK_OS[platform] : scope.kind === 'app' ? (params.appOs as string) : null;
    const query =
      os === null
        ? `SELECT sum(clicks) AS c FROM click_series_15m WHERE organization_id = {org:UInt64} AND ${links} AND ${BUCKET_WINDOW}`
        : `SELECT sum(clicks) AS c FROM click_dims_15m WHERE organization_id = {org:UInt64} AND ${links} AND ${BUCKET_WINDOW}
             AND dim = 'os' AND value = {os:String}`;
    const [row] = await rows<{ c: string | number }>(query, { ...params, os });
    return Number(row?.c ?? 0);
  }

  return {
    async forScope(input: {
      organizationId: number;
      scope: InstallScope;
      /** The app's own platform (app scope): its clicks are counted from that system only. */
      appPlatform?: 'IOS' | 'ANDROID' | undefined;
      platform: PlatformFilter;
      period: StatsPeriod;
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
      const where = `${scopeFilter(scope)} AND ${WINDOW}${platform === 'All' ? '' : ' AND platform = {platform:String}'}`;
      const stageList = INSTALL_FUNNEL.map((s) => `'${s.stage}'`).join(', ');

      const [installRows, recent, totalClicks, [reengagement], reengagementDays, sessions, [quality], reasons] = await Promise.all([
        rows<{ day: string; platform: string; country: string; match_type: string; n: string }>(
          `SELECT toString(toDate(ts, {tz:String})) AS day, platform, country, match_type, count() AS n FROM app_installs
           WHERE ${where} GROUP BY day, platform, country, match_type`,
          params,
        ),
        rows<{ at: string; platform: string; country: string; match_type: string; confidence: number; link_type: string; link_id: string }>(
          `SELECT toString(ts) AS at, platform, country, match_type, confidence, toString(link_type) AS link_type, link_id FROM app_installs
           WHERE ${where} ORDER BY ts DESC, event_id DESC LIMIT ${RECENT_LIMIT}`,
          params,
        ),
        clicks(scope, platform, params),
        rows<{ total: string; ok: string; users: string; ios: string; android: string }>(
          `SELECT count() AS total, countIf(matched = 1) AS ok,
             uniqExactIf(user_key, matched = 1 AND user_key != '') AS users,
             countIf(platform = 'IOS') AS ios, countIf(platform = 'ANDROID') AS android
           FROM deeplink_resolutions WHERE ${where} AND reengagement = 1`,
          params,
        ),
        rows<{ day: string; total: string; ok: string }>(
          `SELECT toString(toDate(ts, {tz:String})) AS day, count() AS total, countIf(matched = 1) AS ok
           FROM deeplink_resolutions WHERE ${where} AND reengagement = 1 GROUP BY day`,
          params,
        ),
        // The furthest of the four stages each session reached.
        rows<{ furthest: number; n: string }>(
          `SELECT furthest, count() AS n FROM (
             SELECT session_id, max(toUInt8(stage)) AS furthest FROM deeplink_funnel
             WHERE ${where} AND session_id != '' AND stage IN (${stageList})
             GROUP BY session_id)
           GROUP BY furthest`,
          params,
        ),
        rows<{ total: string; ok: string; fp: string; fp_ok: string }>(
          `SELECT count() AS total, countIf(matched = 1) AS ok,
             countIf(method = 'fingerprint') AS fp, countIf(method = 'fingerprint' AND matched = 1) AS fp_ok
           FROM deeplink_resolutions WHERE ${where}`,
          params,
        ),
        rows<{ reason: string; n: string }>(
          `SELECT failure_reason AS reason, count() AS n FROM deeplink_resolutions
           WHERE ${where} AND matched = 0 GROUP BY reason ORDER BY n DESC, reason LIMIT 20`,
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
      const reengagedOn = new Map(reengagementDays.map((r) => [r.day, { total: Number(r.total), ok: Number(r.ok) }]));
      const totalInstalls = ios + android;

      // Stage order values of the enum: CLICKED 1 … APP_OPENED 4.
      const furthest = new Map(sessions.map((s) => [Number(s.furthest), Number(s.n)]));
      const reached = (order: number) => [...furthest].filter(([f]) => f >= order).reduce((a, [, n]) => a + n, 0);
      const totalSessions = reached(1);
      const completedSessions = reached(INSTALL_FUNNEL.length);

      const attempts = Number(quality?.total ?? 0);
      const failures = reasons.reduce((a, r) => a + Number(r.n), 0);
      const reeng = {
        total: Number(reengagement?.total ?? 0),
        ok: Number(reengagement?.ok ?? 0),
        ios: Number(reengagement?.ios ?? 0),
        android: Number(reengagement?.android ?? 0),
      };
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
          .slice(0, COUNTRY_LIMIT),
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
          uniqueReengagedUsers: Number(reengagement?.users ?? 0),
          platformDistribution: { ios: reeng.ios, android: reeng.android, other: reeng.total - reeng.ios - reeng.android },
        },
        funnelStats: {
          totalSessions,
          completedSessions,
          overallConversionRate: percent(completedSessions, totalSessions),
          stages: INSTALL_FUNNEL.map((s, i) => ({
            stageName: s.stageName,
            stageOrder: i + 1,
            sessionsReached: reached(i + 1),
            conversionRate: percent(reached(i + 1), totalSessions),
            stepConversionRate: i === 0 ? percent(totalSessions, totalSessions) : percent(reached(i + 1), reached(i)),
          })),
        },
        qualityStats: {
          totalAttempts: attempts,
          successfulResolutions: Number(quality?.ok ?? 0),
          successRate: percent(Number(quality?.ok ?? 0), attempts),
          fingerprintMatchRate: percent(Number(quality?.fp_ok ?? 0), Number(quality?.fp ?? 0)),
          failureReasons: reasons.map((r) => ({ name: r.reason, count: Number(r.n), percentage: percent(Number(r.n), failures) })),
        },
      };
    },
  };
}

export type InstallStatsQueries = ReturnType<typeof createInstallStats>;
