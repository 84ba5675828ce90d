// The dashboards' period: a preset or custom local dates, in a time zone (the browser's unless
// chosen), turned into the startDate, endDate and timeZone every statistics call takes.

export type Preset = 'today' | '7d' | '30d' | '90d' | 'month' | 'custom';

export interface PeriodChoice {
  preset: Preset;
  /** Custom dates, YYYY-MM-DD. */
  from: string;
  to: string;
  timeZone: string;
}

/** The local date of an instant in a zone, YYYY-MM-DD. */
function localDate(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}

function minusDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! - days)).toISOString().slice(0, 10);
}

/** The period's query parameters as of `now`. */
export function periodQuery(
  choice: PeriodChoice,
  now = new Date(),
): { startDate: string; endDate: string; timeZone: string } {
  const today = localDate(now, choice.timeZone);
  const span = { today: 0, '7d': 6, '30d': 29, '90d': 89 } as const;
  switch (choice.preset) {
    case 'month':
      return { startDate: `${today.slice(0, 8)}01`, endDate: today, timeZone: choice.timeZone };
    case 'custom':
      return { startDate: choice.from || today, endDate: choice.to || today, timeZone: choice.timeZone };
    default:
      return { startDate: minusDays(today, span[choice.preset]), endDate: today, timeZone: choice.timeZone };
  }
}

export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every zone the browser knows, the browser's own and UTC first. */
export function timeZones(): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([browserTimeZone(), 'UTC', ...all])];
}
