// How well deferred deep links find the install, per app over a period in the request's time zone:
// every first-launch resolution (deeplink_resolutions rows with reengagement = 0), matches by type,
// the confidence of the matches in tens, misses by reason, and the same per local day. Read from
// the first-launch rollups (sql/clickhouse/0016): per hour where hours are exact in the zone, else
// per 15 minutes (click-rollup.ts), so a year costs buckets, not launches.
import { MATCH_TYPES, MISS_REASONS } from '../shared/deferred-match-outcomes.js';
import type { ClickHouseClient } from './clickhouse.js';
import { hourlyExact } from './click-rollup.js';
import { percent } from './percent.js';
import { periodParams, type StatsPeriod } from './query-period.js';

type Counts<K extends string> = Record<K, number>;

export interface DeferredMatchDay {
  date: string;
  firstLaunches: number;
  matched: number;
  matchesByType: Counts<(typeof MATCH_TYPES)[number]>;
  missesByReason: Counts<(typeof MISS_REASONS)[number] | 'other'>;
}

export interface DeferredMatchStats {
  firstLaunches: number;
  matched: number;
  matchRate: number;
  matchesByType: { matchType: (typeof MATCH_TYPES)[number]; count: number; percentage: number }[];
  /** Matches by confidence: 0-9 … 80-89, 90-100; percent of the matches. */
  confidenceDistribution: { range: string; count: number; percentage: number }[];
  missesByReason: { reason: (typeof MISS_REASONS)[number] | 'other'; count: number; percentage: number }[];
  daily: DeferredMatchDay[];
}

const zero = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Counts<K>;

const RANGES = Array.from({ length: 10 }, (_, i) => (i === 9 ? '90-100' : `${i * 10}-${i * 10 + 9}`));

export function createDeferredMatchStats(client: ClickHouseClient) {
  return {
    async forApp(input: { organizationId: number; appId: number; period: StatsPeriod }): Promise<DeferredMatchStats> {
      const { period } = input;
      const result = await client.query({
        query: `SELECT toString(toDate(bucket, {tz:String})) AS day, matched, match_type, failure_reason,
                  confidence_decile AS decile, sum(launches) AS n
                FROM deeplink_first_launches_${hourlyExact(period) ? '1h' : '15m'}
                WHERE organization_id = {org:UInt64} AND app_id = {app:UInt64}
                  AND bucket >= {start:DateTime('UTC')} AND bucket < {end:DateTime('UTC')}
                GROUP BY day, matched, match_type, failure_reason, decile`,
        query_params: { org: input.organizationId, app: input.appId, ...periodParams(period) },
        format: 'JSONEachRow',
      });
      const rows = await result.json<{
        day: string;
        matched: number;
        match_type: string;
        failure_reason: string;
        decile: number;
        n: string;
      }>();

      // Every local day of the period, empty ones included.
      const days = new Map<string, DeferredMatchDay>(
        period.days.map((date) => [
          date,
          {
            date,
            firstLaunches: 0,
            matched: 0,
            matchesByType: zero(MATCH_TYPES),
            missesByReason: zero([...MISS_REASONS, 'other']),
          },
        ]),
      );
      const deciles = Array<number>(RANGES.length).fill(0);
      for (const r of rows) {
        const day = days.get(r.day);
        if (!day) continue;
        const n = Number(r.n);
        day.firstLaunches += n;
        if (Number(r.matched) === 1) {
          day.matched += n;
          if (r.match_type in day.matchesByType) day.matchesByType[r.match_type as (typeof MATCH_TYPES)[number]] += n;
          deciles[Number(r.decile)]! += n;
        } else {
          // A matched click whose link was deleted since, and rows from before reasons were stated.
          const reason = (MISS_REASONS as readonly string[]).includes(r.failure_reason)
            ? (r.failure_reason as (typeof MISS_REASONS)[number])
            : 'other';
          day.missesByReason[reason] += n;
        }
      }
      const daily = [...days.values()];
      const sum = (pick: (d: DeferredMatchDay) => number) => daily.reduce((s, d) => s + pick(d), 0);
      const firstLaunches = sum((d) => d.firstLaunches);
      const matched = sum((d) => d.matched);
      const misses = firstLaunches - matched;
      return {
        firstLaunches,
        matched,
        matchRate: percent(matched, firstLaunches),
        matchesByType: MATCH_TYPES.map((matchType) => {
          const count = sum((d) => d.matchesByType[matchType]);
          return { matchType, count, percentage: percent(count, matched) };
        }),
        confidenceDistribution: RANGES.map((range, i) => ({
          range,
          count: deciles[i]!,
          percentage: percent(deciles[i]!, matched),
        })),
        missesByReason: [...MISS_REASONS, 'other' as const].map((reason) => {
          const count = sum((d) => d.missesByReason[reason]);
          return { reason, count, percentage: percent(count, misses) };
        }),
        daily,
      };
    },
  };
}

export type DeferredMatchStatsQueries = ReturnType<typeof createDeferredMatchStats>;
