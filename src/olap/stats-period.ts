// The period a statistics request covers: inclusive local dates in the request's time zone
// (default: the last 30 days ending today), clamped to the plan's data retention, turned into one
// UTC range. Local midnights are resolved once here (luxon), DST and +5:45 zones included.
import { DateTime } from 'luxon';
import { invalid } from '../shared/errors.js';

export interface StatsPeriod {
  timeZone: string;
  /** Every local date of the period, YYYY-MM-DD, in order (empty when retention leaves none). */
  days: string[];
  /** First instant of the first day and first instant after the last day, UTC. */
  utcStart: Date;
  utcEnd: Date;
  retentionDays: number;
  actualStartDate: string;
  actualEndDate: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function parseDate(value: string, field: string, zone: string): DateTime {
  const date = DATE.test(value) ? DateTime.fromISO(value, { zone }) : undefined;
  if (!date?.isValid) throw invalid('VALIDATION_FAILED', `query.${field}: must be a date YYYY-MM-DD`);
  return date.startOf('day');
}

export function isTimeZone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}

export function resolvePeriod(input: {
  startDate?: string | undefined;
  endDate?: string | undefined;
  timeZone?: string | undefined;
  retentionDays: number;
  now: Date;
}): StatsPeriod {
  const timeZone = input.timeZone ?? 'UTC';
  if (!isTimeZone(timeZone)) throw invalid('VALIDATION_FAILED', `query.timeZone: ${timeZone} is not a known IANA time zone`);
  const today = DateTime.fromJSDate(input.now, { zone: timeZone }).startOf('day');
  let end = input.endDate ? parseDate(input.endDate, 'endDate', timeZone) : today;
  let start = input.startDate ? parseDate(input.startDate, 'startDate', timeZone) : end.minus({ days: 29 });
  if (start > end) throw invalid('VALIDATION_FAILED', 'query.startDate: must not be after endDate');
  // Data older than the retention is gone; days after today have none yet.
  const earliest = today.minus({ days: input.retentionDays - 1 });
  if (start < earliest) start = earliest;
  if (end > today) end = today;
  const days: string[] = [];
  for (let d = start; d <= end; d = d.plus({ days: 1 })) days.push(d.toISODate()!);
  return {
    timeZone,
    days,
    utcStart: start.toUTC().toJSDate(),
    utcEnd: (end < start ? start : end.plus({ days: 1 })).toUTC().toJSDate(),
    retentionDays: input.retentionDays,
    actualStartDate: start.toISODate()!,
    actualEndDate: (end < start ? start : end).toISODate()!,
  };
}
