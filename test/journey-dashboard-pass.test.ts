// The journey statistics come from one query model (src/olap/journey-query.ts): a query of several
// statistics reads each table once, their groupings merged into grouping sets. On seeded journeys,
// with late and repeated events, in Asia/Seoul and Asia/Kathmandu (+5:45) over a year and a month:
// every union of statistics (the dashboard is one) answers each exactly as it answers alone, and
// the figures are what the raw rows of the period say, counted here in plain TypeScript.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedJourney } from '../bench/seed-journey.js';
import { resolvePeriod, type StatsPeriod } from '../src/core/stats/period.js';
import { createClickhouse, type Clickhouse } from '../src/olap/clickhouse.js';
import type { Part } from '../src/olap/journey-query.js';
import { createJourneyStats, JOURNEY_PARTS } from '../src/olap/journey-stats.queries.js';
import { migrateClickhouse } from '../src/olap/clickhouse-migrations.js';
import { createLogger } from '../src/shared/logger.js';

const log = createLogger({ level: 'warn', pretty: false });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-journey-model-'));
const ORG = 3;
const now = new Date();
let ch: Clickhouse;

beforeAll(async () => {
  ch = await createClickhouse({ url: undefined, database: 'journey_model', dataDir, log });
  await migrateClickhouse(ch.client, log);
  await seedJourney({ clickhouse: ch } as Parameters<typeof seedJourney>[0], ORG, 20_000);
  // After the merge: a repeated event id, a late event of an old session, an identified user and
  // a goal, all unmerged, as a running server has them between merges.
  const [old] = await (
    await ch.client.query({
      query:
        'SELECT session_id, toString(ts) AS at FROM journey_events WHERE ts > now() - INTERVAL 20 DAY ORDER BY ts LIMIT 1',
      format: 'JSONEachRow',
    })
  ).json<{ session_id: string; at: string }>();
  const [repeated] = await (
    await ch.client.query({ query: 'SELECT * FROM journey_events ORDER BY ts DESC LIMIT 1', format: 'JSONEachRow' })
  ).json<Record<string, unknown>>();
  await ch.client.insert({ table: 'journey_events', values: [repeated], format: 'JSONEachRow' });
  await ch.client.insert({
    table: 'journey_events',
    values: [
      {
        event_id: crypto.randomUUID(),
        ts: old!.at,
        organization_id: ORG,
        app_id: 1,
        session_id: old!.session_id,
        platform: 'WEB',
        event_type: 'late',
        properties: '{}',
        external_user_id: 'late-user',
      },
    ],
    format: 'JSONEachRow',
  });
  await ch.client.insert({
    table: 'journey_funnel',
    values: [
      {
        event_id: crypto.randomUUID(),
        ts: old!.at,
        organization_id: ORG,
        app_id: 1,
        session_id: old!.session_id,
        platform: 'WEB',
        stage: 'GOAL_COMPLETED',
        goal_type: 'purchase',
        goal_value: 12.5,
        currency: 'EUR',
      },
    ],
    format: 'JSONEachRow',
  });
  // One user in two sessions of one day: the day's users are fewer than its identified sessions.
  const at = now.getTime() - 2 * 86_400_000;
  await ch.client.insert({
    table: 'journey_session_starts',
    values: [1, 2].map((n) => ({
      event_id: crypto.randomUUID(),
      ts: new Date(at + n).toISOString().replace('T', ' ').replace('Z', ''),
      organization_id: ORG,
      app_id: 1,
      session_id: sessionIdAt(at + n, n),
      platform: 'IOS',
      external_user_id: 'twice-user',
      utm_source: 'kakao',
    })),
    format: 'JSONEachRow',
  });
});

/** A session id as the service issues it: a UUIDv7 carrying the session's start. */
function sessionIdAt(ms: number, n: number): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7000-9000-${String(n).padStart(12, '0')}`;
}

afterAll(async () => {
  await ch?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString().slice(0, 10);

type PartName = keyof typeof JOURNEY_PARTS;
const NAMES = Object.keys(JOURNEY_PARTS) as PartName[];

/**
 * The unions a query can merge: every pair of statistics (each grouping of one next to each of
 * another, in one pass per table) and all of them at once.
 */
const unions = [...NAMES.flatMap((a, i) => NAMES.slice(i + 1).map((b) => [a, b])), NAMES];

const partsOf = (names: PartName[]) =>
  Object.fromEntries(names.map((name) => [name, JOURNEY_PARTS[name]])) as Record<string, Part<unknown>>;

async function rowsOf<T>(query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  return (await ch.client.query({ query, query_params: { org: ORG, ...params }, format: 'JSONEachRow' })).json<T>();
}

/** The period's figures from its raw rows, counted one by one: sessions by their start, the rest by their own time. */
async function countedByHand(period: StatsPeriod) {
  const local = new Intl.DateTimeFormat('en-CA', {
    timeZone: period.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  /** The rows of `table` in the period, each with its local day. */
  const inPeriod = async <T extends { at: string }>(table: string, columns: string, where = '') =>
    (
      await rowsOf<T>(
        `SELECT toString(toUnixTimestamp64Milli(${table === 'journey_sessions' ? 'started_at' : 'ts'})) AS at, ${columns}
         FROM ${table} FINAL WHERE organization_id = {org:UInt64} ${where}`,
      )
    )
      .filter((r) => Number(r.at) >= period.utcStart.getTime() && Number(r.at) < period.utcEnd.getTime())
      .map((r) => ({ ...r, day: local.format(Number(r.at)) }));
  const count = <T>(items: T[], keyOf: (item: T) => string, by = (_: T) => 1) => {
    const counts: Record<string, number> = {};
    for (const item of items) counts[keyOf(item)] = (counts[keyOf(item)] ?? 0) + by(item);
    return counts;
  };
  const sessions = await inPeriod<{
    at: string;
    platform: string;
    utm: string;
    user: string;
    stage: number;
    moved: number;
  }>(
    'journey_sessions',
    'platform, utm_source AS utm, substring(latest_user, 16) AS user, max_stage AS stage, has_transition AS moved',
  );
  const events = await inPeriod<{ at: string; type: string }>('journey_events', 'toString(event_type) AS type');
  const transitions = await inPeriod<{ at: string; session_id: string; path: string }>(
    'journey_transitions',
    "session_id, concat(from_platform, ' ', to_platform) AS path",
  );
  const goals = await inPeriod<{ at: string; currency: string; value: number }>(
    'journey_funnel',
    'toString(currency) AS currency, goal_value AS value',
    "AND stage = 'GOAL_COMPLETED'",
  );
  const users = (list: typeof sessions) => new Set(list.filter((s) => s.user !== '').map((s) => s.user)).size;
  const sessionsOn = new Map<string, typeof sessions>();
  for (const s of sessions) {
    let list = sessionsOn.get(s.day);
    if (!list) sessionsOn.set(s.day, (list = []));
    list.push(s);
  }
  const perDay = (rows: { day: string }[]) => count(rows, (r) => r.day);
  const [eventDays, transitionDays, goalDays] = [perDay(events), perDay(transitions), perDay(goals)];
  return {
    sessions: sessions.length,
    users: users(sessions),
    identified: sessions.filter((s) => s.user !== '').length,
    withTransition: sessions.filter((s) => s.moved === 1).length,
    reached: [1, 2, 3, 4, 5].map((k) => sessions.filter((s) => s.stage >= k).length),
    platforms: count(sessions, (s) => s.platform),
    utmSources: count(sessions, (s) => s.utm),
    events: count(events, (e) => e.type),
    transitions: transitions.length,
    movers: new Set(transitions.map((t) => t.session_id)).size,
    paths: count(transitions, (t) => t.path),
    goals: count(goals, (g) => g.currency),
    revenue: count(
      goals,
      (g) => g.currency,
      (g) => g.value,
    ),
    daily: period.days.map((date) => ({
      date,
      sessions: sessionsOn.get(date)?.length ?? 0,
      uniqueUsers: users(sessionsOn.get(date) ?? []),
      events: eventDays[date] ?? 0,
      transitions: transitionDays[date] ?? 0,
      goalCompletions: goalDays[date] ?? 0,
    })),
  };
}

describe('journey statistics from one query model', () => {
  it('an organization without sessions: zeros, not a missing average', async () => {
    const period = resolvePeriod({ startDate: daysAgo(6), timeZone: 'Asia/Kathmandu', retentionDays: 1825, now });
    const stats = createJourneyStats(ch.client);
    const empty = {
      sessions: 0,
      uniqueUsers: 0,
      identifiedSessions: 0,
      sessionsWithTransition: 0,
      convertedSessions: 0,
      bouncedSessions: 0,
      averageDurationMs: 0,
      reached: [0, 0, 0, 0, 0],
    };
    expect((await stats.sessionFigures(ORG + 1, period)).all).toEqual(empty);
    expect((await stats.dashboard(ORG + 1, period)).figures.all).toEqual(empty);
  });

  for (const timeZone of ['Asia/Seoul', 'Asia/Kathmandu']) {
    for (const startDate of [daysAgo(364), daysAgo(29)]) {
      it(`${timeZone} from ${startDate}: each of the ${unions.length} unions of statistics answers each as it answers alone`, async () => {
        const period = resolvePeriod({ startDate, timeZone, retentionDays: 1825, now });
        const stats = createJourneyStats(ch.client);
        const alone: Record<string, unknown> = {};
        for (const name of NAMES) alone[name] = (await stats.figures(ORG, period, partsOf([name])))[name];
        for (const names of unions) {
          expect(await stats.figures(ORG, period, partsOf(names)), names.join(' + ')).toEqual(
            Object.fromEntries(names.map((name) => [name, alone[name]])),
          );
        }
        expect(await stats.dashboard(ORG, period)).toEqual({
          figures: alone.sessionFigures,
          activity: alone.activityTotals,
          daily: alone.daily,
          transitions: alone.transitionPaths,
        });
      });

      it(`${timeZone} from ${startDate}: the dashboard's figures are what the period's raw rows say`, async () => {
        const period = resolvePeriod({ startDate, timeZone, retentionDays: 1825, now });
        const [answer, trend] = await Promise.all([
          createJourneyStats(ch.client).dashboard(ORG, period),
          createJourneyStats(ch.client).transitionTrend(ORG, period),
        ]);
        const hand = await countedByHand(period);
        expect(hand.sessions).toBeGreaterThan(100);
        expect(hand.transitions).toBeGreaterThan(0);
        expect(Object.keys(hand.revenue).length).toBeGreaterThan(1);
        const { all } = answer.figures;
        expect([
          all.sessions,
          all.uniqueUsers,
          all.identifiedSessions,
          all.sessionsWithTransition,
          all.reached,
        ]).toEqual([hand.sessions, hand.users, hand.identified, hand.withTransition, hand.reached]);
        const byValue = (groups: { value: string; sessions: number }[]) =>
          Object.fromEntries(groups.map((g) => [g.value, g.sessions]));
        expect(byValue(answer.figures.platforms)).toEqual(hand.platforms);
        expect(byValue(answer.figures.utmSources)).toEqual(hand.utmSources);
        const events = Object.values(hand.events).reduce((a, n) => a + n, 0);
        expect([answer.figures.events, answer.activity.events]).toEqual([events, events]);
        expect(Object.fromEntries(answer.activity.eventTypes.map((e) => [e.eventType, e.count]))).toEqual(hand.events);
        expect(answer.daily).toEqual(hand.daily);
        expect([answer.transitions.total, answer.transitions.sessions]).toEqual([hand.transitions, hand.movers]);
        const paths = (list: { fromPlatform: string; toPlatform: string; count: number }[]) =>
          Object.fromEntries(list.map((p) => [`${p.fromPlatform} ${p.toPlatform}`, p.count]));
        expect(paths(answer.transitions.paths)).toEqual(hand.paths);
        const trendPaths: Record<string, number> = {};
        for (const p of trend.flatMap((d) => d.paths)) {
          const key = `${p.fromPlatform} ${p.toPlatform}`;
          trendPaths[key] = (trendPaths[key] ?? 0) + p.count;
        }
        expect(trendPaths).toEqual(hand.paths);
        expect(trend.map((d) => d.date)).toEqual(period.days);
        expect(Object.fromEntries(answer.activity.revenue.map((r) => [r.currency, [r.goals, r.totalRevenue]]))).toEqual(
          Object.fromEntries(
            Object.entries(hand.goals)
              .filter(([currency]) => currency !== '')
              .map(([currency, n]) => [currency, [n, Math.round(hand.revenue[currency]! * 100) / 100]]),
          ),
        );
      });
    }
  }
});
