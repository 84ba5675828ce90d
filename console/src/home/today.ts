// Today's clicks against yesterday's by the same time of day, in a time zone, from the figures the
// organization's dashboard answers for the last 7 days: `daily` has today's total, and the
// weekday × hour `heatmap` has yesterday's hours (seven days ending today have seven weekdays, so a
// weekday's cells are one day's hours). Yesterday's current hour counts for the share of it gone by
// today, as an hour's clicks are the finest figure the dashboard gives.

export interface TodayFigures {
  today: number;
  /** Yesterday's clicks up to the same time of day (rounded). */
  yesterday: number;
  /** Percent change against yesterday, one decimal; null when yesterday had none by then. */
  change: number | null;
  /** The time of day compared, HH:MM in the zone. */
  until: string;
}

interface WeekFigures {
  daily: { date: string; count: number }[];
  heatmap: { weekday: number; hour: number; count: number }[];
}

/** The local date, hour and minute of an instant in a zone. */
function localClock(now: Date, timeZone: string): { date: string; hour: number; minute: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), minute: Number(parts.minute) };
}

/** The ISO weekday (1 = Monday … 7 = Sunday) of the day before a YYYY-MM-DD date. */
function weekdayBefore(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const day = new Date(Date.UTC(y!, m! - 1, d! - 1)).getUTCDay();
  return day === 0 ? 7 : day;
}

export function todayAgainstYesterday(week: WeekFigures, now: Date, timeZone: string): TodayFigures {
  const { date, hour, minute } = localClock(now, timeZone);
  const today = week.daily.find((day) => day.date === date)?.count ?? 0;
  const weekday = weekdayBefore(date);
  let sum = 0;
  for (const cell of week.heatmap) {
    if (cell.weekday !== weekday) continue;
    if (cell.hour < hour) sum += cell.count;
    else if (cell.hour === hour) sum += (cell.count * minute) / 60;
  }
  const yesterday = Math.round(sum);
  const change = yesterday === 0 ? null : Math.round(((today - yesterday) / yesterday) * 1000) / 10;
  const until = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
  return { today, yesterday, change, until };
}
