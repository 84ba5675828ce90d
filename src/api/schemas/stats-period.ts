// What every statistics endpoint shares at the edge: the period query (startDate, endDate,
// timeZone), the meta block that says what the period covered, and the top-list item.
import { z } from 'zod';
import type { StatsPeriod } from '../../core/stats/period.js';
import { fromRequestPart } from './field-errors.js';

export const periodQuery = {
  startDate: z.string().optional().describe('YYYY-MM-DD, inclusive, local to timeZone; default 29 days before endDate'),
  endDate: z.string().optional().describe('YYYY-MM-DD, inclusive; default today'),
  timeZone: z
    .string()
    .max(64)
    .optional()
    .describe('IANA zone name, default UTC (accepted on every statistics endpoint)'),
};

const metaSchemaNamed = (id: string, timeZone: z.ZodString) =>
  z
    .object({
      dataRetentionDays: z.number().int(),
      actualStartDate: z
        .string()
        .nullable()
        .describe(
          'first local date covered: the requested start clipped to the retention window; null when nothing of the requested range is left (see empty)',
        ),
      actualEndDate: z
        .string()
        .nullable()
        .describe('last local date covered: the requested end clipped to today; null when nothing is left'),
      requestedStartDate: z.string().describe('the start asked for (or defaulted), before clipping (extension)'),
      requestedEndDate: z.string().describe('the end asked for (or defaulted), before clipping (extension)'),
      empty: z
        .boolean()
        .describe(
          'true when no day of the requested range is inside the retention window and up to today: every figure is zero (extension)',
        ),
      emptyReason: z
        .enum(['before_retention', 'after_today'])
        .nullable()
        .describe(
          'before_retention: the whole range is older than dataRetentionDays; after_today: it starts after today; null when not empty (extension)',
        ),
      timeZone,
    })
    .meta({ id });

/** The meta block of the Service API's statistics and of the user-journey statistics. */
export const statsMetaSchema = metaSchemaNamed(
  'StatsMeta',
  z.string().describe('IANA zone the dates and hours are in (extension)'),
);
export const journeyStatsMetaSchema = metaSchemaNamed('JourneyStatsMeta', z.string());

export function meta(period: StatsPeriod) {
  return {
    dataRetentionDays: period.retentionDays,
    actualStartDate: period.actualStartDate,
    actualEndDate: period.actualEndDate,
    requestedStartDate: period.requestedStartDate,
    requestedEndDate: period.requestedEndDate,
    empty: period.empty !== null,
    emptyReason: period.empty,
    timeZone: period.timeZone,
  };
}

/** The dates of a period or its meta block joined by `separator`: those covered, else those asked for (an empty period). */
export function periodSpan(
  p: Pick<StatsPeriod, 'actualStartDate' | 'actualEndDate' | 'requestedStartDate' | 'requestedEndDate'>,
  separator: string,
): string {
  return `${p.actualStartDate ?? p.requestedStartDate}${separator}${p.actualEndDate ?? p.requestedEndDate}`;
}

export const topItem = z
  .object({
    name: z.string(),
    count: z.number().int(),
    percentage: z.number().describe("percent of the period's clicks"),
  })
  .meta({ id: 'TopItem' });

export const HOUR_LABELS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);

/** A statistics call whose period came from the query string: a bad period is named as a query field. */
export const withPeriodQuery = <T>(work: Promise<T>): Promise<T> => fromRequestPart('query', work);
