// Time helpers shared by every layer. Everything is UTC unless a zone is passed explicitly.

/** First day of the UTC month of `at`, as YYYY-MM-01 (the key of monthly counters). */
export function utcMonthStart(at: Date): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

export function secondsUntilNextUtcMonth(at: Date): number {
  const next = Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
  return Math.ceil((next - at.getTime()) / 1000);
}

/** The custom-domain API's timestamp form yyyy-MM-dd'T'HH:mm, in UTC (minutes, no zone suffix). */
export const isoMinuteUtc = (d: Date) => d.toISOString().slice(0, 16);
