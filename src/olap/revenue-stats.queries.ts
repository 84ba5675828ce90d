// Revenue of a campaign or short URL over a period: purchase goals (goalType `purchase` or
// `purchase_<CURRENCY>`, stage GOAL_COMPLETED) from the web user journey (journey_funnel) and the
// mobile deep-link funnel (deeplink_funnel). Amounts are never summed across currencies: each
// currency has its own figures, and the headline ones are those of the currency with the most
// purchases. Both tables may hold a redelivered row twice until merged, so every read keeps one
// row per event id.
import type { ClickHouseClient } from './clickhouse.js';
import { percent } from './percent.js';
import { linkPeriodParams, type LinkPeriod, periodParams, type StatsPeriod } from './query-period.js';

export interface RevenueStats {
  /** The currency of totalRevenue, averageOrderValue and dailyRevenue; null without purchases. */
  currency: string | null;
  totalRevenue: number;
  purchases: number;
  averageOrderValue: number;
  /** Purchases per click, percent. */
  purchaseConversionRate: number;
  dailyRevenue: { date: string; revenue: number; purchases: number }[];
  byCurrency: { currency: string; totalRevenue: number; purchases: number }[];
}

/** One link's purchases, or (an app's) those its SDK or pages recorded under its app id. */
const LINK_SCOPE = 'link_type = {type:String} AND link_id = {id:UInt64}';
const APP_SCOPE = 'app_id = {app:UInt64}';

/** A goal that is a purchase (the revenue figures count these), on journey_funnel or deeplink_funnel. */
export const PURCHASE_GOAL = `(goal_type = 'purchase' OR startsWith(goal_type, 'purchase_'))`;

/** The currency of a purchase: its own column, else the one its goal type names (`purchase_KRW`). */
export const PURCHASE_CURRENCY = `if(currency != '', upper(toString(currency)), if(startsWith(goal_type, 'purchase_'), upper(substring(goal_type, 10)), ''))`;

const PURCHASES = (table: string, scope: string) => `
  SELECT event_id, ts, goal_value, ${PURCHASE_CURRENCY} AS cur
  FROM ${table}
  WHERE organization_id = {org:UInt64} AND ${scope}
    AND stage = 'GOAL_COMPLETED' AND ${PURCHASE_GOAL}
    AND ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')}`;

/** Money in a currency's usual precision is not ours to know; two decimals hide float noise. */
export const money = (n: number) => Math.round(n * 100) / 100;

export function createRevenueStats(client: ClickHouseClient) {
  async function revenue(
    scope: string,
    params: Record<string, unknown>,
    period: StatsPeriod,
    clicks: number,
  ): Promise<RevenueStats> {
    const result = await client.query({
      query: `
        SELECT toString(toDate(ts, {tz:String})) AS day, cur, count() AS n, sum(value) AS revenue
        FROM (
          SELECT event_id, any(ts) AS ts, any(cur) AS cur, any(goal_value) AS value
          FROM (${PURCHASES('journey_funnel', scope)} UNION ALL ${PURCHASES('deeplink_funnel', scope)})
          GROUP BY event_id)
        GROUP BY day, cur`,
      query_params: params,
      format: 'JSONEachRow',
    });
    const rows = await result.json<{ day: string; cur: string; n: string | number; revenue: number }>();
    const currencies = new Map<
      string,
      { purchases: number; revenue: number; daily: Map<string, { revenue: number; purchases: number }> }
    >();
    for (const r of rows) {
      const name = r.cur || 'UNKNOWN';
      let c = currencies.get(name);
      if (!c) currencies.set(name, (c = { purchases: 0, revenue: 0, daily: new Map() }));
      const n = Number(r.n);
      c.purchases += n;
      c.revenue += Number(r.revenue);
      const day = c.daily.get(r.day) ?? { revenue: 0, purchases: 0 };
      c.daily.set(r.day, { revenue: day.revenue + Number(r.revenue), purchases: day.purchases + n });
    }
    const byCurrency = [...currencies]
      .map(([currency, c]) => ({ currency, totalRevenue: money(c.revenue), purchases: c.purchases }))
      .sort(
        (a, b) => b.purchases - a.purchases || b.totalRevenue - a.totalRevenue || a.currency.localeCompare(b.currency),
      );
    const main = byCurrency[0];
    const daily = main
      ? currencies.get(main.currency)!.daily
      : new Map<string, { revenue: number; purchases: number }>();
    const purchases = byCurrency.reduce((a, c) => a + c.purchases, 0);
    return {
      currency: main?.currency ?? null,
      totalRevenue: main?.totalRevenue ?? 0,
      purchases,
      averageOrderValue: main && main.purchases > 0 ? money(main.totalRevenue / main.purchases) : 0,
      purchaseConversionRate: percent(purchases, clicks),
      dailyRevenue: period.days.map((date) => {
        const d = daily.get(date);
        return { date, revenue: money(d?.revenue ?? 0), purchases: d?.purchases ?? 0 };
      }),
      byCurrency,
    };
  }

  return {
    forLink: (input: LinkPeriod & { clicks: number }) =>
      revenue(LINK_SCOPE, linkPeriodParams(input), input.period, input.clicks),
    forApp: (input: { organizationId: number; appId: number; period: StatsPeriod; clicks: number }) =>
      revenue(
        APP_SCOPE,
        { org: input.organizationId, app: input.appId, ...periodParams(input.period) },
        input.period,
        input.clicks,
      ),
  };
}

export type RevenueStatsQueries = ReturnType<typeof createRevenueStats>;
