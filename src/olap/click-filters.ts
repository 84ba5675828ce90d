// Filters on a link's clicks (contract: "Filters and shared statistics"): per dimension, the values
// a click must have one of. Values arrive lower-cased (src/core/stats/click-filters.ts) and every
// column is compared lower-cased, so `KR`, `kr`, `iOS` and `ios` match alike. The rollups keep each
// dimension apart from the others, so only the raw `clicks` table can answer a filtered figure.

/** Filter name → the raw column it compares, a closed list (never request text in SQL). */
export const FILTER_COLUMNS = {
  country: 'country',
  deviceType: 'device_type',
  os: 'os',
  browser: 'browser',
  referrer: 'referrer_host',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  // With a GeoIP database that has them (src/core/stats/click-filters.ts refuses them otherwise).
  region: 'region',
  city: 'city',
} as const;

export type ClickFilterName = keyof typeof FILTER_COLUMNS;

/**
 * The filters applied: each named dimension's accepted values, lower case; a name left out accepts
 * any. `tagIds` (the console's dashboards only): clicks on links that carry one of these tags now
 * (link_tags, sql/clickhouse/0003); [] matches no click (a tag name the organization does not have).
 */
export type ClickFilters = Partial<Record<ClickFilterName, string[]>> & { tagIds?: number[] | undefined };

export const FILTER_NAMES = Object.keys(FILTER_COLUMNS) as ClickFilterName[];

/**
 * Links picked one by one (the console's dashboards only): short URL ids and campaign ids, a click
 * on any of them counts; an id the organization has no link of matches nothing.
 */
export interface LinkSet {
  url: number[];
  campaign: number[];
}

/**
 * A link set as a condition on `link_type` and `link_id` (of the table `alias` names, if any) with
 * its query parameters. Both columns lead the rollups' keys as the raw table's, so the rollups still
 * answer with it: it narrows a query's range rather than joining the filters. Empty without a set.
 */
export function linkSetSql(links: LinkSet | undefined, alias = ''): { sql: string; params: Record<string, number[]> } {
  if (!links) return { sql: '', params: {} };
  const types = (['url', 'campaign'] as const).filter((type) => links[type].length > 0);
  const of = (type: keyof LinkSet) =>
    `(${alias}link_type = '${type}' AND ${alias}link_id IN {f_link_${type}:Array(UInt64)})`;
  return {
    sql: types.length > 0 ? ` AND (${types.map(of).join(' OR ')})` : ' AND 0',
    params: Object.fromEntries(types.map((type) => [`f_link_${type}`, links[type]])),
  };
}

export const hasFilters = (filters: ClickFilters | undefined): filters is ClickFilters =>
  filters !== undefined &&
  (filters.tagIds !== undefined || FILTER_NAMES.some((name) => (filters[name]?.length ?? 0) > 0));

/**
 * The links carrying one of {f_tag:Array(UInt64)} now, of the organization {org:UInt64}: their
 * (link_type, link_id) pairs from link_tags, read with FINAL so only each link's latest tags count.
 */
const TAGGED_LINKS = `SELECT link_type, link_id FROM link_tags FINAL
  WHERE organization_id = {org:UInt64} AND hasAny(tag_ids, {f_tag:Array(UInt64)})`;

/**
 * The filters as SQL on the raw table: ` AND lower(col) IN {f_name:Array(String)}` per filter (and
 * the tagged links' pairs for `tagIds`, which needs {org:UInt64}), and the query parameters they
 * name. Empty for no filter.
 */
export function filterSql(filters: ClickFilters | undefined): {
  sql: string;
  params: Record<string, string[] | number[]>;
} {
  let sql = '';
  const params: Record<string, string[] | number[]> = {};
  for (const name of FILTER_NAMES) {
    const values = filters?.[name];
    if (!values?.length) continue;
    sql += ` AND lower(toString(${FILTER_COLUMNS[name]})) IN {f_${name}:Array(String)}`;
    params[`f_${name}`] = values;
  }
  if (filters?.tagIds !== undefined) {
    sql += ` AND (link_type, link_id) IN (${TAGGED_LINKS})`;
    params.f_tag = filters.tagIds;
  }
  return { sql, params };
}
