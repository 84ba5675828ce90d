// Which click rollup answers a period in a time zone. The 15-minute rollups (click_series_15m,
// click_dims_15m) are exact in every real zone: 15 minutes divide every UTC offset in use. The
// hourly ones (sql/clickhouse/0014) hold a quarter as many rows, and are exact when every UTC hour
// of the period lies within one local hour (so within one local day): the period starts and ends on
// a UTC hour and the zone's offset is a whole number of hours all through it (Asia/Seoul,
// America/New_York across DST; not Asia/Kolkata +5:30 or Asia/Kathmandu +5:45). Periods up to a
// week stay on 15 minutes: at most 672 buckets a link, already small.
import { DateTime } from 'luxon';

export interface ClickRollup {
  /** Clicks and visitor sketches per link and bucket. */
  series: 'click_series_15m' | 'click_series_1h';
  /** Clicks per link, bucket and dimension value. */
  dims: 'click_dims_15m' | 'click_dims_1h';
}

export const QUARTER_HOUR_ROLLUP: ClickRollup = { series: 'click_series_15m', dims: 'click_dims_15m' };
export const HOURLY_ROLLUP: ClickRollup = { series: 'click_series_1h', dims: 'click_dims_1h' };

export interface UtcWindow {
  utcStart: Date;
  utcEnd: Date;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Longer than a week of local days, DST days included. */
const HOURLY_BEYOND_MS = 7 * DAY_MS + HOUR_MS;

/**
 * Whether every UTC hour of the window lies within one local hour of `zone`. The offset is read at
 * the start, every 24 hours after and the end: it changes at most once within any day, so an offset
 * of part of an hour that holds for any time in the window shows at one of those instants.
 */
export function hourAligned(zone: string, window: UtcWindow): boolean {
  const start = window.utcStart.getTime();
  const end = window.utcEnd.getTime();
  if (start % HOUR_MS !== 0 || end % HOUR_MS !== 0) return false;
  for (let t = start; ; t = Math.min(t + DAY_MS, end)) {
    const offset = DateTime.fromMillis(t, { zone }).offset;
    if (!Number.isInteger(offset) || offset % 60 !== 0) return false;
    if (t >= end) return true;
  }
}

/**
 * Whether hourly buckets answer `period` (and any other window the same query reads, such as the
 * previous period of a comparison): when the period is longer than a week and every window is
 * hour-aligned in its zone. The rule of every rollup kept per 15 minutes and per hour.
 */
export function hourlyExact(period: UtcWindow & { timeZone: string }, others: UtcWindow[] = []): boolean {
  if (period.utcEnd.getTime() - period.utcStart.getTime() <= HOURLY_BEYOND_MS) return false;
  return [period, ...others].every((w) => hourAligned(period.timeZone, w));
}

/** The click rollup for `period` (and `others`): hourly where exact (hourlyExact), else 15-minute. */
export function clickRollupFor(period: UtcWindow & { timeZone: string }, others: UtcWindow[] = []): ClickRollup {
  return hourlyExact(period, others) ? HOURLY_ROLLUP : QUARTER_HOUR_ROLLUP;
}

/**
 * A window cut at UTC midnights for a rollup per UTC day (click_cids_1d): the whole UTC days
 * inside it, [daysFrom, daysTo), and the partial days at its ends, [utcStart, daysFrom) and
 * [daysTo, utcEnd), to read from 15-minute buckets. Exact in every zone, whatever its offset;
 * a window within one or two UTC days has no whole day (daysFrom = daysTo = utcEnd).
 * As query parameters in Unix seconds: {daysFrom:DateTime('UTC')} and {daysTo:DateTime('UTC')}.
 */
export function utcDaySplit(window: UtcWindow): { daysFrom: number; daysTo: number } {
  const start = window.utcStart.getTime();
  const end = window.utcEnd.getTime();
  const from = Math.ceil(start / DAY_MS) * DAY_MS;
  const to = Math.floor(end / DAY_MS) * DAY_MS;
  return from < to ? { daysFrom: from / 1000, daysTo: to / 1000 } : { daysFrom: end / 1000, daysTo: end / 1000 };
}
