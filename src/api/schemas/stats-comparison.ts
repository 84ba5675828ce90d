// The comparison with the previous period as the console's dashboards answer it (compare=previous):
// the query parameter, the previous period's dates and whether it compares, and a figure against
// its previous value. What is compared and how: src/core/stats/comparison.ts.
import { z } from 'zod';
import { type ComparisonPeriod, compareFigure, describeComparison } from '../../core/stats/comparison.js';
import type { MoreColumns } from '../csv-download.js';

export const compareQuery = z
  .enum(['previous', 'off'])
  .optional()
  .describe('previous: add the previous period of the same length, zone and filters (comparison); default off');

export const figureChangeSchema = z.object({
  current: z.number(),
  previous: z.number(),
  change: z.number().nullable().describe('percent change, one decimal; null when the previous figure is 0'),
  trend: z.enum(['up', 'down', 'flat', 'new', 'none']).describe('new: none before, some now; none: none in either'),
});

/** A list's rows against the previous period, in the list's order: each row's name and how it changed. */
export const comparedRowsSchema = z.array(z.object({ name: z.string(), compared: figureChangeSchema }));

export const comparisonPeriodSchema = z.object({
  startDate: z.string().nullable().describe("the previous period's first local date; null when the period is empty"),
  endDate: z.string().nullable(),
  until: z
    .string()
    .nullable()
    .describe('where the previous period stops (UTC) when the period runs through today: the same time of day'),
  comparable: z.boolean(),
  reason: z
    .enum(['empty_period', 'before_retention'])
    .nullable()
    .describe('why there is nothing to compare with: no period, or its previous period is older than the retention'),
});

/** The previous period's dates and whether it compares, as JSON. */
export function comparisonPeriodJson(comparison: ComparisonPeriod): z.infer<typeof comparisonPeriodSchema> {
  const described = describeComparison(comparison);
  return { ...described, until: described.until?.toISOString() ?? null };
}

/** A row's comparison cells: the previous figure, the change (empty when the previous is 0), the trend. */
const comparedCells = (c: z.infer<typeof figureChangeSchema> | null | undefined): (string | number)[] =>
  c ? [c.previous, c.change ?? '', c.trend] : ['', '', ''];

/**
 * A CSV's comparison columns for one figure (compare=previous; nothing when `compare` is false):
 * `previous<What>`, `change` (percent, one decimal; empty when the previous figure is 0) and
 * `trend`, and for days `previousDate` before them; cells empty when the periods cannot be compared.
 */
export function csvComparison(compare: boolean, what: string) {
  const head = compare ? [`previous${what}`, 'change', 'trend'] : [];
  return {
    head,
    /** A row's cells from its figure change. */
    cells: (c: z.infer<typeof figureChangeSchema> | null | undefined) => (compare ? comparedCells(c) : []),
    /** The columns of a list's rows against compared rows in the same order (for `fieldsCsv`). */
    rows: (rows: { compared: z.infer<typeof figureChangeSchema> }[] | undefined): MoreColumns => ({
      head,
      cells: (i) => (compare ? comparedCells(rows?.[i]?.compared) : []),
    }),
    /** The columns of days against the previous period's (`before`: the n-th with the n-th), their figure read by `of`. */
    days: <T extends { date: string }>(
      days: readonly T[],
      before: readonly T[],
      of: (t: T) => number,
    ): MoreColumns => ({
      head: compare ? ['previousDate', ...head] : [],
      cells: (i) => {
        const twin = before[i];
        return compare ? [twin?.date ?? '', ...comparedCells(twin && compareFigure(of(days[i]!), of(twin)))] : [];
      },
    }),
  };
}
