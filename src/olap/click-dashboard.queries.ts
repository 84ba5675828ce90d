// What the console's dashboards show of clicks, for the whole organization or one link, in one
// ClickHouse round trip from the rollups (15-minute or hourly, click-rollup.ts): the statistics the Service API answers (same
// queries), plus the weekday × hour heatmap in the viewer's zone, UTM breakdowns, the busiest
// links (organization-wide) and the previous period's total for the comparison.
import type { ClickHouseClient } from './clickhouse.js';
import { clickRollupFor } from './click-rollup.js';
import {
  BUCKET_WINDOW,
  type ClickStats,
  queryDimensions,
  rollupParts,
  statsOf,
  topOf,
  type TopItem,
} from './click-stats.queries.js';
import { periodParams, type StatsPeriod } from './query-period.js';

export interface DashboardScope {
  organizationId: number;
  /** One link's clicks; null for every link of the organization. */
  link: { type: 'url' | 'campaign'; id: number } | null;
}

export interface ClickDashboard {
  stats: ClickStats;
  /** Clicks per local weekday (1 = Monday … 7 = Sunday) and hour; only the cells with clicks. */
  heatmap: { weekday: number; hour: number; count: number }[];
  utm: { source: TopItem[]; medium: TopItem[]; campaign: TopItem[] };
  /** The busiest short URLs and campaigns (organization scope only), most clicks first. */
  links: { linkType: 'url' | 'campaign'; linkId: number; count: number }[];
  previousTotal: number;
}

const TOP_LINKS = 10;

export function createClickDashboard(client: ClickHouseClient) {
  return {
    async forScope(
      scope: DashboardScope,
      period: StatsPeriod,
      previous: { utcStart: Date; utcEnd: Date },
    ): Promise<ClickDashboard> {
      const range = scope.link
        ? 'organization_id = {org:UInt64} AND link_type = {type:String} AND link_id = {id:UInt64}'
        : 'organization_id = {org:UInt64}';
      // One rollup for every part: the previous period's total too comes from it.
      const rollup = clickRollupFor(period, [previous]);
      const parts = [
        ...rollupParts(range, rollup),
        `SELECT 'heat' AS dim, concat(toString(toDayOfWeek(toDate(bucket, {tz:String}))), ' ', toString(toHour(bucket, {tz:String}))) AS name,
           sum(clicks) AS c FROM ${rollup.series} WHERE ${range} AND ${BUCKET_WINDOW} GROUP BY name`,
        `SELECT 'previous' AS dim, '' AS name, sum(clicks) AS c FROM ${rollup.series}
           WHERE ${range} AND bucket >= {previousStart:DateTime('UTC')} AND bucket < {previousEnd:DateTime('UTC')}`,
      ];
      if (!scope.link) {
        for (const type of ['url', 'campaign']) {
          parts.push(`SELECT 'link' AS dim, concat('${type}:', toString(link_id)) AS name, sum(clicks) AS c FROM ${rollup.series}
            WHERE ${range} AND link_type = '${type}' AND ${BUCKET_WINDOW} GROUP BY link_id ORDER BY c DESC, link_id LIMIT ${TOP_LINKS}`);
        }
      }
      const byDim = await queryDimensions(client, parts, {
        ...periodParams(period),
        org: scope.organizationId,
        type: scope.link?.type ?? '',
        id: scope.link?.id ?? 0,
        previousStart: previous.utcStart.getTime() / 1000,
        previousEnd: previous.utcEnd.getTime() / 1000,
      });
      const stats = statsOf(byDim, period);
      const utm = (dim: string) => topOf(byDim.get(dim), stats.total);
      return {
        stats,
        heatmap: [...(byDim.get('heat') ?? new Map<string, number>())].map(([cell, count]) => {
          const [weekday, hour] = cell.split(' ').map(Number);
          return { weekday: weekday!, hour: hour!, count };
        }),
        utm: { source: utm('utm_source'), medium: utm('utm_medium'), campaign: utm('utm_campaign') },
        links: [...(byDim.get('link') ?? new Map<string, number>())]
          .map(([key, count]) => {
            const [linkType, id] = key.split(':');
            return { linkType: linkType as 'url' | 'campaign', linkId: Number(id), count };
          })
          .sort((a, b) => b.count - a.count || a.linkId - b.linkId),
        previousTotal: byDim.get('previous')?.get('') ?? 0,
      };
    },
  };
}

export type ClickDashboardQueries = ReturnType<typeof createClickDashboard>;
