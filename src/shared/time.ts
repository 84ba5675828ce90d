// Time helpers shared by every layer. Everything is UTC unless a zone is passed explicitly.

/** First day of the UTC month of `at`, as YYYY-MM-01 (the key of monthly counters). */
export function utcMonthStart(at: Date): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** Midnight UTC on the first day of the month after `at`'s: when monthly counters start again. */
export const nextUtcMonthStart = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

export function secondsUntilNextUtcMonth(at: Date): number {
  return Math.ceil((nextUtcMonthStart(at).getTime() - at.getTime()) / 1000);
}

/** The custom-domain API's timestamp form yyyy-MM-dd'T'HH:mm, in UTC (minutes, no zone suffix). */
export const isoMinuteUtc = (d: Date) => d.toISOString().slice(0, 16);
