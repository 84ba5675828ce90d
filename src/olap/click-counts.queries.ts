// clickCount of short URLs and campaigns: one query over the per-link totals rollup, for a record
// or a whole page of them. People only (bots and HEAD requests never reach the totals).
import type { Logger } from '../shared/logger.js';
import type { ClickHouseClient } from './clickhouse.js';

export type LinkType = 'url' | 'campaign';

export interface ClickCounts {
  /** Clicks per link id; ids without clicks are absent. */
  forLinks(organizationId: number, linkType: LinkType, ids: number[]): Promise<Map<number, number>>;
}

export function createClickCounts(options: { client: ClickHouseClient; log: Logger }): ClickCounts {
  const log = options.log.child({ module: 'click-counts' });
  return {
    async forLinks(organizationId, linkType, ids) {
      if (ids.length === 0) return new Map();
      try {
        const result = await options.client.query({
          query: `SELECT link_id, sum(clicks) AS clicks FROM link_click_totals
                  WHERE organization_id = {org:UInt64} AND link_type = {type:String} AND link_id IN {ids:Array(UInt64)}
                  GROUP BY link_id`,
          query_params: { org: organizationId, type: linkType, ids },
          format: 'JSONEachRow',
        });
        const rows = await result.json<{ link_id: number | string; clicks: number | string }>();
        return new Map(rows.map((r) => [Number(r.link_id), Number(r.clicks)]));
      } catch (err) {
        // A record is still worth answering while ClickHouse is away; its count shows as 0.
        log.warn({ err, linkType, links: ids.length }, 'click counts unavailable');
        return new Map();
      }
    },
  };
}
