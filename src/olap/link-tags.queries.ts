// Clicks by tag: link_tags (sql/clickhouse/0003) holds each link's current tags, copied from
// PostgreSQL's outbox; the figures join it to the clicks at query time, so they always follow the
// tags links carry now. A click on a link with two tags counts for both: the tags' figures do not
// add up to the period's total. Unfiltered, the rollups answer (cost by buckets, not clicks);
// filtered (click-filters.ts), the raw table.
import type { ClickHouseClient } from './clickhouse.js';
import { type ClickFilters, filterSql, hasFilters, type LinkSet, linkSetSql } from './click-filters.js';
import { clickRollupFor } from './click-rollup.js';
import { BUCKET_WINDOW, RAW_WINDOW } from './click-stats.queries.js';
import { periodParams, type StatsPeriod } from './query-period.js';

/** One link's tags after a change, as the outbox hands it over. */
export interface LinkTagsRow {
  version: number;
  organizationId: number;
  linkType: 'url' | 'campaign';
  linkId: number;
  tagIds: number[];
  changedAt: Date;
}

export interface TagClicks {
  tagId: number;
  clicks: number;
  /** The sum of the period's days' distinct visitors of the tag's links (as the dashboards count visitors). */
  visitors: number;
}

/** The organization's links with each tag they carry now: one row per (link, tag). */
const LINK_TAG_PAIRS = `SELECT link_type, link_id, arrayJoin(tag_ids) AS tag_id FROM link_tags FINAL
  WHERE organization_id = {org:UInt64}`;

export function createLinkTagsQueries(client: ClickHouseClient) {
  return {
    /** Writes links' tags; a row written twice (a retried copy) is the same version, kept once. */
    async write(rows: LinkTagsRow[]): Promise<void> {
      if (rows.length === 0) return;
      await client.insert({
        table: 'link_tags',
        values: rows.map((r) => ({
          organization_id: r.organizationId,
          link_type: r.linkType,
          link_id: r.linkId,
          tag_ids: r.tagIds,
          version: r.version,
          changed_at: r.changedAt.toISOString().replace('T', ' ').replace('Z', ''),
        })),
        format: 'JSONEachRow',
      });
    },

    /**
     * Clicks and visitors per tag over the period, of the clicks `filters` select; only the tags in
     * `filters.tagIds` when it is given, on the `links` only when given. Tags without clicks are left out.
     */
    async byTag(
      organizationId: number,
      period: StatsPeriod,
      filters?: ClickFilters,
      links?: LinkSet,
    ): Promise<TagClicks[]> {
      const { tagIds, ...others } = filters ?? {};
      const filtered = filterSql(others);
      const raw = hasFilters(others);
      const chosen = linkSetSql(links, raw ? 'c.' : 's.');
      const onlyTags = tagIds === undefined ? '' : ' AND t.tag_id IN {f_tag:Array(UInt64)}';
      // Clicks and visitor sketches per tag and local day; the visitors of the period are the sum of its days'.
      const perDay = raw
        ? `SELECT t.tag_id AS tag_id, toDate(c.ts, {tz:String}) AS day, count() AS clicks,
             uniqIf(c.visitor_hash, c.visitor_hash != 0) AS visitors
           FROM clicks AS c INNER JOIN (${LINK_TAG_PAIRS}) AS t ON c.link_type = t.link_type AND c.link_id = t.link_id
           WHERE c.organization_id = {org:UInt64} AND ${RAW_WINDOW}${filtered.sql}${chosen.sql}${onlyTags}
           GROUP BY tag_id, day`
        : `SELECT t.tag_id AS tag_id, toDate(s.bucket, {tz:String}) AS day, sum(s.clicks) AS clicks,
             uniqMerge(s.visitors) AS visitors
           FROM ${clickRollupFor(period).series} AS s
             INNER JOIN (${LINK_TAG_PAIRS}) AS t ON s.link_type = t.link_type AND s.link_id = t.link_id
           WHERE s.organization_id = {org:UInt64} AND ${BUCKET_WINDOW}${chosen.sql}${onlyTags}
           GROUP BY tag_id, day`;
      const result = await client.query({
        query: `SELECT tag_id, sum(clicks) AS clicks, sum(visitors) AS visitors FROM (${perDay})
                GROUP BY tag_id ORDER BY clicks DESC, tag_id`,
        query_params: {
          ...periodParams(period),
          org: organizationId,
          f_tag: tagIds ?? [],
          ...filtered.params,
          ...chosen.params,
        },
        format: 'JSONEachRow',
      });
      const rows = await result.json<{ tag_id: string | number; clicks: string | number; visitors: string | number }>();
      return rows.map((r) => ({ tagId: Number(r.tag_id), clicks: Number(r.clicks), visitors: Number(r.visitors) }));
    },
  };
}

export type LinkTagsQueries = ReturnType<typeof createLinkTagsQueries>;
