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

/** The filters applied: each named dimension's accepted values, lower case; a name left out accepts any. */
export type ClickFilters = Partial<Record<ClickFilterName, string[]>>;

export const FILTER_NAMES = Object.keys(FILTER_COLUMNS) as ClickFilterName[];

export const hasFilters = (filters: ClickFilters | undefined): filters is ClickFilters =>
  filters !== undefined && FILTER_NAMES.some((name) => (filters[name]?.length ?? 0) > 0);

/**
 * The filters as SQL on the raw table: ` AND lower(col) IN {f_name:Array(String)}` per filter, and
 * the query parameters they name. Empty for no filter.
 */
export function filterSql(filters: ClickFilters | undefined): { sql: string; params: Record<string, string[]> } {
  let sql = '';
  const params: Record<string, string[]> = {};
  for (const name of FILTER_NAMES) {
    const values = filters?.[name];
    if (!values?.length) continue;
    sql += ` AND lower(toString(${FILTER_COLUMNS[name]})) IN {f_${name}:Array(String)}`;
    params[`f_${name}`] = values;
  }
  return { sql, params };
}
