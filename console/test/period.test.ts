// The dashboards' period presets, counted in the chosen zone: "today" in Seoul can be tomorrow in
// UTC, and "this month" starts on the 1st of the zone's month.
import { describe, expect, it } from 'vitest';
import { periodQuery } from '../src/dashboard/period';

const choice = (preset: Parameters<typeof periodQuery>[0]['preset'], timeZone: string) => ({
  preset,
  from: '',
  to: '',
  timeZone,
});

describe('dashboard period', () => {
  it('counts the presets back from today in the chosen zone', () => {
    const now = new Date('2026-11-30T20:00:00Z'); // 1 December, 05:00 in Seoul
    expect(periodQuery(choice('today', 'UTC'), now)).toEqual({
      startDate: '2026-11-30',
      endDate: '2026-11-30',
      timeZone: 'UTC',
    });
    expect(periodQuery(choice('today', 'Asia/Seoul'), now)).toEqual({
      startDate: '2026-12-01',
      endDate: '2026-12-01',
      timeZone: 'Asia/Seoul',
    });
    expect(periodQuery(choice('7d', 'UTC'), now).startDate).toBe('2026-11-24');
    expect(periodQuery(choice('30d', 'UTC'), now).startDate).toBe('2026-11-01');
    expect(periodQuery(choice('90d', 'UTC'), now).startDate).toBe('2026-09-02');
    expect(periodQuery(choice('month', 'UTC'), now).startDate).toBe('2026-11-01');
    expect(periodQuery(choice('month', 'Asia/Seoul'), now)).toEqual({
      startDate: '2026-12-01',
      endDate: '2026-12-01',
      timeZone: 'Asia/Seoul',
    });
    expect(periodQuery({ preset: 'custom', from: '2026-10-01', to: '2026-10-31', timeZone: 'UTC' }, now)).toEqual({
      startDate: '2026-10-01',
      endDate: '2026-10-31',
      timeZone: 'UTC',
    });
  });
});
