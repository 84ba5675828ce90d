// Click statistics of one short URL or campaign over a period: daily and hourly series in the
// request's time zone (every day and hour present, zero-filled) and the top lists. People only.
// One ClickHouse round trip: the series and every dimension come back from one UNION ALL, read
// from the rollups (cost independent of raw volume): 15-minute buckets, or hourly ones for a period
// longer than a week in a zone where they are exact (click-rollup.ts); clicks per cid from their own
// rollups (0017); a customId filter or any other filter (click-filters.ts) needs the raw table for
// the rest, since only it knows each click's cid and dimensions together.
import type { ClickHouseClient } from './clickhouse.js';
import { type ClickFilters, filterSql, hasFilters } from './click-filters.js';
import { type ClickRollup, clickRollupFor, utcDaySplit } from './click-rollup.js';
import { conversionsByDestination, type DestinationConversions } from './destination-conversions.queries.js';
import { percent } from './percent.js';
import { linkPeriodParams, type LinkPeriod, type StatsPeriod } from './query-period.js';

export interface TopItem {
  name: string;
  count: number;
  /** Share of the period's clicks, percent with one decimal. */
  percentage: number;
}

export interface ClickStats {
  total: number;
  /** Clicks and distinct visitors per date of the period. */
  daily: { date: string; count: number; visitors: number }[];
  /**
   * Visitors over the period: the sum of its days' distinct visitors (approximate; a visitor is an
   * address and user agent under a salt of the UTC day, so one person on two days counts on both);
   * clicks stored before visitor hashes existed add none.
   */
  uniqueVisitors: number;
  hourly: { hour: string; count: number }[];
  countries: TopItem[];
  browsers: TopItem[];
  operatingSystems: TopItem[];
  referrers: TopItem[];
  trackers: TopItem[];
  deviceTypes: TopItem[];
  /** Per ISO 3166-2 region and per city, with a GeoIP database that tells them; clicks of unknown place left out. */
  regions: TopItem[];
  cities: TopItem[];
  /** Per cid (campaigns); empty for short URLs. */
  customIds: TopItem[];
}

/** Dimension → column, a closed list (never request text in SQL). */
const DIMENSIONS = {
  country: 'country',
  browser: 'browser',
  os: 'os',
  referrer: 'referrer_host',
  tracker: 'tracker',
  device: 'device_type',
  region: 'region',
  city: 'city',
} as const;

/** The period on the raw table: people's clicks between the two UTC instants. */
export const RAW_WINDOW = `ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')} AND is_bot = 0`;

/** The period on the rollups: the UTC buckets between the two instants. */
export const BUCKET_WINDOW = `bucket >= {start:DateTime('UTC')} AND bucket < {end:DateTime('UTC')}`;

const TOP_LIMIT = 10;
const CUSTOM_ID_LIMIT = 100;

/**
 * The day and hour series and every dimension of the clicks `range` selects, from `rollup`; the
 * clicks per destination a rule or variant chose (dimension `destination`) and the clicks carrying
 * a token (dimension `tokens`) only when asked for.
 */
export function rollupParts(range: string, rollup: ClickRollup, destinations = false): string[] {
  return [
    // The rollups: cost follows the number of buckets, not of clicks.
    // Clicks and distinct visitors per date: one pass over the series. The period's visitors are
    // their sum (statsOf), not one sketch of every visitor of the period: merging a year of
    // sketches into one took twice as long as the per-day ones together (bench:stats).
    `SELECT pair.1 AS dim, name, pair.2 AS c FROM (
       SELECT toString(toDate(bucket, {tz:String})) AS name, sum(clicks) AS clicks, uniqMerge(visitors) AS people FROM ${rollup.series}
       WHERE ${range} AND ${BUCKET_WINDOW} GROUP BY name
     ) ARRAY JOIN [('day', clicks), ('visitors-day', people)] AS pair`,
    `SELECT 'hour' AS dim, toString(toHour(bucket, {tz:String})) AS name, sum(clicks) AS c FROM ${rollup.series}
       WHERE ${range} AND ${BUCKET_WINDOW} GROUP BY name`,
    `SELECT toString(dim) AS dim, value AS name, sum(clicks) AS c FROM ${rollup.dims}
       WHERE ${range} AND ${BUCKET_WINDOW}${destinations ? '' : ` AND dim NOT IN ('destination', 'tokens')`} GROUP BY dim, name`,
  ];
}

/**
 * The day and hour series, distinct visitors per day and every dimension of the clicks `where`
 * selects (one cid's, the filtered ones), from the raw table: grouping sets count the same rows per
 * day, per hour and per value of each dimension in one pass, where one query per figure read them
 * ten times. grouping(x) is 0 on the rows of a set that groups by x. `extra` adds dimensions (name →
 * column). Distinct visitors are counted per day only, in a second pass over the same rows: counted
 * inside the grouping sets, every set's every group kept a visitor sketch of its own, which was most
 * of the query's time on a busy link's year.
 */
export function rawPart(range: string, where: string, extra: Record<string, string> = {}): string {
  const sets = [
    ['day', 'toDate(ts, {tz:String})'],
    ['hour', 'toHour(ts, {tz:String})'],
    ...Object.entries({ ...DIMENSIONS, ...extra }).map(([dim, column]) => [dim, column] as const),
  ] as const;
  const rows = `FROM clicks WHERE ${range} AND ${RAW_WINDOW}${where}`;
  return `SELECT grouped AS dim, name, clicks AS c FROM (
      SELECT multiIf(${sets.map(([dim]) => `grouping(g_${dim}) = 0, '${dim}'`).join(', ')}, '') AS grouped,
        multiIf(${sets.map(([dim]) => `grouped = '${dim}', g_${dim}`).join(', ')}, '') AS name,
        count() AS clicks,
        ${sets.map(([dim, column]) => `toString(${column}) AS g_${dim}`).join(', ')}
      ${rows}
      GROUP BY GROUPING SETS (${sets.map(([dim]) => `(g_${dim})`).join(', ')}))
    UNION ALL
    SELECT 'visitors-day' AS dim, toString(toDate(ts, {tz:String})) AS name, uniqIf(visitor_hash, visitor_hash != 0) AS c
      ${rows} GROUP BY name`;
}

/** Rows of a UNION ALL of (dim, name, c) as counts per dimension and name. */
export async function queryDimensions(
  client: ClickHouseClient,
  parts: string[],
  params: Record<string, unknown>,
): Promise<Map<string, Map<string, number>>> {
  const result = await client.query({
    query: parts.map((p) => `(${p})`).join('\nUNION ALL\n'),
    query_params: params,
    format: 'JSONEachRow',
    // grouping() in the SQL standard's sense (rawPart), whatever the server's default
    clickhouse_settings: { force_grouping_standard_compatibility: 1 },
  });
  const rows = await result.json<{ dim: string; name: string; c: number | string }>();
  const byDim = new Map<string, Map<string, number>>();
  for (const row of rows) {
    let m = byDim.get(row.dim);
    if (!m) byDim.set(row.dim, (m = new Map()));
    m.set(row.name, (m.get(row.name) ?? 0) + Number(row.c));
  }
  return byDim;
}

/** The names of one dimension, most clicks first, with their share of `total`. */
export function topOf(
  counts: Map<string, number> | undefined,
  total: number,
  rename: (name: string) => string = (n) => n,
  limit = TOP_LIMIT,
): TopItem[] {
  return [...(counts ?? new Map<string, number>())]
    .map(([name, count]) => ({ name: rename(name), count, percentage: percent(count, total) }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
    .slice(0, limit);
}

/** The counts of the values the database knew: the raw table has '' for the others, the rollups leave them out. */
function known(counts: Map<string, number> | undefined): Map<string, number> | undefined {
  return counts && new Map([...counts].filter(([name]) => name !== ''));
}

/**
 * The statistics a set of dimension counts holds over the period's days, each top list cut at
 * `limit` names (Infinity: every name, for a previous period whose counts are looked up by name).
 */
export function statsOf(byDim: Map<string, Map<string, number>>, period: StatsPeriod, limit = TOP_LIMIT): ClickStats {
  const days = byDim.get('day') ?? new Map<string, number>();
  const total = [...days.values()].reduce((a, b) => a + b, 0);
  const hours = byDim.get('hour') ?? new Map<string, number>();
  const top = (dim: string, rename: (name: string) => string, cut = limit) => topOf(byDim.get(dim), total, rename, cut);
  const devices = byDim.get('device') ?? new Map<string, number>();
  const visitorDays = byDim.get('visitors-day') ?? new Map<string, number>();
  return {
    total,
    daily: period.days.map((date) => ({ date, count: days.get(date) ?? 0, visitors: visitorDays.get(date) ?? 0 })),
    uniqueVisitors: [...visitorDays.values()].reduce((a, b) => a + b, 0),
    hourly: Array.from({ length: 24 }, (_, h) => ({
      hour: `${String(h).padStart(2, '0')}:00`,
      count: hours.get(String(h)) ?? 0,
    })),
    countries: top('country', (n) => n || 'Unknown'),
    browsers: top('browser', (n) => n || 'Unknown'),
    operatingSystems: top('os', (n) => n || 'Unknown'),
    referrers: top('referrer', (n) => n || 'Direct'),
    trackers: top('tracker', (n) => n || '(none)'),
    // The three device types are always there, in a fixed order.
    deviceTypes: ['Mobile', 'Desktop', 'Tablet'].map((name) => {
      const count = devices.get(name) ?? 0;
      return { name, count, percentage: percent(count, total) };
    }),
    regions: topOf(known(byDim.get('region')), total, undefined, limit),
    cities: topOf(known(byDim.get('city')), total, undefined, limit),
    customIds: top('cid', (n) => n, CUSTOM_ID_LIMIT),
  };
}

/** A link's statistics with its clicks per destination sent to. */
export interface LinkClickStats extends ClickStats {
  /** Clicks per destination_url, most first ('' : the link's originalUrl, sql/clickhouse/0002). */
  destinations: { url: string; count: number }[];
  /** What the clicks of each destination_url led to (destination-conversions.queries.ts); only those with some. */
  conversions: DestinationConversions[];
}

export function createClickStats(client: ClickHouseClient) {
  return {
    /**
     * With `linkTotal`, the link's clicks of all time (the per-link totals rollup, what a record's
     * clickCount says) come back in the same round trip: on the embedded engine, queries run one
     * after the other, and a second query was a quiet link's statistics' largest cost after the first.
     */
    async forLink(
      input: LinkPeriod & { customId?: string | undefined; filters?: ClickFilters | undefined; linkTotal?: boolean },
    ): Promise<LinkClickStats & { linkTotal?: number }> {
      const range = `organization_id = {org:UInt64} AND link_type = {type:String} AND link_id = {id:UInt64}`;
      const filtered = filterSql(input.filters);
      // What narrows the raw rows: the cid and the filters; empty: the rollups answer.
      const where = `${input.customId !== undefined ? ' AND cid = {cid:String}' : ''}${filtered.sql}`;
      // Clicks per destination: read raw, one more grouping set of the same pass, every
      // destination_url ('' for the link's originalUrl); from the rollups, those a rule or variant
      // chose, the rest being the period's other clicks (below).
      const raw = where !== '';
      const parts = raw
        ? [rawPart(range, where, { destination: 'destination_url' })]
        : rollupParts(range, clickRollupFor(input.period), true);
      if (input.linkType === 'campaign' && hasFilters(input.filters)) {
        // Clicks per cid of the filtered clicks: only the raw table knows both.
        parts.push(`SELECT 'cid' AS dim, cid AS name, count() AS c FROM clicks
            WHERE ${range} AND ${RAW_WINDOW}${where}
            GROUP BY name ORDER BY c DESC, name LIMIT ${CUSTOM_ID_LIMIT}`);
      } else if (input.linkType === 'campaign') {
        // Clicks per cid: the whole UTC days of the period from the daily rollup, the partial days
        // at its ends from the 15-minute one (utcDaySplit).
        const oneCid = input.customId !== undefined ? 'AND cid = {cid:String}' : '';
        parts.push(`SELECT 'cid' AS dim, cid AS name, sum(clicks) AS c FROM (
            SELECT cid, clicks FROM click_cids_1d
            WHERE ${range} AND day >= toDate({daysFrom:DateTime('UTC')}) AND day < toDate({daysTo:DateTime('UTC')}) ${oneCid}
            UNION ALL
            SELECT cid, clicks FROM click_cids_15m
            WHERE ${range} AND ${BUCKET_WINDOW}
              AND (bucket < {daysFrom:DateTime('UTC')} OR bucket >= {daysTo:DateTime('UTC')}) ${oneCid})
          GROUP BY name ORDER BY c DESC, name LIMIT ${CUSTOM_ID_LIMIT}`);
      }
      const params = {
        ...linkPeriodParams(input),
        ...utcDaySplit(input.period),
        cid: input.customId ?? '',
        ...filtered.params,
      };
      // Conversions are tied to clicks by their deep-link token or click id: most links' clicks
      // carry none, and then the query that joins them to goals and installs is not made (it cost
      // a quiet link's statistics about half their time).
      const clicks = `${range} AND ${RAW_WINDOW}${where}`;
      // From the rollups that count is dimension `tokens` (value `tied`); read raw, one more part.
      if (raw)
        parts.push(
          `SELECT 'tokens' AS dim, '' AS name, count() AS c FROM clicks WHERE ${clicks} AND deep_link_token != ''`,
        );
      if (input.linkTotal)
        parts.push(`SELECT 'link-total' AS dim, '' AS name, sum(clicks) AS c FROM link_click_totals WHERE ${range}`);
      const byDim = await queryDimensions(client, parts, params);
      const tied = byDim.get('tokens')?.get(raw ? '' : 'tied') ?? 0;
      const conversions = tied > 0 ? await conversionsByDestination(client, clicks, params) : [];
      const stats = statsOf(byDim, input.period);
      const destinations = [...(byDim.get('destination') ?? [])].map(([url, count]) => ({ url, count }));
      if (!raw) {
        const chosen = destinations.reduce((sum, d) => sum + d.count, 0);
        if (stats.total > chosen) destinations.push({ url: '', count: stats.total - chosen });
      }
      const answer = { ...stats, destinations, conversions };
      return input.linkTotal ? { ...answer, linkTotal: byDim.get('link-total')?.get('') ?? 0 } : answer;
    },
  };
}

export type ClickStatsQueries = ReturnType<typeof createClickStats>;
