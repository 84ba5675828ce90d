// The previous period a statistic is compared with, and how a figure changed against it: local days
// of the same zone (a DST day is 23 or 25 hours on either side), today so far against the same
// time of day, nothing to compare when the previous period is older than the retention.
import { describe, expect, it } from 'vitest';
import { compareFigure, compareRows, comparisonPeriod, percentChange } from '../../src/core/stats/comparison.js';
import { resolvePeriod } from '../../src/core/stats/period.js';

const previousOf = (input: Parameters<typeof resolvePeriod>[0]) => comparisonPeriod(resolvePeriod(input), input.now);

describe('comparison with the previous period', () => {
  it('words a change in percent, one decimal, and says new or none when nothing came before', () => {
    expect(percentChange(6, 2)).toBe(200);
    expect(percentChange(2, 3)).toBe(-33.3);
    expect(percentChange(5, 0)).toBeNull();
    expect(compareFigure(6, 2)).toEqual({ current: 6, previous: 2, change: 200, trend: 'up' });
    expect(compareFigure(1, 4).trend).toBe('down');
    expect(compareFigure(4, 4)).toEqual({ current: 4, previous: 4, change: 0, trend: 'flat' });
    expect(compareFigure(3, 0)).toEqual({ current: 3, previous: 0, change: null, trend: 'new' });
    expect(compareFigure(0, 0).trend).toBe('none');
  });

  it('compares each row of a breakdown with the same row of the previous period, new when it had none there', () => {
    const rows = [
      { name: 'JP', count: 6 },
      { name: 'KR', count: 3 },
      { name: 'US', count: 1 },
    ];
    const before: [string, number][] = [
      ['KR', 4],
      ['JP', 4],
      ['DE', 9],
    ];
    expect(compareRows(rows, (r) => r.name, before)).toEqual([
      { name: 'JP', count: 6, compared: { current: 6, previous: 4, change: 50, trend: 'up' } },
      { name: 'KR', count: 3, compared: { current: 3, previous: 4, change: -25, trend: 'down' } },
      { name: 'US', count: 1, compared: { current: 1, previous: 0, change: null, trend: 'new' } },
    ]);
  });

  it('spring-forward: a week in New York after the change compares with the week holding the 23-hour day, local midnight to local midnight', () => {
    // 2026-03-08 is the 23-hour day in America/New_York (EST −5 until 02:00, then EDT −4).
    const previous = previousOf({
      startDate: '2026-03-15',
      endDate: '2026-03-21',
      timeZone: 'America/New_York',
      retentionDays: 1825,
      now: new Date('2026-11-28T12:00:00Z'),
    });
    expect(previous.comparable).toBe(true);
    if (!previous.comparable) return;
    expect(previous.period.days).toEqual([
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
      '2026-03-13',
      '2026-03-14',
    ]);
    expect(previous.period.utcStart.toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(previous.period.utcEnd.toISOString()).toBe('2026-03-15T04:00:00.000Z');
    // Six 24-hour days and one of 23: an hour shorter than the week it is compared with is not.
    expect(previous.period.utcEnd.getTime() - previous.period.utcStart.getTime()).toBe((7 * 24 - 1) * 3_600_000);
    expect(previous.until).toBeNull();
  });

  it('compares a period running through today with its previous period up to the same time of day, to the quarter hour', () => {
    // 2026-11-28 14:52 in Seoul; the last 7 days run through today.
    const previous = previousOf({
      endDate: '2026-11-28',
      startDate: '2026-11-22',
      timeZone: 'Asia/Seoul',
      retentionDays: 30,
      now: new Date('2026-11-28T05:52:00Z'),
    });
    expect(previous.comparable).toBe(true);
    if (!previous.comparable) return;
    expect(previous.period.days[0]).toBe('2026-11-15');
    expect(previous.period.days.at(-1)).toBe('2026-11-21');
    // 2026-11-21 14:45 in Seoul.
    expect(previous.until?.toISOString()).toBe('2026-11-21T05:45:00.000Z');
    expect(previous.period.utcEnd.toISOString()).toBe('2026-11-21T05:45:00.000Z');
  });

  it('cuts today against yesterday at the same wall-clock time across fall-back, in a +5:45 zone to the quarter hour', () => {
    // Monday 2026-11-02 in New York, 09:10 EST; yesterday had 25 hours, its 09:00 was EST too.
    const ny = previousOf({
      startDate: '2026-11-02',
      endDate: '2026-11-02',
      timeZone: 'America/New_York',
      retentionDays: 30,
      now: new Date('2026-11-02T14:10:00Z'),
    });
    expect(ny.comparable && ny.period.utcStart.toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(ny.comparable && ny.until?.toISOString()).toBe('2026-11-01T14:00:00.000Z');
    // 2026-11-28 10:20 in Kathmandu (+5:45): yesterday until 10:15 local.
    const kathmandu = previousOf({
      startDate: '2026-11-28',
      endDate: '2026-11-28',
      timeZone: 'Asia/Kathmandu',
      retentionDays: 30,
      now: new Date('2026-11-28T04:35:00Z'),
    });
    expect(kathmandu.comparable && kathmandu.until?.toISOString()).toBe('2026-11-27T04:30:00.000Z');
  });

  it('has nothing to compare with when the previous period is older than the retention, or the period is empty', () => {
    const now = new Date('2026-11-28T12:00:00Z');
    expect(previousOf({ timeZone: 'UTC', retentionDays: 30, now })).toEqual({
      comparable: false,
      reason: 'before_retention',
      startDate: '2026-09-30',
      endDate: '2026-10-29',
    });
    expect(previousOf({ startDate: '2026-12-01', endDate: '2026-12-02', retentionDays: 30, now })).toEqual({
      comparable: false,
      reason: 'empty_period',
      startDate: null,
      endDate: null,
    });
  });
});
