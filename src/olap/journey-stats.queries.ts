// User-journey statistics of one organization over a period (time-zone aware, like click
// statistics), each declared once as a part of the journey query model (journey-query.ts): the
// groupings of the period's sessions, events, transitions and goals it reads, its result type and
// how it reads its rows. An endpoint asks for its part, the dashboard for the union of the parts:
// one query either way, reading each table once. The session list, a page of sessions rather than
// figures, has queries of its own.
import type { ClickHouseClient } from './clickhouse.js';
import {
  buildQuery,
  GOAL_STAGE,
  grouping,
  type Part,
  type PassRow,
  part,
  type Results,
  SESSIONS,
  SETTINGS,
  sessionsWith,
} from './journey-query.js';
import { periodParams, type StatsPeriod } from './query-period.js';

/**
 * Given sessions (a page of them) with their distinct events, transitions and goals counted, which
 * is costly: their ids and the span of their starts bound the read to the key range they lie in.
 */
const PAGE_COUNTED = sessionsWith(
  'finalizeAggregation(events) AS events, finalizeAggregation(transitions) AS transitions, finalizeAggregation(goals) AS goals',
  `organization_id = {org:UInt64} AND started_at BETWEEN fromUnixTimestamp64Milli({lo:Int64}, 'UTC') AND fromUnixTimestamp64Milli({hi:Int64}, 'UTC')
    AND session_id IN {ids:Array(String)}`,
);

/** The sessions of a period, or those of one platform or UTM source in it. */
export interface SessionGroup {
  sessions: number;
  uniqueUsers: number;
  identifiedSessions: number;
  sessionsWithTransition: number;
  /** Sessions that completed a goal (reached GOAL_COMPLETED). */
  convertedSessions: number;
  /** At most one event, no transition and no goal. */
  bouncedSessions: number;
  averageDurationMs: number;
  /** Sessions reaching each web funnel stage, 1 CLICKED to 5 GOAL_COMPLETED: a later stage implies the earlier ones. */
  reached: number[];
}

export interface SessionFigures {
  all: SessionGroup;
  /** Events of the period by their own time (as the summary's totalEvents), whichever session they belong to. */
  events: number;
  /** Most sessions first; value '' is sessions whose start never arrived (no platform). */
  platforms: (SessionGroup & { value: string })[];
  /** Most sessions first; value '' is sessions without a UTM source. */
  utmSources: (SessionGroup & { value: string })[];
}

export interface SessionListRow {
  sessionId: string;
  platform: string;
  startedAt: Date;
  lastActivityAt: Date;
  externalUserId: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  events: number;
  transitions: number;
  maxStage: number;
  goals: number;
}

export interface DailyRow {
  date: string;
  sessions: number;
  uniqueUsers: number;
  events: number;
  transitions: number;
  goalCompletions: number;
}

export interface PathCount {
  fromPlatform: string;
  toPlatform: string;
  count: number;
}

export interface ActivityTotals {
  events: number;
  transitions: number;
  goalCompletions: number;
  revenue: { currency: string; totalRevenue: number; goals: number }[];
  goalTypes: { goalType: string; count: number; value: number }[];
  eventTypes: { eventType: string; count: number }[];
}

export interface TransitionPaths {
  total: number;
  /** Sessions that made at least one transition in the period. */
  sessions: number;
  paths: PathCount[];
}

type Params = Record<string, unknown>;

/** Byte order of plain text, as ClickHouse sorts strings. */
const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** Rounded to two decimals, as money is shown. */
const cents = (x: number) => Math.round(x * 100) / 100;

/** Rows added up per key, most counted first (then by key). */
function sumBy<T extends { count: number; value: number }>(
  items: T[],
  keyOf: (item: T) => string,
): { key: string; count: number; value: number }[] {
  const sums = new Map<string, { key: string; count: number; value: number }>();
  for (const item of items) {
    const key = keyOf(item);
    const sum = sums.get(key) ?? { key, count: 0, value: 0 };
    sum.count += item.count;
    sum.value += item.value;
    sums.set(key, sum);
  }
  return [...sums.values()].sort((x, y) => y.count - x.count || byText(x.key, y.key));
}

/** Paths most travelled first, then by platform names. */
const byCountThenPath = (x: PathCount, y: PathCount) =>
  y.count - x.count || byText(x.fromPlatform, y.fromPlatform) || byText(x.toPlatform, y.toPlatform);

const SESSION_MEASURES = [
  'sessions',
  'users',
  'identified',
  'withTransition',
  'bounced',
  'averageDurationMs',
  'reached1',
  'reached2',
  'reached3',
  'reached4',
  'reached5',
] as const;

/** The sessions of the period, or those of each platform or UTM source, with every session figure. */
const sessionsBy = <const D extends 'platform' | 'utmSource'>(by: readonly D[]) =>
  grouping('sessions', by, SESSION_MEASURES);

type SessionRow = Record<(typeof SESSION_MEASURES)[number], number>;

/** A group of sessions from its row; zeros when the period has none. */
function sessionGroupOf(r: SessionRow | undefined): SessionGroup {
  const reached = [r?.reached1, r?.reached2, r?.reached3, r?.reached4, r?.reached5].map((n) => n ?? 0);
  return {
    sessions: r?.sessions ?? 0,
    uniqueUsers: r?.users ?? 0,
    identifiedSessions: r?.identified ?? 0,
    sessionsWithTransition: r?.withTransition ?? 0,
    convertedSessions: reached[GOAL_STAGE - 1] ?? 0,
    bouncedSessions: r?.bounced ?? 0,
    averageDurationMs: r?.averageDurationMs ?? 0,
    reached,
  };
}

/** Groups of sessions by one dimension, most sessions first (then by value). */
const sessionGroupsBy = <R extends SessionRow>(rows: R[], valueIn: (r: R) => string) =>
  rows
    .map((r) => ({ value: valueIn(r), ...sessionGroupOf(r) }))
    .sort((x, y) => y.sessions - x.sessions || byText(x.value, y.value));

/**
 * The journey statistics, each declared once: what it reads and how. Every statistic takes only
 * the organization and the period; the session list is not one of them (it pages sessions).
 */
export const JOURNEY_PARTS = {
  /**
   * Totals and funnel over the period's sessions, and the same per platform and per UTM source
   * (each session counted once in each), with the period's event count.
   */
  sessionFigures: part(
    {
      all: sessionsBy([]),
      platforms: sessionsBy(['platform']),
      utmSources: sessionsBy(['utmSource']),
      events: grouping('events', [], ['count']),
    },
    (rows): SessionFigures => ({
      all: sessionGroupOf(rows.all[0]),
      events: rows.events[0]?.count ?? 0,
      platforms: sessionGroupsBy(rows.platforms, (r) => r.platform),
      utmSources: sessionGroupsBy(rows.utmSources, (r) => r.utmSource),
    }),
  ),

  /** Events, transitions and goal figures of the period, by their own time. */
  activityTotals: part(
    {
      eventTypes: grouping('events', ['eventType'], ['count']),
      transitions: grouping('transitions', [], ['count']),
      goals: grouping('goals', ['goalType', 'currency'], ['count', 'value']),
    },
    (rows): ActivityTotals => {
      const revenue = sumBy(
        rows.goals.filter((g) => g.currency !== ''),
        (g) => g.currency,
      );
      const goalTypes = sumBy(rows.goals, (g) => g.goalType);
      const eventTypes = rows.eventTypes.map((e) => ({ eventType: e.eventType, count: e.count }));
      return {
        events: eventTypes.reduce((a, e) => a + e.count, 0),
        transitions: rows.transitions[0]?.count ?? 0,
        goalCompletions: rows.goals.reduce((a, g) => a + g.count, 0),
        revenue: revenue.map((r) => ({ currency: r.key, totalRevenue: cents(r.value), goals: r.count })),
        goalTypes: goalTypes
          .slice(0, 20)
          .map((r) => ({ goalType: r.key || '(none)', count: r.count, value: cents(r.value) })),
        eventTypes: eventTypes.sort((x, y) => y.count - x.count || byText(x.eventType, y.eventType)).slice(0, 20),
      };
    },
  ),

  /** Every local day of the period: sessions started, users, events, transitions, goals. */
  daily: part(
    {
      sessions: grouping('sessions', ['day'], ['sessions', 'users']),
      events: grouping('events', ['day'], ['count']),
      transitions: grouping('transitions', ['day'], ['count']),
      goals: grouping('goals', ['day'], ['count']),
    },
    (rows, period): DailyRow[] => {
      const sessions = new Map(rows.sessions.map((r) => [r.day, r]));
      const count = (found: { day: string; count: number }[]) => new Map(found.map((r) => [r.day, r.count]));
      const [events, transitions, goals] = [count(rows.events), count(rows.transitions), count(rows.goals)];
      return period.days.map((date) => ({
        date,
        sessions: sessions.get(date)?.sessions ?? 0,
        uniqueUsers: sessions.get(date)?.users ?? 0,
        events: events.get(date) ?? 0,
        transitions: transitions.get(date) ?? 0,
        goalCompletions: goals.get(date) ?? 0,
      }));
    },
  ),

  /** Transitions of the period per path, most travelled first, and the sessions that made at least one. */
  transitionPaths: part(
    {
      total: grouping('transitions', [], ['count', 'sessions']),
      paths: grouping('transitions', ['fromPlatform', 'toPlatform'], ['count']),
    },
    (rows): TransitionPaths => ({
      total: rows.total[0]?.count ?? 0,
      sessions: rows.total[0]?.sessions ?? 0,
      paths: rows.paths
        .map((p) => ({ fromPlatform: p.fromPlatform, toPlatform: p.toPlatform, count: p.count }))
        .sort(byCountThenPath),
    }),
  ),

  /** Transitions per local day of the period and path (paths by platform names). */
  transitionTrend: part(
    { paths: grouping('transitions', ['day', 'fromPlatform', 'toPlatform'], ['count']) },
    (rows, period): { date: string; paths: PathCount[] }[] => {
      const byDay = new Map<string, PathCount[]>();
      for (const r of rows.paths) {
        let list = byDay.get(r.day);
        if (!list) byDay.set(r.day, (list = []));
        list.push({ fromPlatform: r.fromPlatform, toPlatform: r.toPlatform, count: r.count });
      }
      const byPath = (x: PathCount, y: PathCount) =>
        byText(x.fromPlatform, y.fromPlatform) || byText(x.toPlatform, y.toPlatform);
      return period.days.map((date) => ({ date, paths: (byDay.get(date) ?? []).sort(byPath) }));
    },
  ),
};

/** What the dashboard shows: session figures, activity totals, the daily series and the transition paths. */
const DASHBOARD = {
  figures: JOURNEY_PARTS.sessionFigures,
  activity: JOURNEY_PARTS.activityTotals,
  daily: JOURNEY_PARTS.daily,
  transitions: JOURNEY_PARTS.transitionPaths,
};

export function createJourneyStats(client: ClickHouseClient) {
  async function rows<T>(query: string, params: Params): Promise<T[]> {
    const result = await client.query({
      query,
      query_params: params,
      format: 'JSONEachRow',
      clickhouse_settings: SETTINGS,
    });
    return result.json<T>();
  }

  const paramsOf = (organizationId: number, period: StatsPeriod, extra: Params = {}): Params => ({
    org: organizationId,
    ...periodParams(period),
    ...extra,
  });

  /** Any statistics of the period, in one query that reads each table they need once. */
  async function figures<P extends Record<string, Part<unknown>>>(
    organizationId: number,
    period: StatsPeriod,
    parts: P,
  ): Promise<Results<P>> {
    const built = buildQuery(parts);
    return built.read(await rows<PassRow>(built.sql, paramsOf(organizationId, period)), period);
  }

  /** One statistic, answered alone. */
  const one =
    <T>(statistic: Part<T>) =>
    async (organizationId: number, period: StatsPeriod): Promise<T> =>
      (await figures(organizationId, period, { statistic })).statistic;

  return {
    figures,
    sessionFigures: one(JOURNEY_PARTS.sessionFigures),
    activityTotals: one(JOURNEY_PARTS.activityTotals),
    daily: one(JOURNEY_PARTS.daily),
    transitionPaths: one(JOURNEY_PARTS.transitionPaths),
    transitionTrend: one(JOURNEY_PARTS.transitionTrend),

    /** What the dashboard shows: the union of its statistics, one query. */
    dashboard: (organizationId: number, period: StatsPeriod) => figures(organizationId, period, DASHBOARD),

    async listSessions(
      organizationId: number,
      period: StatsPeriod,
      filter: { platform?: string | undefined; utmSource?: string | undefined; externalUserId?: string | undefined },
      page: { page: number; size: number },
    ): Promise<{ items: SessionListRow[]; total: number }> {
      const conditions = [
        filter.platform === undefined ? '' : 'platform = {platform:String}',
        filter.utmSource === undefined ? '' : 'utm_source = {utm:String}',
        filter.externalUserId === undefined ? '' : 'external_user_id = {user:String}',
      ].filter(Boolean);
      const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
      const params = paramsOf(organizationId, period, {
        platform: filter.platform ?? '',
        utm: filter.utmSource ?? '',
        user: filter.externalUserId ?? '',
        size: page.size,
        offset: page.page * page.size,
      });
      // The page first (sorting needs no aggregate state), then only its sessions counted, read by
      // their ids within the span of their starts: one query over the period's states took 8x as long for a year.
      const [pageRows, [count]] = await Promise.all([
        rows<{ session_id: string; started_ms: string }>(
          `SELECT session_id, toString(toUnixTimestamp64Milli(started_at)) AS started_ms
           FROM (${SESSIONS}) ${where}
           ORDER BY started_at DESC, session_id DESC
           LIMIT {size:UInt32} OFFSET {offset:UInt32}`,
          params,
        ),
        rows<{ n: string }>(`SELECT toString(count()) AS n FROM (${SESSIONS}) ${where}`, params),
      ]);
      const starts = pageRows.map((r) => Number(r.started_ms));
      const items =
        pageRows.length === 0
          ? []
          : await rows<Record<string, string>>(
              `SELECT session_id, platform, toString(toUnixTimestamp64Milli(started_at)) AS started_ms,
           toString(toUnixTimestamp64Milli(last_seen_at)) AS last_ms, external_user_id, utm_source, utm_medium, utm_campaign,
           toString(events) AS events, toString(transitions) AS transitions, toString(max_stage) AS max_stage, toString(goals) AS goals
         FROM (${PAGE_COUNTED})
         ORDER BY started_at DESC, session_id DESC`,
              { ...params, ids: pageRows.map((r) => r.session_id), lo: Math.min(...starts), hi: Math.max(...starts) },
            );
      const orNull = (v: string | undefined) => (v ? v : null);
      return {
        items: items.map((r) => ({
          sessionId: r.session_id!,
          platform: r.platform || 'UNKNOWN',
          startedAt: new Date(Number(r.started_ms)),
          lastActivityAt: new Date(Number(r.last_ms)),
          externalUserId: orNull(r.external_user_id),
          utmSource: orNull(r.utm_source),
          utmMedium: orNull(r.utm_medium),
          utmCampaign: orNull(r.utm_campaign),
          events: Number(r.events),
          transitions: Number(r.transitions),
          maxStage: Number(r.max_stage),
          goals: Number(r.goals),
        })),
        total: Number(count?.n ?? 0),
      };
    },
  };
}

export type JourneyStats = ReturnType<typeof createJourneyStats>;
