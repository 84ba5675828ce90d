// Comparison with the previous period: which period a statistic is compared with, and how a figure
// changed against it. The previous period has as many local days as the period, ends the day before
// it starts, in the same time zone (so a day is a local day on both sides, DST days included: 23 or
// 25 hours). A period that runs through today covers today so far, so its previous period stops at
// the same time of day on its last day (to the quarter hour, the rollups' finest bucket), as the
// console's home compares today with yesterday. Dashboards, reports and anything else that shows
// "against the previous period" use these functions, so every place says the same.
import { DateTime } from 'luxon';
import { compareFigure, type FigureChange } from '../../shared/figure-change.js';
import type { StatsPeriod } from './period.js';

export { compareFigure, type FigureChange, percentChange } from '../../shared/figure-change.js';

/**
 * Each row of a breakdown (countries, browsers, busiest links…) against its count in the previous
 * period, found by `key` among `previous` (that period's rows as key → count, every one of them);
 * a row the previous period lacks had none there: trend `new`.
 */
export function compareRows<T extends { count: number }>(
  rows: T[],
  key: (row: T) => string,
  previous: Iterable<[string, number]>,
): (T & { compared: FigureChange })[] {
  const before = new Map(previous);
  return rows.map((row) => ({ ...row, compared: compareFigure(row.count, before.get(key(row)) ?? 0) }));
}

/** Why a period has nothing to compare with: it is empty, or its previous period is older than the retention. */
export type NotComparable = 'empty_period' | 'before_retention';

export type ComparisonPeriod =
  | {
      comparable: true;
      /** The previous period, resolved as a statistics query reads a period. */
      period: StatsPeriod;
      /** Where the previous period stops early because the period runs through today; null when it is whole. */
      until: Date | null;
    }
  | { comparable: false; reason: NotComparable; startDate: string | null; endDate: string | null };

const QUARTER_HOUR = 15;

/**
 * The previous period of `period` (resolved, clipped to the retention) at `now`: as many local
 * days just before it in its zone, cut at today's time of day when the period ends today. Not
 * comparable when the period is empty or its previous period starts before the retention's first day.
 */
export function comparisonPeriod(period: StatsPeriod, now: Date): ComparisonPeriod {
  const { timeZone } = period;
  if (period.actualStartDate === null || period.days.length === 0)
    return { comparable: false, reason: 'empty_period', startDate: null, endDate: null };
  const start = DateTime.fromISO(period.actualStartDate, { zone: timeZone }).startOf('day');
  const first = start.minus({ days: period.days.length });
  const last = start.minus({ days: 1 });
  const dates = { startDate: first.toISODate()!, endDate: last.toISODate()! };
  const today = DateTime.fromJSDate(now, { zone: timeZone }).startOf('day');
  if (first < today.minus({ days: period.retentionDays - 1 }))
    return { comparable: false, reason: 'before_retention', ...dates };
  const days: string[] = [];
  for (let d = first; d <= last; d = d.plus({ days: 1 })) days.push(d.toISODate()!);
  let end = start;
  let until: Date | null = null;
  if (period.actualEndDate === today.toISODate()) {
    // Today so far against the same span of the previous period's last day: the same local time of day.
    const clock = DateTime.fromJSDate(now, { zone: timeZone });
    const cut = last.set({ hour: clock.hour, minute: clock.minute - (clock.minute % QUARTER_HOUR) });
    if (cut < end) {
      end = cut;
      until = cut.toUTC().toJSDate();
    }
  }
  return {
    comparable: true,
    until,
    period: {
      timeZone,
      days,
      utcStart: first.toUTC().toJSDate(),
      utcEnd: end.toUTC().toJSDate(),
      retentionDays: period.retentionDays,
      requestedStartDate: dates.startDate,
      requestedEndDate: dates.endDate,
      actualStartDate: dates.startDate,
      actualEndDate: dates.endDate,
      empty: null,
    },
  };
}

/** A statistic over a period and, when asked, over its previous period (read the same way). */
export interface WithPrevious<T> {
  current: T;
  /** null when no comparison was asked for; `stats` null when the periods cannot be compared. */
  previous: { comparison: ComparisonPeriod; stats: T | null } | null;
}

/** Reads a statistic over `period` and, when `compare`, over its previous period too, both at once. */
export async function readWithPrevious<T>(
  period: StatsPeriod,
  now: Date,
  compare: boolean,
  read: (period: StatsPeriod) => Promise<T>,
): Promise<WithPrevious<T>> {
  const comparison = compare ? comparisonPeriod(period, now) : null;
  const [current, stats] = await Promise.all([read(period), comparison?.comparable ? read(comparison.period) : null]);
  return { current, previous: comparison && { comparison, stats } };
}

/** What a comparison says about its previous period: its dates, where it stops early, and whether it compares. */
export function describeComparison(comparison: ComparisonPeriod) {
  return comparison.comparable
    ? {
        startDate: comparison.period.actualStartDate,
        endDate: comparison.period.actualEndDate,
        until: comparison.until,
        comparable: true,
        reason: null,
      }
    : {
        startDate: comparison.startDate,
        endDate: comparison.endDate,
        until: null,
        comparable: false,
        reason: comparison.reason,
      };
}
