// The period rule of statistics names the field at fault in its own terms; the API places it in
// the query string with the wording clients have always read. Retention clamps the period.
import { describe, expect, it } from 'vitest';
import { placeField } from '../../src/api/schemas/field-errors.js';
import { periodForPlan, resolvePeriod } from '../../src/core/stats/period.js';
import type { DomainError } from '../../src/shared/errors.js';

const now = new Date('2026-11-22T09:30:00Z');

function refusal(input: Parameters<typeof resolvePeriod>[0]): DomainError {
  try {
    resolvePeriod(input);
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('the period was accepted');
}

describe('statistics period', () => {
  it('refuses in neutral terms; the API words it as a query field', () => {
    const cases: [Parameters<typeof resolvePeriod>[0], string, string][] = [
      [
        { timeZone: 'Mars/Base', retentionDays: 30, now },
        'timeZone: Mars/Base is not a known IANA time zone',
        'query.timeZone: Mars/Base is not a known IANA time zone',
      ],
      [
        { startDate: '2026-13-01', retentionDays: 30, now },
        'startDate: must be a date YYYY-MM-DD',
        'query.startDate: must be a date YYYY-MM-DD',
      ],
      [
        { endDate: '22-11-2026', retentionDays: 30, now },
        'endDate: must be a date YYYY-MM-DD',
        'query.endDate: must be a date YYYY-MM-DD',
      ],
      [
        { startDate: '2026-11-20', endDate: '2026-11-01', retentionDays: 30, now },
        'startDate: must not be after endDate',
        'query.startDate: must not be after endDate',
      ],
    ];
    for (const [input, own, client] of cases) {
      const err = refusal(input);
      expect(err.kind).toBe('invalid');
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.message).toBe(own);
      const placed = placeField('query', err) as DomainError;
      expect(placed.code).toBe('VALIDATION_FAILED');
      expect(placed.message).toBe(client);
    }
  });

  it('defaults to the 30 days ending today and clamps to the plan retention', () => {
    const period = periodForPlan('FREE', { timeZone: 'Asia/Seoul', startDate: '2025-01-01' }, now);
    expect(period.retentionDays).toBe(30);
    expect(period.actualStartDate).toBe('2026-10-24');
    expect(period.actualEndDate).toBe('2026-11-22');
    expect(period.days).toHaveLength(30);
    expect(period.utcStart.toISOString()).toBe('2026-10-23T15:00:00.000Z');
  });

  it('meta.actualStartDate / actualEndDate: the requested range clipped to the retention window and to today', () => {
    const period = periodForPlan('FREE', { startDate: '2026-10-01', endDate: '2026-12-31' }, now);
    expect(period).toMatchObject({
      requestedStartDate: '2026-10-01',
      requestedEndDate: '2026-12-31',
      actualStartDate: '2026-10-24',
      actualEndDate: '2026-11-22',
      empty: null,
    });
    expect(period.days[0]).toBe('2026-10-24');
    expect(period.days.at(-1)).toBe('2026-11-22');
  });

  it('meta: a range wholly older than the retention is empty, never a start after the end', () => {
    const period = periodForPlan(
      'FREE',
      { startDate: '2020-01-01', endDate: '2020-01-31', timeZone: 'Asia/Seoul' },
      now,
    );
    expect(period).toMatchObject({
      requestedStartDate: '2020-01-01',
      requestedEndDate: '2020-01-31',
      actualStartDate: null,
      actualEndDate: null,
      empty: 'before_retention',
      days: [],
    });
    expect(period.utcEnd.getTime()).toBe(period.utcStart.getTime());
  });

  it('meta: a range wholly after today is empty', () => {
    const period = periodForPlan('PRO', { startDate: '2026-12-01', endDate: '2026-12-31' }, now);
    expect(period).toMatchObject({ actualStartDate: null, actualEndDate: null, empty: 'after_today', days: [] });
  });

  it('leaves other errors as they are', () => {
    const other = new Error('boom');
    expect(placeField('body', other)).toBe(other);
  });
});
