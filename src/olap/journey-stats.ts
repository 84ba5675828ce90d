// User-journey statistics of one organization over a period (time-zone aware, like click
// statistics). Sessions come from journey_session_states, merged per session at read time: a
// session belongs to the period of its first activity, and its figures (events, transitions,
// highest funnel stage, goals) are idempotent aggregates, so redelivered or late events never
// count twice. Events, transitions and goals are counted by their own time, as distinct event ids.
import type { ClickHouseClient } from './clickhouse.js';
import { periodParams, type StatsPeriod } from './stats-period.js';

/** One row per session of the organization whose first activity falls in the period. */
const SESSIONS = `
  SELECT session_id, s_started AS started_at, s_last AS last_seen_at, s_platform AS platform,
    s_utm_source AS utm_source, s_utm_medium AS utm_medium, s_utm_campaign AS utm_campaign,
    s_user AS external_user_id, s_events AS events, s_transitions AS transitions, s_stage AS max_stage, s_goals AS goals
  FROM (
    SELECT session_id,
      min(first_seen) AS s_started,
      max(last_seen) AS s_last,
      max(platform) AS s_platform,
      max(utm_source) AS s_utm_source,
      max(utm_medium) AS s_utm_medium,
      max(utm_campaign) AS s_utm_campaign,
      argMaxMerge(external_user_id) AS s_user,
      uniqExactMerge(events) AS s_events,
      uniqExactMerge(transitions) AS s_transitions,
      max(max_stage) AS s_stage,
      uniqExactMerge(goals) AS s_goals
    FROM journey_session_states
    WHERE organization_id = {org:UInt64}
    GROUP BY session_id
    HAVING s_started >= {start:DateTime64(3, 'UTC')} AND s_started < {end:DateTime64(3, 'UTC')}
  )`;

const EVENT_WINDOW = `organization_id = {org:UInt64} AND ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')}`;

/** Goal completions of the period, one row per event id. */
const GOALS = `
  SELECT event_id, ts, goal_type, goal_value, currency, session_id
  FROM journey_funnel
  WHERE ${EVENT_WINDOW} AND stage = 'GOAL_COMPLETED'
  LIMIT 1 BY event_id`;

const GOAL_STAGE = 5;

export interface SessionsSummary {
  sessions: number;
  uniqueUsers: number;
  identifiedSessions: number;
  events: number;
  sessionsWithTransition: number;
  convertedSessions: number;
  bouncedSessions: number;
  averageDurationMs: number;
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

type Params = Record<string, unknown>;

export function createJourneyStats(client: ClickHouseClient) {
  async function rows<T>(query: string, params: Params): Promise<T[]> {
    const result = await client.query({ query, query_params: params, format: 'JSONEachRow' });
    return result.json<T>();
  }

  const paramsOf = (organizationId: number, period: StatsPeriod, extra: Params = {}): Params => ({
    org: organizationId,
    ...periodParams(period),
    ...extra,
  });

  return {
    async sessionsSummary(organizationId: number, period: StatsPeriod): Promise<SessionsSummary> {
      const [row] = await rows<Record<string, string>>(
        `SELECT toString(count()) AS sessions,
           toString(uniqExactIf(external_user_id, external_user_id != '')) AS users,
           toString(countIf(external_user_id != '')) AS identified,
           toString(sum(events)) AS event_total,
           toString(countIf(transitions > 0)) AS with_transition,
           toString(countIf(max_stage >= ${GOAL_STAGE})) AS converted,
           toString(countIf(events <= 1 AND transitions = 0 AND max_stage < ${GOAL_STAGE})) AS bounced,
           toString(if(count() = 0, 0, round(avg(dateDiff('millisecond', started_at, last_seen_at))))) AS avg_ms
         FROM (${SESSIONS})`,
        paramsOf(organizationId, period),
      );
      const n = (k: string) => Number(row?.[k] ?? 0);
      return {
        sessions: n('sessions'),
        uniqueUsers: n('users'),
        identifiedSessions: n('identified'),
        events: n('event_total'),
        sessionsWithTransition: n('with_transition'),
        convertedSessions: n('converted'),
        bouncedSessions: n('bounced'),
        averageDurationMs: n('avg_ms'),
      };
    },

    /** Sessions per platform (always WEB, IOS, ANDROID) with their converted sessions. */
    async byPlatform(organizationId: number, period: StatsPeriod): Promise<{ platform: string; sessions: number; converted: number; uniqueUsers: number }[]> {
      const found = await rows<{ platform: string; sessions: string; converted: string; users: string }>(
        `SELECT platform, toString(count()) AS sessions, toString(countIf(max_stage >= ${GOAL_STAGE})) AS converted,
           toString(uniqExactIf(external_user_id, external_user_id != '')) AS users
         FROM (${SESSIONS}) GROUP BY platform`,
        paramsOf(organizationId, period),
      );
      const byName = new Map(found.map((r) => [r.platform, r]));
      const out = ['WEB', 'IOS', 'ANDROID'].map((platform) => {
        const r = byName.get(platform);
        return { platform, sessions: Number(r?.sessions ?? 0), converted: Number(r?.converted ?? 0), uniqueUsers: Number(r?.users ?? 0) };
      });
      // Sessions whose start never arrived (events only) have no platform; they still count.
      const unknown = byName.get('');
      if (unknown) out.push({ platform: 'UNKNOWN', sessions: Number(unknown.sessions), converted: Number(unknown.converted), uniqueUsers: Number(unknown.users) });
      return out;
    },

    async byUtmSource(organizationId: number, period: StatsPeriod, limit: number): Promise<{ utmSource: string; sessions: number; converted: number }[]> {
      const found = await rows<{ source: string; sessions: string; converted: string }>(
        `SELECT utm_source AS source, toString(count()) AS sessions, toString(countIf(max_stage >= ${GOAL_STAGE})) AS converted
         FROM (${SESSIONS}) GROUP BY source ORDER BY count() DESC, source LIMIT {limit:UInt32}`,
        paramsOf(organizationId, period, { limit }),
      );
      return found.map((r) => ({ utmSource: r.source, sessions: Number(r.sessions), converted: Number(r.converted) }));
    },

    /** Sessions reaching each web funnel stage: a later stage implies the earlier ones. */
    async funnel(organizationId: number, period: StatsPeriod): Promise<{ sessions: number; reached: number[] }> {
      const [row] = await rows<Record<string, string>>(
        `SELECT toString(count()) AS sessions, ${[1, 2, 3, 4, 5].map((k) => `toString(countIf(max_stage >= ${k})) AS s${k}`).join(', ')}
         FROM (${SESSIONS})`,
        paramsOf(organizationId, period),
      );
      return { sessions: Number(row?.sessions ?? 0), reached: [1, 2, 3, 4, 5].map((k) => Number(row?.[`s${k}`] ?? 0)) };
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
      const [items, [count]] = await Promise.all([
        rows<Record<string, string>>(
          `SELECT session_id, platform, toString(toUnixTimestamp64Milli(started_at)) AS started_ms,
             toString(toUnixTimestamp64Milli(last_seen_at)) AS last_ms, external_user_id, utm_source, utm_medium, utm_campaign,
             toString(events) AS events, toString(transitions) AS transitions, toString(max_stage) AS max_stage, toString(goals) AS goals
           FROM (${SESSIONS}) ${where}
           ORDER BY started_at DESC, session_id DESC
           LIMIT {size:UInt32} OFFSET {offset:UInt32}`,
          params,
        ),
        rows<{ n: string }>(`SELECT toString(count()) AS n FROM (${SESSIONS}) ${where}`, params),
      ]);
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
        `(SELECT 'sessions' AS metric, toString(toDate(started_at, {tz:String})) AS day, toString(count()) AS c FROM (${SESSIONS}) GROUP BY day)
         UNION ALL
         (SELECT 'users' AS metric, toString(toDate(started_at, {tz:String})) AS day,
            toString(uniqExactIf(external_user_id, external_user_id != '')) AS c FROM (${SESSIONS}) GROUP BY day)
         UNION ALL
         (SELECT 'events' AS metric, toString(toDate(ts, {tz:String})) AS day, toString(uniqExact(event_id)) AS c
            FROM journey_events WHERE ${EVENT_WINDOW} GROUP BY day)
         UNION ALL
         (SELECT 'transitions' AS metric, toString(toDate(ts, {tz:String})) AS day, toString(uniqExact(event_id)) AS c
            FROM journey_transitions WHERE ${EVENT_WINDOW} GROUP BY day)
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

    /** Events, transitions and goal figures of the period (by their own time). */
    async activityTotals(organizationId: number, period: StatsPeriod): Promise<{
      events: number;
      transitions: number;
      goalCompletions: number;
      revenue: { currency: string; totalRevenue: number; goals: number }[];
      goalTypes: { goalType: string; count: number; value: number }[];
      eventTypes: { eventType: string; count: number }[];
    }> {
      const params = paramsOf(organizationId, period);
      const [totals, revenue, goalTypes, eventTypes] = await Promise.all([
        rows<Record<string, string>>(
          `SELECT
             (SELECT toString(uniqExact(event_id)) FROM journey_events WHERE ${EVENT_WINDOW}) AS events,
             (SELECT toString(uniqExact(event_id)) FROM journey_transitions WHERE ${EVENT_WINDOW}) AS transitions,
             (SELECT toString(count()) FROM (${GOALS})) AS goals`,
          params,
        ),
        rows<{ currency: string; revenue: string; goals: string }>(
          `SELECT toString(currency) AS currency, toString(round(sum(goal_value), 2)) AS revenue, toString(count()) AS goals
           FROM (${GOALS}) WHERE currency != '' GROUP BY currency ORDER BY count() DESC, currency`,
          params,
        ),
        rows<{ goal_type: string; c: string; v: string }>(
          `SELECT toString(goal_type) AS goal_type, toString(count()) AS c, toString(round(sum(goal_value), 2)) AS v
           FROM (${GOALS}) GROUP BY goal_type ORDER BY count() DESC, goal_type LIMIT 20`,
          params,
        ),
        rows<{ event_type: string; c: string }>(
          `SELECT toString(event_type) AS event_type, toString(uniqExact(event_id)) AS c
           FROM journey_events WHERE ${EVENT_WINDOW} GROUP BY event_type ORDER BY uniqExact(event_id) DESC, event_type LIMIT 20`,
          params,
        ),
      ]);
      const t = totals[0] ?? {};
      return {
        events: Number(t.events ?? 0),
        transitions: Number(t.transitions ?? 0),
        goalCompletions: Number(t.goals ?? 0),
        revenue: revenue.map((r) => ({ currency: r.currency, totalRevenue: Number(r.revenue), goals: Number(r.goals) })),
        goalTypes: goalTypes.map((r) => ({ goalType: r.goal_type || '(none)', count: Number(r.c), value: Number(r.v) })),
        eventTypes: eventTypes.map((r) => ({ eventType: r.event_type, count: Number(r.c) })),
      };
    },

    /** Transitions of the period per path, and the sessions that made at least one. */
    async transitionPaths(organizationId: number, period: StatsPeriod): Promise<{ total: number; sessions: number; paths: PathCount[] }> {
      const params = paramsOf(organizationId, period);
      const [paths, [totals]] = await Promise.all([
        rows<{ f: string; t: string; c: string }>(
          `SELECT toString(from_platform) AS f, toString(to_platform) AS t, toString(uniqExact(event_id)) AS c
           FROM journey_transitions WHERE ${EVENT_WINDOW} GROUP BY f, t ORDER BY uniqExact(event_id) DESC, f, t`,
          params,
        ),
        rows<{ total: string; sessions: string }>(
          `SELECT toString(uniqExact(event_id)) AS total, toString(uniqExact(session_id)) AS sessions
           FROM journey_transitions WHERE ${EVENT_WINDOW}`,
          params,
        ),
      ]);
      return {
        total: Number(totals?.total ?? 0),
        sessions: Number(totals?.sessions ?? 0),
        paths: paths.map((r) => ({ fromPlatform: r.f, toPlatform: r.t, count: Number(r.c) })),
      };
    },

    /** Transitions per local day and path. */
    async transitionTrend(organizationId: number, period: StatsPeriod): Promise<{ date: string; paths: PathCount[] }[]> {
      const found = await rows<{ day: string; f: string; t: string; c: string }>(
        `SELECT toString(toDate(ts, {tz:String})) AS day, toString(from_platform) AS f, toString(to_platform) AS t,
           toString(uniqExact(event_id)) AS c
         FROM journey_transitions WHERE ${EVENT_WINDOW} GROUP BY day, f, t ORDER BY day, f, t`,
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
