// The journey query model without a database: which passes a set of statistics costs (one per table,
// whatever the statistics share), the SQL shape of a pass, how the rows of one query are handed to
// each statistic, and how each statistic reads its rows (zero-filled days, orders, money).
import { describe, expect, it } from 'vitest';
import { resolvePeriod } from '../../src/core/stats/period.js';
import { buildQuery, grouping, type Part, type PassRow, part, planPasses } from '../../src/olap/journey-query.js';
import { JOURNEY_PARTS } from '../../src/olap/journey-stats.queries.js';

const P = JOURNEY_PARTS;
const DASHBOARD = {
  figures: P.sessionFigures,
  activity: P.activityTotals,
  daily: P.daily,
  transitions: P.transitionPaths,
};
const period = resolvePeriod({
  startDate: '2025-03-08',
  endDate: '2025-03-10',
  timeZone: 'Asia/Seoul',
  retentionDays: 1825,
  now: new Date('2025-03-20T00:00:00Z'),
});

/** What the session figures compute of each group of sessions. */
const figureMeasures = planPasses({ figures: P.sessionFigures })[0]!.measures;

/** A pass as [source, sets, measures], the sets as their dimensions joined. */
const shapeOf = (parts: Record<string, Part<unknown>>) =>
  planPasses(parts).map((p) => [p.source, p.sets.map((s) => s.join('+')), p.measures]);

describe('journey query planner', () => {
  const cases: [string, Record<string, Part<unknown>>, ReturnType<typeof shapeOf>][] = [
    [
      'one statistic reads only its tables, with only the measures it asks for',
      { trend: P.transitionTrend },
      [['transitions', ['fromPlatform+toPlatform+day'], ['count']]],
    ],
    [
      'two groupings of one table share its pass, as two grouping sets',
      { paths: P.transitionPaths },
      [['transitions', ['', 'fromPlatform+toPlatform'], ['count', 'sessions']]],
    ],
    [
      'the same grouping asked twice is one grouping set; dimensions in any order name the same set',
      {
        a: part({ x: grouping('transitions', ['toPlatform', 'fromPlatform'], ['count']) }, () => 0),
        b: part({ y: grouping('transitions', ['fromPlatform', 'toPlatform'], ['sessions']) }, () => 0),
      },
      [['transitions', ['fromPlatform+toPlatform'], ['count', 'sessions']]],
    ],
    [
      'the dashboard reads each table once: sessions, events, transitions and goals',
      DASHBOARD,
      [
        // the daily series asks sessions and users of each day: measures the figures compute anyway
        ['sessions', ['', 'platform', 'utmSource', 'day'], figureMeasures],
        ['events', ['', 'eventType', 'day'], ['count']],
        ['transitions', ['', 'day', 'fromPlatform+toPlatform'], ['count', 'sessions']],
        ['goals', ['goalType+currency', 'day'], ['count', 'value']],
      ],
    ],
    [
      'every statistic at once still reads each table once',
      { ...DASHBOARD, trend: P.transitionTrend },
      [
        ['sessions', ['', 'platform', 'utmSource', 'day'], expect.any(Array)],
        ['events', ['', 'eventType', 'day'], ['count']],
        ['transitions', ['', 'day', 'fromPlatform+toPlatform', 'fromPlatform+toPlatform+day'], ['count', 'sessions']],
        ['goals', ['goalType+currency', 'day'], ['count', 'value']],
      ],
    ],
  ];
  for (const [name, parts, expected] of cases) {
    it(name, () => expect(shapeOf(parts)).toEqual(expected));
  }

  it('writes one SELECT per table into one UNION ALL, GROUPING SETS only where a table has several', () => {
    const tables = (sql: string) => sql.match(/FROM journey_\w+ FINAL/g);
    const dashboard = buildQuery(DASHBOARD).sql;
    expect(tables(dashboard)).toEqual([
      'FROM journey_sessions FINAL',
      'FROM journey_events FINAL',
      'FROM journey_transitions FINAL',
      'FROM journey_funnel FINAL',
    ]);
    expect(dashboard.match(/UNION ALL/g)).toHaveLength(3);
    expect(dashboard.match(/GROUPING SETS/g)).toHaveLength(4);
    const trend = buildQuery({ trend: P.transitionTrend }).sql;
    expect(trend).not.toMatch(/GROUPING SETS|multiIf|UNION/);
    expect(trend).toMatch(/GROUP BY g_fromPlatform, g_toPlatform, g_day\b/);
    const total = buildQuery({ t: part({ t: grouping('events', [], ['count']) }, (r) => r.t) }).sql;
    expect(total).not.toMatch(/GROUP BY/);
  });
});

describe('journey query rows', () => {
  it("hands each statistic the rows of its own grouping sets, named by its dimensions and measures; '' is a value", () => {
    const q = buildQuery({
      paths: P.transitionPaths,
      counts: part({ byTo: grouping('transitions', ['toPlatform'], ['sessions']) }, (rows) => rows.byTo),
    });
    // The pass's dimensions are fromPlatform, toPlatform; its measures count, sessions.
    const rows: PassRow[] = [
      { grouping_set: 'transitions()', keys: ['', ''], nums: [7, 4] },
      { grouping_set: 'transitions(fromPlatform,toPlatform)', keys: ['WEB', 'IOS'], nums: [5, 3] },
      { grouping_set: 'transitions(fromPlatform,toPlatform)', keys: ['', 'WEB'], nums: [2, 1] },
      { grouping_set: 'transitions(toPlatform)', keys: ['', 'IOS'], nums: [5, 3] },
    ];
    expect(q.read(rows, period)).toEqual({
      paths: {
        total: 7,
        sessions: 4,
        paths: [
          { fromPlatform: 'WEB', toPlatform: 'IOS', count: 5 },
          { fromPlatform: '', toPlatform: 'WEB', count: 2 },
        ],
      },
      counts: [{ toPlatform: 'IOS', sessions: 3 }],
    });
  });

  it('answers zeros, every day and empty lists when the query has no rows', () => {
    const q = buildQuery({ ...DASHBOARD, trend: P.transitionTrend });
    const answer = q.read([], period);
    const { reached, ...counts } = answer.figures.all;
    expect([...Object.values(counts), ...reached]).toEqual(Array(12).fill(0));
    expect([answer.figures.events, answer.figures.platforms, answer.figures.utmSources]).toEqual([0, [], []]);
    expect(answer.daily.map((d) => d.date)).toEqual(['2025-03-08', '2025-03-09', '2025-03-10']);
    expect(
      answer.daily.every((d) => d.sessions + d.uniqueUsers + d.events + d.transitions + d.goalCompletions === 0),
    ).toBe(true);
    expect(answer.trend).toEqual(period.days.map((date) => ({ date, paths: [] })));
    expect(answer.activity).toEqual({
      events: 0,
      transitions: 0,
      goalCompletions: 0,
      revenue: [],
      goalTypes: [],
      eventTypes: [],
    });
  });
});

describe('how each journey statistic reads its rows', () => {
  const read = <T>(statistic: Part<T>, rows: PassRow[]) => buildQuery({ statistic }).read(rows, period).statistic;

  it('session groups: the goal stage is conversion; most sessions first, then by value in byte order', () => {
    const row = (set: string, keys: string[], sessions: number) => ({
      grouping_set: set,
      keys,
      nums: [sessions, 1, 2, 3, 4, 5, sessions, 9, 8, 7, 6],
    });
    const figures = read(P.sessionFigures, [
      row('sessions()', ['', ''], 30),
      row('sessions(platform)', ['WEB', ''], 10),
      row('sessions(platform)', ['IOS', ''], 10),
      row('sessions(platform)', ['', ''], 10),
      row('sessions(utmSource)', ['', 'naver'], 20),
      row('sessions(utmSource)', ['', ''], 10),
      { grouping_set: 'events()', keys: [], nums: [99] },
    ]);
    expect(figures.all).toEqual({
      sessions: 30,
      uniqueUsers: 1,
      identifiedSessions: 2,
      sessionsWithTransition: 3,
      bouncedSessions: 4,
      averageDurationMs: 5,
      convertedSessions: 6,
      reached: [30, 9, 8, 7, 6],
    });
    expect(figures.events).toBe(99);
    expect(figures.platforms.map((p) => p.value)).toEqual(['', 'IOS', 'WEB']);
    expect(figures.utmSources.map((p) => [p.value, p.sessions])).toEqual([
      ['naver', 20],
      ['', 10],
    ]);
  });

  it('activity: money per currency rounded to cents (none without a currency), goal types named, top 20 event types', () => {
    const activity = read(P.activityTotals, [
      ...Array.from({ length: 22 }, (_, i) => ({
        grouping_set: 'events(eventType)',
        keys: [`type-${String(i).padStart(2, '0')}`],
        nums: [i % 3],
      })),
      { grouping_set: 'transitions()', keys: [], nums: [4] },
      { grouping_set: 'goals(goalType,currency)', keys: ['purchase', 'USD'], nums: [2, 10.006] },
      { grouping_set: 'goals(goalType,currency)', keys: ['purchase', 'KRW'], nums: [1, 39000] },
      { grouping_set: 'goals(goalType,currency)', keys: ['', ''], nums: [2, 0] },
    ]);
    expect(activity).toEqual({
      events: 21,
      transitions: 4,
      goalCompletions: 5,
      revenue: [
        { currency: 'USD', totalRevenue: 10.01, goals: 2 },
        { currency: 'KRW', totalRevenue: 39000, goals: 1 },
      ],
      goalTypes: [
        { goalType: 'purchase', count: 3, value: 39010.01 },
        { goalType: '(none)', count: 2, value: 0 },
      ],
      eventTypes: expect.any(Array),
    });
    expect(activity.eventTypes).toHaveLength(20);
    expect(activity.eventTypes.slice(0, 3)).toEqual([
      { eventType: 'type-02', count: 2 },
      { eventType: 'type-05', count: 2 },
      { eventType: 'type-08', count: 2 },
    ]);
  });

  it('daily: every date of the period, sessions by their start and the rest by their own day', () => {
    const daily = read(P.daily, [
      { grouping_set: 'sessions(day)', keys: ['2025-03-09'], nums: [3, 2] },
      { grouping_set: 'events(day)', keys: ['2025-03-08'], nums: [5] },
      { grouping_set: 'transitions(day)', keys: ['2025-03-10'], nums: [1] },
      { grouping_set: 'goals(day)', keys: ['2025-03-09'], nums: [4] },
    ]);
    expect(daily).toEqual([
      { date: '2025-03-08', sessions: 0, uniqueUsers: 0, events: 5, transitions: 0, goalCompletions: 0 },
      { date: '2025-03-09', sessions: 3, uniqueUsers: 2, events: 0, transitions: 0, goalCompletions: 4 },
      { date: '2025-03-10', sessions: 0, uniqueUsers: 0, events: 0, transitions: 1, goalCompletions: 0 },
    ]);
  });

  it('transition trend: every date, its paths by platform names whatever order the rows come in', () => {
    const trend = read(P.transitionTrend, [
      { grouping_set: 'transitions(fromPlatform,toPlatform,day)', keys: ['WEB', 'IOS', '2025-03-09'], nums: [1] },
      { grouping_set: 'transitions(fromPlatform,toPlatform,day)', keys: ['IOS', 'WEB', '2025-03-09'], nums: [5] },
      { grouping_set: 'transitions(fromPlatform,toPlatform,day)', keys: ['ANDROID', 'WEB', '2025-03-09'], nums: [2] },
    ]);
    expect(trend.map((d) => d.paths.map((p) => `${p.fromPlatform}>${p.toPlatform}:${p.count}`))).toEqual([
      [],
      ['ANDROID>WEB:2', 'IOS>WEB:5', 'WEB>IOS:1'],
      [],
    ]);
  });
});
