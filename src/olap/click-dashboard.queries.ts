// What the console's dashboards show of clicks, for the whole organization or one link, in one
// ClickHouse round trip from the rollups (15-minute or hourly, click-rollup.ts): the statistics the Service API answers (same
// queries), plus the weekday × hour heatmap in the viewer's zone, UTM breakdowns, the busiest
// links (organization-wide) and the previous period's total for the comparison. Read as a previous
// period (`complete`), every top list keeps every name, so each row of the period finds its count
// there (the dimensions' queries return every name anyway; only the busiest links lose their LIMIT). Filtered
// (click-filters.ts), every part reads the raw table instead: only it knows a click's dimensions together.
// Links picked one by one narrow the range (link type and id lead every key), so the rollups still answer.
import type { ClickHouseClient } from './clickhouse.js';
import { type ClickFilters, filterSql, hasFilters, type LinkSet, linkSetSql } from './click-filters.js';
import { clickRollupFor, type UtcWindow } from './click-rollup.js';
import {
  BUCKET_WINDOW,
  type ClickStats,
  queryDimensions,
  RAW_WINDOW,
  rawPart,
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
  /** Only the clicks these select (values lower case); none or empty: every click. */
  filters?: ClickFilters | undefined;
  /** Only the clicks on these links (of the organization); none: every link. */
  links?: LinkSet | undefined;
}

export interface ClickDashboard {
  stats: ClickStats;
  /** Clicks per local weekday (1 = Monday … 7 = Sunday) and hour; only the cells with clicks. */
  heatmap: { weekday: number; hour: number; count: number }[];
  utm: { source: TopItem[]; medium: TopItem[]; campaign: TopItem[] };
  /** The busiest short URLs and campaigns (organization scope only), most clicks first. */
  links: { linkType: 'url' | 'campaign'; linkId: number; count: number }[];
  /** The total of the `previous` window asked for; 0 without one. */
  previousTotal: number;
  /**
   * One link's clicks per destination_url ('' : its originalUrl), read complete only (a previous
   * period's, for the destinations' change); empty otherwise.
   */
  destinations: { url: string; count: number }[];
}

const TOP_LINKS = 10;

/** Every part from the rollups: one rollup for all, the previous period's total too (when asked). */
function rollupPartsOf(
  range: string,
  period: StatsPeriod,
  previous: UtcWindow | undefined,
  organizationWide: boolean,
  linkLimit: string,
): string[] {
  const rollup = clickRollupFor(period, previous ? [previous] : []);
  const parts = [
    ...rollupParts(range, rollup),
    `SELECT 'heat' AS dim, concat(toString(toDayOfWeek(toDate(bucket, {tz:String}))), ' ', toString(toHour(bucket, {tz:String}))) AS name,
       sum(clicks) AS c FROM ${rollup.series} WHERE ${range} AND ${BUCKET_WINDOW} GROUP BY name`,
  ];
  if (previous)
    parts.push(`SELECT 'previous' AS dim, '' AS name, sum(clicks) AS c FROM ${rollup.series}
       WHERE ${range} AND bucket >= {previousStart:DateTime('UTC')} AND bucket < {previousEnd:DateTime('UTC')}`);
  if (organizationWide) {
    for (const type of ['url', 'campaign']) {
      parts.push(`SELECT 'link' AS dim, concat('${type}:', toString(link_id)) AS name, sum(clicks) AS c FROM ${rollup.series}
        WHERE ${range} AND link_type = '${type}' AND ${BUCKET_WINDOW} GROUP BY link_id ORDER BY c DESC, link_id${linkLimit}`);
    }
  }
  return parts;
}

/** Every part from the raw clicks `where` narrows (the filters): the same figures, dimension names as the rollups'. */
function rawPartsOf(
  range: string,
  where: string,
  withPrevious: boolean,
  organizationWide: boolean,
  linkLimit: string,
): string[] {
  const parts = [
    rawPart(range, where, { utm_source: 'utm_source', utm_medium: 'utm_medium', utm_campaign: 'utm_campaign' }),
    `SELECT 'heat' AS dim, concat(toString(toDayOfWeek(toDate(ts, {tz:String}))), ' ', toString(toHour(ts, {tz:String}))) AS name,
       count() AS c FROM clicks WHERE ${range} AND ${RAW_WINDOW}${where} GROUP BY name`,
  ];
  if (withPrevious)
    parts.push(`SELECT 'previous' AS dim, '' AS name, count() AS c FROM clicks
       WHERE ${range} AND ts >= {previousStart:DateTime64(3, 'UTC')} AND ts < {previousEnd:DateTime64(3, 'UTC')} AND is_bot = 0${where}`);
  if (organizationWide) {
    for (const type of ['url', 'campaign']) {
      parts.push(`SELECT 'link' AS dim, concat('${type}:', toString(link_id)) AS name, count() AS c FROM clicks
        WHERE ${range} AND link_type = '${type}' AND ${RAW_WINDOW}${where} GROUP BY link_id ORDER BY c DESC, link_id${linkLimit}`);
    }
  }
  return parts;
}

export function createClickDashboard(client: ClickHouseClient) {
  return {
    /**
     * The dashboard of `scope` over `period`, with the total of the `previous` window when one is
     * given; `complete`: every name of each top list and every link with clicks, not the busiest only.
     */
    async forScope(
      scope: DashboardScope,
      period: StatsPeriod,
      previous?: UtcWindow,
      complete = false,
    ): Promise<ClickDashboard> {
      const chosen = linkSetSql(scope.links);
      const range = `${
        scope.link
          ? 'organization_id = {org:UInt64} AND link_type = {type:String} AND link_id = {id:UInt64}'
          : 'organization_id = {org:UInt64}'
      }${chosen.sql}`;
      const filtered = filterSql(scope.filters);
      const linkLimit = complete ? '' : ` LIMIT ${TOP_LINKS}`;
      const parts = hasFilters(scope.filters)
        ? rawPartsOf(range, filtered.sql, previous !== undefined, !scope.link, linkLimit)
        : rollupPartsOf(range, period, previous, !scope.link, linkLimit);
      // Clicks per destination, as the link's statistics count them: filtered, from the raw clicks
      // (every destination_url, '' for the originalUrl); else from the rollups, those a rule or
      // variant chose, the rest being the period's other clicks (below).
      const rawDestinations = hasFilters(scope.filters);
      if (complete && scope.link)
        parts.push(
          rawDestinations
            ? `SELECT 'destination' AS dim, destination_url AS name, count() AS c FROM clicks
                WHERE ${range} AND ${RAW_WINDOW}${filtered.sql} GROUP BY name`
            : // The column as the alias (an alias named like a column stands for it in WHERE too).
              `SELECT toString(dim) AS dim, value AS name, sum(clicks) AS c FROM ${clickRollupFor(period, previous ? [previous] : []).dims}
                WHERE ${range} AND ${BUCKET_WINDOW} AND dim = 'destination' GROUP BY dim, name`,
        );
      const byDim = await queryDimensions(client, parts, {
        ...periodParams(period),
        org: scope.organizationId,
        type: scope.link?.type ?? '',
        id: scope.link?.id ?? 0,
        ...(previous && {
          previousStart: previous.utcStart.getTime() / 1000,
          previousEnd: previous.utcEnd.getTime() / 1000,
        }),
        ...filtered.params,
        ...chosen.params,
      });
      const limit = complete ? Number.POSITIVE_INFINITY : undefined;
      const stats = statsOf(byDim, period, limit);
      const destinations = [...(byDim.get('destination') ?? [])].map(([url, count]) => ({ url, count }));
      if (complete && scope.link && !rawDestinations) {
        const chosen = destinations.reduce((sum, d) => sum + d.count, 0);
        if (stats.total > chosen) destinations.push({ url: '', count: stats.total - chosen });
      }
      const utm = (dim: string) => topOf(byDim.get(dim), stats.total, undefined, limit);
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
        destinations,
      };
    },
  };
}

export type ClickDashboardQueries = ReturnType<typeof createClickDashboard>;
