// The query model of user-journey statistics: what a statistic may read (the period's sessions,
// events, transitions and goals, each with a closed list of dimensions and measures), and the one
// builder that turns any set of statistics into one ClickHouse query. A statistic is declared once
// (journey-stats.ts) as a part: the groupings it reads and how it reads their rows. The builder
// reads each source once for every part asked for (its groupings become the grouping sets of one
// pass), so the dashboard, the union of the parts, costs no more passes than one endpoint's part.
//
// Sessions belong to the period they started in (their start is in their id, and the table is
// ordered by it, so a period reads its own sessions only); their figures are idempotent aggregates,
// so redelivered or late events never count twice. Events, transitions and goals are counted by
// their own time, each event id once: the raw tables replace a repeated event id, and FINAL reads
// them as if their parts were already merged. Local days are taken in the period's zone ({tz}).
import type { StatsPeriod } from './query-period.js';

const SESSION_WINDOW = `organization_id = {org:UInt64} AND started_at >= {start:DateTime64(3, 'UTC')} AND started_at < {end:DateTime64(3, 'UTC')}`;
const EVENT_WINDOW = `organization_id = {org:UInt64} AND ts >= {start:DateTime64(3, 'UTC')} AND ts < {end:DateTime64(3, 'UTC')}`;

/**
 * One row per session of the organization that started in the period (or as `where` selects).
 * FINAL merges a session's rows as the engine would: all rows of a session share its start, so they
 * share a partition and a key range, and months whose parts are already merged are read as they
 * are, without merging. Plain columns only: a session's distinct-event states are read for the
 * session list alone.
 */
export const sessionsWith = (counts: string, where = SESSION_WINDOW) => `
  SELECT session_id, started_at, first_seen AS first_seen_at, last_seen AS last_seen_at, platform, utm_source, utm_medium, utm_campaign,
    substring(latest_user, 16) AS external_user_id, max_stage, ${counts}
  FROM journey_sessions FINAL
  WHERE ${where}`;

export const SESSIONS = sessionsWith('event_hi = 0 OR event_lo = event_hi AS at_most_one_event, has_transition');

/**
 * FINAL never has to merge across partitions: the rows of one session share the month of its start,
 * and a redelivered event keeps its time, so its copies share the month of that. grouping(x) is 0
 * on the rows of a grouping set that groups by x (the SQL standard's meaning).
 */
export const SETTINGS = {
  do_not_merge_across_partitions_select_final: 1,
  force_grouping_standard_compatibility: 1,
} as const;

/** The highest web funnel stage, GOAL_COMPLETED: a session that reached it converted. */
export const GOAL_STAGE = 5;

/** Sessions that reached web funnel stage k or a later one, 1 CLICKED to 5 GOAL_COMPLETED. */
const REACHED = {
  reached1: 'countIf(max_stage >= 1)',
  reached2: 'countIf(max_stage >= 2)',
  reached3: 'countIf(max_stage >= 3)',
  reached4: 'countIf(max_stage >= 4)',
  reached5: `countIf(max_stage >= ${GOAL_STAGE})`,
};

const LOCAL_DAY = (column: string) => `toDate(${column}, {tz:String})`;

/** Rows of one table of the period, what they may be grouped by and what may be counted of them. */
interface Source {
  from: string;
  /** Name → SQL expression of a row, shown as text. */
  dimensions: Record<string, string>;
  /** Name → aggregate SQL over the rows of a group, a number. */
  measures: Record<string, string>;
}

/** The closed list of what statistics read: no request text ever reaches this SQL. */
const SOURCES = {
  sessions: {
    from: `(${SESSIONS})`,
    dimensions: { platform: 'platform', utmSource: 'utm_source', day: LOCAL_DAY('started_at') },
    measures: {
      sessions: 'count()',
      /**
       * Distinct identified users, counted by a 64-bit hash of the id rather than the text: half the
       * time of a year's dashboard at 2M sessions went to hashing the ids as text (a 128-bit hash
       * each) once per grouping. Exact unless two ids share a hash: about one chance in a million at
       * ten million distinct users.
       */
      users: "uniqExactIf(cityHash64(external_user_id), external_user_id != '')",
      identified: "countIf(external_user_id != '')",
      withTransition: 'countIf(has_transition = 1)',
      /** At most one event, no transition and no goal. */
      bounced: `countIf(at_most_one_event AND has_transition = 0 AND max_stage < ${GOAL_STAGE})`,
      // a set without sessions still has its row (the whole period's), where avg() is nan
      averageDurationMs: `if(count() = 0, 0, round(avg(dateDiff('millisecond', least(first_seen_at, started_at), last_seen_at))))`,
      ...REACHED,
    },
  },
  events: {
    from: `journey_events FINAL WHERE ${EVENT_WINDOW}`,
    dimensions: { eventType: 'event_type', day: LOCAL_DAY('ts') },
    measures: { count: 'count()' },
  },
  transitions: {
    from: `journey_transitions FINAL WHERE ${EVENT_WINDOW}`,
    dimensions: { fromPlatform: 'from_platform', toPlatform: 'to_platform', day: LOCAL_DAY('ts') },
    measures: { count: 'count()', sessions: 'uniqExact(session_id)' },
  },
  goals: {
    from: `journey_funnel FINAL WHERE ${EVENT_WINDOW} AND stage = 'GOAL_COMPLETED'`,
    dimensions: { goalType: 'goal_type', currency: 'currency', day: LOCAL_DAY('ts') },
    measures: { count: 'count()', value: 'sum(goal_value)' },
  },
} satisfies Record<string, Source>;

type Sources = typeof SOURCES;
export type SourceName = keyof Sources;
type DimensionOf<S extends SourceName> = keyof Sources[S]['dimensions'] & string;
type MeasureOf<S extends SourceName> = keyof Sources[S]['measures'] & string;

/** Rows of one source grouped by some of its dimensions, with some of its measures: a GROUP BY. */
export interface Grouping<S extends SourceName = SourceName, D extends string = string, M extends string = string> {
  source: S;
  by: readonly D[];
  measures: readonly M[];
}

/** A row of a grouping: its dimensions as text, its measures as numbers. */
export type RowOf<G> = G extends Grouping<SourceName, infer D, infer M> ? Record<D, string> & Record<M, number> : never;

export function grouping<S extends SourceName, const D extends DimensionOf<S>, const M extends MeasureOf<S>>(
  source: S,
  by: readonly D[],
  measures: readonly M[],
): Grouping<S, D, M> {
  return { source, by, measures };
}

/** One statistic: the groupings it reads and how it reads their rows into its result. */
export interface Part<T> {
  groupings: Record<string, Grouping>;
  read(rows: Record<string, Record<string, string | number>[]>, period: StatsPeriod): T;
}

type Rows<G extends Record<string, Grouping>> = { [K in keyof G]: RowOf<G[K]>[] };

export function part<const G extends Record<string, Grouping>, T>(
  groupings: G,
  read: (rows: Rows<G>, period: StatsPeriod) => T,
): Part<T> {
  return { groupings, read: read as Part<T>['read'] };
}

export type ResultOf<P> = P extends Part<infer T> ? T : never;
export type Results<P extends Record<string, Part<unknown>>> = { [K in keyof P]: ResultOf<P[K]> };

/** What one pass over a source computes: its grouping sets and the measures every group gets. */
export interface SourcePass {
  source: SourceName;
  /** The dimensions any set groups by, in the source's order: the row's `keys`. */
  dimensions: string[];
  /** Each set's dimensions, in the source's order; [] is the whole period. */
  sets: string[][];
  /** In the source's order: the row's `nums`. */
  measures: string[];
}

/** The label of a grouping set on the rows it gives. */
const setLabel = (source: string, set: readonly string[]) => `${source}(${set.join(',')})`;

/** `names` in the order they have in `all`, each once. */
const inOrderOf = (all: Record<string, string>, names: Iterable<string>) => {
  const wanted = new Set(names);
  return Object.keys(all).filter((name) => wanted.has(name));
};

/** The passes `parts` need: one per source read, with every grouping set and measure asked of it. */
export function planPasses(parts: Record<string, Part<unknown>>): SourcePass[] {
  const asked = Object.values(parts).flatMap((p) => Object.values(p.groupings));
  return (Object.keys(SOURCES) as SourceName[]).flatMap((source): SourcePass[] => {
    const of = asked.filter((g) => g.source === source);
    if (of.length === 0) return [];
    const { dimensions, measures } = SOURCES[source] as Source;
    const sets = new Map(
      of.map((g) => {
        const set = inOrderOf(dimensions, g.by);
        return [set.join(','), set] as const;
      }),
    );
    return [
      {
        source,
        dimensions: inOrderOf(
          dimensions,
          of.flatMap((g) => g.by),
        ),
        sets: [...sets.values()],
        measures: inOrderOf(
          measures,
          of.flatMap((g) => g.measures),
        ),
      },
    ];
  });
}

/**
 * One SELECT of a pass, in the shape every pass shares so that they form one UNION ALL: the set's
 * label, the row's dimensions as text and its measures as numbers (Float64: counts are exact up
 * to 2^53, goal values are Float64 already).
 */
function passSql({ source, dimensions, sets, measures }: SourcePass): string {
  const def = SOURCES[source] as Source;
  const key = (d: string) => `g_${d}`;
  const label =
    sets.length === 1
      ? `'${setLabel(source, sets[0]!)}'`
      : `multiIf(${sets
          .slice(0, -1)
          .map(
            (set) =>
              `${dimensions.map((d) => `grouping(${key(d)}) = ${set.includes(d) ? 0 : 1}`).join(' AND ')}, '${setLabel(source, set)}'`,
          )
          .join(', ')}, '${setLabel(source, sets.at(-1)!)}')`;
  const keys = dimensions.length
    ? `[${dimensions.map((d) => `toString(${key(d)})`).join(', ')}]`
    : 'emptyArrayString()';
  const nums = measures.length
    ? `[${measures.map((m) => `toFloat64(${def.measures[m]})`).join(', ')}]`
    : "CAST([], 'Array(Float64)')";
  const columns = dimensions.map((d) => `, ${def.dimensions[d]} AS ${key(d)}`).join('');
  const groupBy =
    sets.length > 1
      ? `GROUP BY GROUPING SETS (${sets.map((set) => `(${set.map(key).join(', ')})`).join(', ')})`
      : dimensions.length
        ? `GROUP BY ${dimensions.map(key).join(', ')}`
        : '';
  return `SELECT grouping_set, keys, nums FROM (
    SELECT ${label} AS grouping_set, ${keys} AS keys, ${nums} AS nums${columns}
    FROM ${def.from}
    ${groupBy})`;
}

/** A row of the built query. */
export interface PassRow {
  grouping_set: string;
  keys: string[];
  nums: number[];
}

export interface BuiltQuery<P extends Record<string, Part<unknown>>> {
  passes: SourcePass[];
  sql: string;
  /** The query's rows as each part's result. */
  read(rows: PassRow[], period: StatsPeriod): Results<P>;
}

/**
 * The one query that answers `parts`: a pass per source they read, as one UNION ALL (one round
 * trip). Parameters: {org}, {start}, {end}, {tz} (periodParams).
 */
export function buildQuery<P extends Record<string, Part<unknown>>>(parts: P): BuiltQuery<P> {
  const passes = planPasses(parts);
  const sql = passes.map((pass) => `(${passSql(pass)})`).join('\nUNION ALL\n');
  function read(rows: PassRow[], period: StatsPeriod): Results<P> {
    const bySet = new Map<string, PassRow[]>();
    for (const r of rows) {
      let list = bySet.get(r.grouping_set);
      if (!list) bySet.set(r.grouping_set, (list = []));
      list.push(r);
    }
    const rowsOf = (g: Grouping) => {
      const pass = passes.find((p) => p.source === g.source)!;
      const label = setLabel(g.source, inOrderOf(SOURCES[g.source].dimensions, g.by));
      return (bySet.get(label) ?? []).map((r) => {
        const row: Record<string, string | number> = {};
        for (const d of g.by) row[d] = r.keys[pass.dimensions.indexOf(d)] ?? '';
        for (const m of g.measures) row[m] = r.nums[pass.measures.indexOf(m)] ?? 0;
        return row;
      });
    };
    const results: Record<string, unknown> = {};
    for (const [name, p] of Object.entries(parts)) {
      const found = Object.fromEntries(Object.entries(p.groupings).map(([key, g]) => [key, rowsOf(g)]));
      results[name] = p.read(found, period);
    }
    return results as Results<P>;
  }
  return { passes, sql, read };
}
