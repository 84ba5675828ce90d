// The period a statistics request covers: inclusive local dates in the caller's time zone
// (default: the last 30 days ending today), clipped to the plan's data retention and to today,
// turned into one UTC range; a range wholly outside both is empty and says why. Local midnights are resolved once here (luxon), DST and +5:45 zones included.
import { DateTime } from 'luxon';
import { PLAN_LIMITS, type Plan } from '../../shared/plans.js';
import type { StatsPeriod } from '../../olap/query-period.js';
import { invalidField } from '../field-error.js';

export type { StatsPeriod };

/** What the caller asks for; every field optional. */
export interface PeriodInput {
  startDate?: string | undefined;
  endDate?: string | undefined;
  timeZone?: string | undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function parseDate(value: string, field: string, zone: string): DateTime {
  const date = DATE.test(value) ? DateTime.fromISO(value, { zone }) : undefined;
  if (!date?.isValid) throw invalidField(field, 'must be a date YYYY-MM-DD');
  return date.startOf('day');
}

function isTimeZone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}

export function resolvePeriod(input: PeriodInput & { retentionDays: number; now: Date }): StatsPeriod {
  const timeZone = input.timeZone ?? 'UTC';
  if (!isTimeZone(timeZone)) throw invalidField('timeZone', `${timeZone} is not a known IANA time zone`);
  const today = DateTime.fromJSDate(input.now, { zone: timeZone }).startOf('day');
  const requestedEnd = input.endDate ? parseDate(input.endDate, 'endDate', timeZone) : today;
  const requestedStart = input.startDate
    ? parseDate(input.startDate, 'startDate', timeZone)
    : requestedEnd.minus({ days: 29 });
  if (requestedStart > requestedEnd) throw invalidField('startDate', 'must not be after endDate');
  // Data older than the retention is gone; days after today have none yet. What is left is the
  // requested range clipped to [earliest, today], which may be nothing at all.
  const earliest = today.minus({ days: input.retentionDays - 1 });
  const start = DateTime.max(requestedStart, earliest);
  const end = DateTime.min(requestedEnd, today);
  const requested = { requestedStartDate: requestedStart.toISODate()!, requestedEndDate: requestedEnd.toISODate()! };
  if (start > end) {
    // An empty range is an empty UTC range at the requested start: every query finds nothing.
    const at = requestedStart.toUTC().toJSDate();
    return {
      timeZone,
      days: [],
      utcStart: at,
      utcEnd: at,
      retentionDays: input.retentionDays,
      ...requested,
      actualStartDate: null,
      actualEndDate: null,
      empty: requestedEnd < earliest ? 'before_retention' : 'after_today',
    };
  }
  const days: string[] = [];
  for (let d = start; d <= end; d = d.plus({ days: 1 })) days.push(d.toISODate()!);
  return {
    timeZone,
    days,
    utcStart: start.toUTC().toJSDate(),
    utcEnd: end.plus({ days: 1 }).toUTC().toJSDate(),
    retentionDays: input.retentionDays,
    ...requested,
    actualStartDate: start.toISODate()!,
    actualEndDate: end.toISODate()!,
    empty: null,
  };
}

/** The period as an organization on `plan` may see it: clamped to the plan's retention. */
export const periodForPlan = (plan: Plan, input: PeriodInput, now: Date): StatsPeriod =>
  resolvePeriod({ ...input, retentionDays: PLAN_LIMITS[plan].dataRetentionDays, now });

/** The as many local days just before the period, as a UTC range: what a comparison compares with. */
export function previousPeriod(period: StatsPeriod): { utcStart: Date; utcEnd: Date } {
  const start = DateTime.fromISO(period.actualStartDate ?? period.requestedStartDate, { zone: period.timeZone });
  const length = Math.max(period.days.length, 1);
  return { utcStart: start.minus({ days: length }).toUTC().toJSDate(), utcEnd: start.toUTC().toJSDate() };
}
