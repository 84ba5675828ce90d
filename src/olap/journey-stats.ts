// User-journey statistics of one organization over a period (time-zone aware, like click
// statistics). Sessions come from journey_sessions, merged per session at read time: a session
// belongs to the period it started in (its start is in its id, and the table is ordered by it, so a
// period reads its own sessions only), and its figures (events, transitions, highest funnel stage,
// goals) are idempotent aggregates, so redelivered or late events never count twice. Events,
// transitions and goals are counted by their own time, each event id once: the raw tables replace
// a repeated event id, and FINAL reads them as if their parts were already merged.
import type { ClickHouseClient } from './clickhouse.js';
import { periodParams, type StatsPeriod } from './stats-period.js';

const SESSION_WINDOW = `organization_id = {org:UInt64} AND started_at >= {start:DateTime64(3, 'UTC')} AND started_at < {end:DateTime64(3, 'UTC')}`;
const EVENT_WINDOW = `organization_id = {org:UInt64} AND ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')}`;

/**
 * One row per session of the organization that started in the period. FINAL merges a session's
 * rows as the engine would: all rows of a session share its start, so they share a partition and a
 * key range, and months whose parts are already merged are read as they are, without merging.
 * Plain columns only: a session's distinct-event states are read for the session list alone.
 */
const sessionsWith = (counts: string, where = SESSION_WINDOW) => `
  SELECT session_id, started_at, first_seen AS first_seen_at, last_seen AS last_seen_at, platform, utm_source, utm_medium, utm_campaign,
    substring(latest_user, 16) AS external_user_id, max_stage, ${counts}
  FROM journey_sessions FINAL
  WHERE ${where}`;

const SESSIONS = sessionsWith('event_hi = 0 OR event_lo = event_hi AS at_most_one_event, has_transition');

/**
 * Given sessions (a page of them) with their distinct events, transitions and goals counted, which
 * is costly: their ids and the span of their starts bound the read to the key range they lie in.
 */
const PAGE_COUNTED = sessionsWith(
  'finalizeAggregation(events) AS events, finalizeAggregation(transitions) AS transitions, finalizeAggregation(goals) AS goals',
  `organization_id = {org:UInt64} AND started_at BETWEEN fromUnixTimestamp64Milli({lo:Int64}, 'UTC') AND fromUnixTimestamp64Milli({hi:Int64}, 'UTC')
    AND session_id IN {ids:Array(String)}`,
);

/**
 * FINAL never has to merge across partitions: the rows of one session share the month of its start,
 * and a redelivered event keeps its time, so its copies share the month of that.
 */
const SETTINGS = { do_not_merge_across_partitions_select_final: 1, force_grouping_standard_compatibility: 1 } as const;

/** Goal completions of the period, one row per event id. */
const GOALS = `
  SELECT event_id, ts, goal_type, goal_value, currency, session_id
  FROM journey_funnel FINAL
  WHERE ${EVENT_WINDOW} AND stage = 'GOAL_COMPLETED'`;

/**
 * Distinct identified users, counted by a 64-bit hash of the id rather than the text: half the
 * time of a year's dashboard at 2M sessions went to hashing the ids as text (a 128-bit hash each)
 * once per grouping. Exact unless two ids share a hash: about one chance in a million at ten
 * million distinct users.
 */
const USERS = "uniqExactIf(cityHash64(external_user_id), external_user_id != '')";

const GOAL_STAGE = 5;

const STAGES = [1, 2, 3, 4, 5];

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

/**
 * The figures of the period's sessions per group, in one aggregation of them: all sessions, per
 * platform, per UTM source and, when asked, per local day of their start. Grouping sets, not an
 * ARRAY JOIN copying each session once per grouping: the same groups at a fraction of the cost.
 * grouping(x) is 0 on the rows of a set that groups by x (the standard's meaning, set in SETTINGS).
 */
const sessionGroups = (withDays: boolean, extra = '') => `
  SELECT multiIf(grouping(platform) = 0, 'platform', grouping(utm_source) = 0, 'utm_source', ${withDays ? "grouping(day) = 0, 'day', " : ''}'all') AS dimension,
    multiIf(dimension = 'platform', platform, dimension = 'utm_source', utm_source, dimension = 'day', day, '') AS value,
    ${withDays ? 'toString(toDate(started_at, {tz:String}))' : "''"} AS day,
    toString(count()) AS sessions,
    toString(${USERS}) AS users,
    toString(countIf(external_user_id != '')) AS identified,
    toString(countIf(has_transition = 1)) AS with_transition,
    toString(countIf(at_most_one_event AND has_transition = 0 AND max_stage < ${GOAL_STAGE})) AS bounced,
    -- the whole period's set has a row even without sessions, where avg() is nan
    toString(if(count() = 0, 0, round(avg(dateDiff('millisecond', least(first_seen_at, started_at), last_seen_at))))) AS avg_ms,
    ${STAGES.map((k) => `toString(countIf(max_stage >= ${k})) AS s${k}`).join(', ')}${extra}
  FROM (${SESSIONS})
  GROUP BY GROUPING SETS ((), (platform), (utm_source)${withDays ? ', (day)' : ''})`;

/** sessionGroups rows as the period's groups: all sessions, per platform, per UTM source. */
function figuresOf(found: Record<string, string>[]): Omit<SessionFigures, 'events'> {
  const figures = (r: Record<string, string> | undefined): SessionGroup => {
    const n = (k: string) => Number(r?.[k] ?? 0);
    return {
      sessions: n('sessions'),
      uniqueUsers: n('users'),
      identifiedSessions: n('identified'),
      sessionsWithTransition: n('with_transition'),
      convertedSessions: n(`s${GOAL_STAGE}`),
      bouncedSessions: n('bounced'),
      averageDurationMs: n('avg_ms'),
      reached: STAGES.map((k) => n(`s${k}`)),
    };
  };
  const of = (dimension: string) =>
    found
      .filter((r) => r.dimension === dimension)
      .map((r) => ({ value: r.value ?? '', ...figures(r) }))
      .sort((x, y) => y.sessions - x.sessions || byText(x.value, y.value));
  return {
    all: figures(found.find((r) => r.dimension === 'all')),
    platforms: of('platform'),
    utmSources: of('utm_source'),
  };
}

/** The activity totals from the period's events per type, its transitions and its goals per type and currency. */
function activityOf(
  events: { eventType: string; count: number }[],
  transitions: number,
  goals: { goalType: string; currency: string; count: number; value: number }[],
): ActivityTotals {
  const revenue = sumBy(
    goals.filter((g) => g.currency !== ''),
    (g) => g.currency,
  );
  const goalTypes = sumBy(goals, (g) => g.goalType);
  return {
    events: events.reduce((a, e) => a + e.count, 0),
    transitions,
    goalCompletions: goals.reduce((a, g) => a + g.count, 0),
    revenue: revenue.map((r) => ({ currency: r.key, totalRevenue: cents(r.value), goals: r.count })),
    goalTypes: goalTypes
      .slice(0, 20)
      .map((r) => ({ goalType: r.key || '(none)', count: r.count, value: cents(r.value) })),
    eventTypes: [...events].sort((x, y) => y.count - x.count || byText(x.eventType, y.eventType)).slice(0, 20),
  };
}

/** Transition paths, most travelled first. */
function pathsOf(total: number, sessions: number, paths: PathCount[]): TransitionPaths {
  const sorted = [...paths].sort(
    (x, y) => y.count - x.count || byText(x.fromPlatform, y.fromPlatform) || byText(x.toPlatform, y.toPlatform),
  );
  return { total, sessions, paths: sorted };
}

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

  return {
    /**
     * Every figure of the period's sessions in one pass: totals and funnel over all of them, and the
     * same per platform and per UTM source (each session counted once in each of the three); with
     * the period's event count.
     */
    async sessionFigures(organizationId: number, period: StatsPeriod): Promise<SessionFigures> {
      const found = await rows<Record<string, string>>(
        sessionGroups(
          false,
          `, toString((SELECT count() FROM journey_events FINAL WHERE ${EVENT_WINDOW})) AS period_events`,
        ),
        paramsOf(organizationId, period),
      );
      return { ...figuresOf(found), events: Number(found.find((r) => r.dimension === 'all')?.period_events ?? 0) };
    },

    /**
     * What the dashboard shows (session figures, activity totals, the daily series and the
     * transition paths), reading each table once instead of once per statistic: two queries, the
     * period's sessions in one and its events, transitions and goals in the other. Every figure is
     * the one the statistic's own query gives (the same rows, counted under more groupings at once).
     */
    async dashboard(
      organizationId: number,
      period: StatsPeriod,
    ): Promise<{
      figures: SessionFigures;
      activity: ActivityTotals;
      daily: DailyRow[];
      transitions: TransitionPaths;
    }> {
      const params = paramsOf(organizationId, period);
      const [sessions, activity] = await Promise.all([
        rows<Record<string, string>>(sessionGroups(true), params),
        // Events, the big table, in one pass: per type and day, added up per type and per day here
        // (whole numbers, so exactly). Transitions and goals are far fewer: their period figures
        // (distinct sessions, sums of money) come from a pass of their own, as in their statistics.
        rows<{ kind: string; k1: string; k2: string; day: string; c: string; v: number; s: string }>(
          `SELECT 'event' AS kind, toString(event_type) AS k1, '' AS k2, toString(toDate(ts, {tz:String})) AS day,
             toString(count()) AS c, toFloat64(0) AS v, '0' AS s
             FROM journey_events FINAL WHERE ${EVENT_WINDOW} GROUP BY k1, day
           UNION ALL
           SELECT 'path' AS kind, toString(from_platform) AS k1, toString(to_platform) AS k2, toString(toDate(ts, {tz:String})) AS day,
             toString(count()) AS c, toFloat64(0) AS v, '0' AS s
             FROM journey_transitions FINAL WHERE ${EVENT_WINDOW} GROUP BY k1, k2, day
           UNION ALL
           SELECT 'transitions' AS kind, '' AS k1, '' AS k2, '' AS day, toString(count()) AS c, toFloat64(0) AS v, toString(uniqExact(session_id)) AS s
             FROM journey_transitions FINAL WHERE ${EVENT_WINDOW}
           UNION ALL
           SELECT 'goal' AS kind, toString(goal_type) AS k1, toString(currency) AS k2, '' AS day, toString(count()) AS c, sum(goal_value) AS v, '0' AS s
             FROM (${GOALS}) GROUP BY k1, k2
           UNION ALL
           SELECT 'goal_day' AS kind, '' AS k1, '' AS k2, toString(toDate(ts, {tz:String})) AS day, toString(count()) AS c, toFloat64(0) AS v, '0' AS s
             FROM (${GOALS}) GROUP BY day`,
          params,
        ),
      ]);
      const of = (kind: string) => activity.filter((r) => r.kind === kind);
      /** Counts of `kind` added up per key. */
      const sumOf = <K>(kind: string, keyOf: (r: { k1: string; k2: string; day: string }) => K) => {
        const sums = new Map<K, number>();
        for (const r of of(kind)) sums.set(keyOf(r), (sums.get(keyOf(r)) ?? 0) + Number(r.c));
        return sums;
      };
      const eventTypes = [...sumOf('event', (r) => r.k1)].map(([eventType, count]) => ({ eventType, count }));
      const paths = [...sumOf('path', (r) => `${r.k1} ${r.k2}`)].map(([key, count]) => {
        const [fromPlatform = '', toPlatform = ''] = key.split(' ');
        return { fromPlatform, toPlatform, count };
      });
      const transitionRow = of('transitions')[0];
      const figures = { ...figuresOf(sessions), events: eventTypes.reduce((a, e) => a + e.count, 0) };
      const days = new Map(sessions.filter((r) => r.dimension === 'day').map((r) => [r.value ?? '', r]));
      const [eventDays, transitionDays, goalDays] = [
        sumOf('event', (r) => r.day),
        sumOf('path', (r) => r.day),
        sumOf('goal_day', (r) => r.day),
      ];
      return {
        figures,
        activity: activityOf(
          eventTypes,
          Number(transitionRow?.c ?? 0),
          of('goal').map((r) => ({ goalType: r.k1, currency: r.k2, count: Number(r.c), value: Number(r.v) })),
        ),
        daily: period.days.map((date) => ({
          date,
          sessions: Number(days.get(date)?.sessions ?? 0),
          uniqueUsers: Number(days.get(date)?.users ?? 0),
          events: eventDays.get(date) ?? 0,
          transitions: transitionDays.get(date) ?? 0,
          goalCompletions: goalDays.get(date) ?? 0,
        })),
        transitions: pathsOf(Number(transitionRow?.c ?? 0), Number(transitionRow?.s ?? 0), paths),
      };
    },

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

    /** Every local day of the period: sessions started, users, events, transitions, goals. */
    async daily(organizationId: number, period: StatsPeriod): Promise<DailyRow[]> {
      const found = await rows<{ metric: string; day: string; c: string }>(
        `(SELECT pair.1 AS metric, day, pair.2 AS c
            FROM (SELECT toString(toDate(started_at, {tz:String})) AS day, toString(count()) AS sessions,
                    toString(${USERS}) AS users
                  FROM (${SESSIONS}) GROUP BY day)
            ARRAY JOIN [('sessions', sessions), ('users', users)] AS pair)
         UNION ALL
         (SELECT 'events' AS metric, toString(toDate(ts, {tz:String})) AS day, toString(count()) AS c
            FROM journey_events FINAL WHERE ${EVENT_WINDOW} GROUP BY day)
         UNION ALL
         (SELECT 'transitions' AS metric, toString(toDate(ts, {tz:String})) AS day, toString(count()) AS c
            FROM journey_transitions FINAL WHERE ${EVENT_WINDOW} GROUP BY day)
         UNION ALL
         (SELECT 'goals' AS metric, toString(toDate(ts, {tz:String})) AS day, toString(count()) AS c FROM (${GOALS}) GROUP BY day)`,
        paramsOf(organizationId, period),
      );
      const get = new Map(found.map((r) => [`${r.metric}/${r.day}`, Number(r.c)]));
      return period.days.map((date) => ({
        date,
        sessions: get.get(`sessions/${date}`) ?? 0,
        uniqueUsers: get.get(`users/${date}`) ?? 0,
        events: get.get(`events/${date}`) ?? 0,
        transitions: get.get(`transitions/${date}`) ?? 0,
        goalCompletions: get.get(`goals/${date}`) ?? 0,
      }));
    },

    /** Events, transitions and goal figures of the period (by their own time), in one pass over each table. */
    async activityTotals(organizationId: number, period: StatsPeriod): Promise<ActivityTotals> {
      const found = await rows<{ kind: string; k1: string; k2: string; c: string; v: number }>(
        `SELECT 'event' AS kind, toString(event_type) AS k1, '' AS k2, toString(count()) AS c, toFloat64(0) AS v
           FROM journey_events FINAL WHERE ${EVENT_WINDOW} GROUP BY k1
         UNION ALL
         SELECT 'transition' AS kind, '' AS k1, '' AS k2, toString(count()) AS c, toFloat64(0) AS v
           FROM journey_transitions FINAL WHERE ${EVENT_WINDOW}
         UNION ALL
         SELECT 'goal' AS kind, toString(goal_type) AS k1, toString(currency) AS k2, toString(count()) AS c, sum(goal_value) AS v
           FROM journey_funnel FINAL WHERE ${EVENT_WINDOW} AND stage = 'GOAL_COMPLETED' GROUP BY k1, k2`,
        paramsOf(organizationId, period),
      );
      return activityOf(
        found.filter((r) => r.kind === 'event').map((r) => ({ eventType: r.k1, count: Number(r.c) })),
        Number(found.find((r) => r.kind === 'transition')?.c ?? 0),
        found
          .filter((r) => r.kind === 'goal')
          .map((r) => ({ goalType: r.k1, currency: r.k2, count: Number(r.c), value: Number(r.v) })),
      );
    },

    /** Transitions of the period per path, and the sessions that made at least one: one pass. */
    async transitionPaths(organizationId: number, period: StatsPeriod): Promise<TransitionPaths> {
      const [row] = await rows<{ total: string; sessions: string; paths: [string[], string[]] }>(
        `SELECT toString(count()) AS total, toString(uniqExact(session_id)) AS sessions,
           sumMap([concat(toString(from_platform), ' ', toString(to_platform))], [toUInt64(1)]) AS paths
         FROM journey_transitions FINAL WHERE ${EVENT_WINDOW}`,
        paramsOf(organizationId, period),
      );
      const [keys = [], counts = []] = row?.paths ?? [];
      const paths = keys.map((key, i) => {
        const [fromPlatform = '', toPlatform = ''] = key.split(' ');
        return { fromPlatform, toPlatform, count: Number(counts[i]) };
      });
      return pathsOf(Number(row?.total ?? 0), Number(row?.sessions ?? 0), paths);
    },

    /** Transitions per local day and path. */
    async transitionTrend(
      organizationId: number,
      period: StatsPeriod,
    ): Promise<{ date: string; paths: PathCount[] }[]> {
      const found = await rows<{ day: string; f: string; t: string; c: string }>(
        `SELECT toString(toDate(ts, {tz:String})) AS day, toString(from_platform) AS f, toString(to_platform) AS t,
           toString(count()) AS c
         FROM journey_transitions FINAL WHERE ${EVENT_WINDOW} GROUP BY day, f, t ORDER BY day, f, t`,
        paramsOf(organizationId, period),
      );
      const byDay = new Map<string, PathCount[]>();
      for (const r of found) {
        let list = byDay.get(r.day);
        if (!list) byDay.set(r.day, (list = []));
        list.push({ fromPlatform: r.f, toPlatform: r.t, count: Number(r.c) });
      }
      return period.days.map((date) => ({ date, paths: byDay.get(date) ?? [] }));
    },
  };
}

export type JourneyStats = ReturnType<typeof createJourneyStats>;
