// People's clicks of an organization (or of one of its short URLs) as the raw table and each click
// rollup count them: after any crash or repetition the four must agree.
import type { ClickHouseClient } from '../../src/olap/clickhouse.js';

export interface ClickFigures {
  raw: number;
  totals: number;
  series15m: number;
  series1h: number;
}

export async function clickFigures(
  client: ClickHouseClient,
  organizationId: number,
  urlId?: number,
): Promise<ClickFigures> {
  const where = `organization_id = {org:UInt64}${urlId === undefined ? '' : ` AND link_type = 'url' AND link_id = {id:UInt64}`}`;
  const one = async (query: string) =>
    Number(
      (
        await (
          await client.query({ query, query_params: { org: organizationId, id: urlId ?? 0 }, format: 'JSONEachRow' })
        ).json<{ n: string }>()
      )[0]?.n ?? 0,
    );
  return {
    raw: await one(`SELECT count() AS n FROM clicks WHERE ${where} AND is_bot = 0`),
    totals: await one(`SELECT sum(clicks) AS n FROM link_click_totals WHERE ${where}`),
    series15m: await one(`SELECT sum(clicks) AS n FROM click_series_15m WHERE ${where}`),
    series1h: await one(`SELECT sum(clicks) AS n FROM click_series_1h WHERE ${where}`),
  };
}
