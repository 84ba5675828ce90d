// How a figure changed against its previous value, in percent: what every comparison with the
// previous period shows (src/core/stats/comparison.ts), on the server and in the console alike.

/** Percent change from `previous` to `current`, one decimal; null when there was nothing before. */
export function percentChange(current: number, previous: number): number | null {
  return previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10;
}

/**
 * How a figure moved: up or down (with the percent), flat, `new` when the previous period had
 * none and this one has some, `none` when neither had any.
 */
export type Trend = 'up' | 'down' | 'flat' | 'new' | 'none';

export interface FigureChange {
  current: number;
  previous: number;
  /** Percent change, one decimal; null when the previous figure is 0 (trend `new` or `none`). */
  change: number | null;
  trend: Trend;
}

/** A figure against its previous period's, as every comparison shows it. */
export function compareFigure(current: number, previous: number): FigureChange {
  const change = percentChange(current, previous);
  const trend: Trend =
    change === null ? (current === 0 ? 'none' : 'new') : change > 0 ? 'up' : change < 0 ? 'down' : 'flat';
  return { current, previous, change, trend };
}
