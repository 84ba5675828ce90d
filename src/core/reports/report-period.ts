// The periods of a report: the whole week (Monday to Sunday) or calendar month that starts on the
// date the round claimed, in the subscription's time zone, and the one just before it that its
// figures are compared with.
import { DateTime } from 'luxon';
import type { ReportFrequency } from '../../oltp/report-subscriptions.repo.js';

export interface LocalRange {
  startDate: string;
  endDate: string;
}

export function reportPeriods(
  frequency: ReportFrequency,
  periodStart: string,
): { current: LocalRange; previous: LocalRange } {
  const unit = frequency === 'weekly' ? { weeks: 1 } : { months: 1 };
  const start = DateTime.fromISO(periodStart, { zone: 'UTC' });
  const range = (from: DateTime): LocalRange => ({
    startDate: from.toISODate()!,
    endDate: from.plus(unit).minus({ days: 1 }).toISODate()!,
  });
  return { current: range(start), previous: range(start.minus(unit)) };
}
