// Conversions per destination (routing rules and A/B variants): the goals and installs tied to the
// clicks of a period, grouped by where each click was sent. A conversion is tied to its click by the
// deep-link token the click was given (clicks.deep_link_token, sql/clickhouse/0005): the app's
// funnel stages use the token as their session (deeplink_funnel.session_id), an attributed install
// keeps it (app_installs.session_id), and a web SDK session opened with it writes it on its goals
// (journey_funnel.deep_link_token). The join is on the token, never on time: a conversion counts
// for its click's period however long after the click it arrives (only one before the period's
// start cannot be one of its clicks'). Raw tables may hold a redelivered row twice until merged,
// so every conversion is read once per event id.
import type { ClickHouseClient } from './clickhouse.js';
import { money, PURCHASE_CURRENCY, PURCHASE_GOAL } from './revenue-stats.queries.js';

/** What the clicks sent to one destination (destination_url; '' : the link's originalUrl) led to. */
export interface DestinationConversions {
  url: string;
  /** Clicks that led to at least one goal or install. */
  conversions: number;
  installs: number;
  /** Goals completed, by goal type, most first. */
  goals: { goalType: string; count: number }[];
  /** Purchase goals by currency (never summed across currencies), most purchases first. */
  revenue: { currency: string; amount: number; purchases: number }[];
}

/** Conversions after the period's start (none can come before its click), of the organization only. */
const SINCE = `organization_id = {org:UInt64} AND ts >= {start:DateTime64(3, 'UTC')}`;

/**
 * The conversions of the clicks `clicksWhere` selects (the link's clicks of the period, with the
 * same cid and filters as the rest of the statistics), per destination.
 */
export async function conversionsByDestination(
  client: ClickHouseClient,
  clicksWhere: string,
  params: Record<string, unknown>,
): Promise<DestinationConversions[]> {
  const tied = `${clicksWhere} AND deep_link_token != ''`;
  const clicked = `SELECT deep_link_token FROM clicks WHERE ${tied}`;
  const result = await client.query({
    query: `
      WITH conv AS (
        SELECT event_id, any(token) AS token, any(kind) AS kind, any(goal) AS goal, any(cur) AS cur, any(value) AS value
        FROM (
          SELECT event_id, session_id AS token, 'install' AS kind, '' AS goal, '' AS cur, toFloat64(0) AS value
          FROM app_installs WHERE ${SINCE} AND session_id IN (${clicked})
          UNION ALL
          SELECT event_id, session_id, 'goal', toString(goal_type),
            if(${PURCHASE_GOAL}, ${PURCHASE_CURRENCY}, ''), if(${PURCHASE_GOAL}, goal_value, 0)
          FROM deeplink_funnel WHERE ${SINCE} AND stage = 'GOAL_COMPLETED' AND session_id IN (${clicked})
          UNION ALL
          SELECT event_id, deep_link_token, 'goal', toString(goal_type),
            if(${PURCHASE_GOAL}, ${PURCHASE_CURRENCY}, ''), if(${PURCHASE_GOAL}, goal_value, 0)
          FROM journey_funnel WHERE ${SINCE} AND stage = 'GOAL_COMPLETED' AND deep_link_token IN (${clicked}))
        GROUP BY event_id),
      sent AS (
        SELECT deep_link_token AS token, any(destination_url) AS url FROM clicks WHERE ${tied} GROUP BY token)
      SELECT sent.url AS url, conv.kind AS kind, conv.goal AS goal, conv.cur AS cur,
        count() AS n, uniqExact(conv.token) AS clicks, sum(conv.value) AS value
      FROM conv INNER JOIN sent ON sent.token = conv.token
      GROUP BY GROUPING SETS ((url), (url, kind, goal, cur))
      ORDER BY url, kind, goal, cur`,
    query_params: params,
    format: 'JSONEachRow',
    // grouping sets in the SQL standard's sense, whatever the server's default
    clickhouse_settings: { force_grouping_standard_compatibility: 1 },
  });
  const rows = await result.json<{
    url: string;
    kind: string;
    goal: string;
    cur: string;
    n: number | string;
    clicks: number | string;
    value: number;
  }>();
  const byUrl = new Map<string, DestinationConversions>();
  const entry = (url: string) => {
    let e = byUrl.get(url);
    if (!e) byUrl.set(url, (e = { url, conversions: 0, installs: 0, goals: [], revenue: [] }));
    return e;
  };
  for (const r of rows) {
    const e = entry(r.url);
    // The (url) set leaves kind at its default: the clicks of the destination that converted.
    if (r.kind === '') e.conversions = Number(r.clicks);
    else if (r.kind === 'install') e.installs += Number(r.n);
    else {
      const goal = e.goals.find((g) => g.goalType === r.goal);
      if (goal) goal.count += Number(r.n);
      else e.goals.push({ goalType: r.goal, count: Number(r.n) });
      // Purchases (PURCHASE_GOAL) carry the revenue.
      if (r.goal === 'purchase' || r.goal.startsWith('purchase_')) {
        const currency = r.cur || 'UNKNOWN';
        const c = e.revenue.find((x) => x.currency === currency);
        if (c) {
          c.amount = money(c.amount + Number(r.value));
          c.purchases += Number(r.n);
        } else e.revenue.push({ currency, amount: money(Number(r.value)), purchases: Number(r.n) });
      }
    }
  }
  for (const e of byUrl.values()) {
    e.goals.sort((a, b) => b.count - a.count || a.goalType.localeCompare(b.goalType));
    e.revenue.sort((a, b) => b.purchases - a.purchases || b.amount - a.amount || a.currency.localeCompare(b.currency));
  }
  return [...byUrl.values()];
}
