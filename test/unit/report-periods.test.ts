// The periods a report covers and the change it tells: a week runs Monday to Sunday and a month
// over its calendar days (February's 28 or 29 too), each compared with the same span just before;
// the change is in percent with one decimal, and there is none without clicks before.
import { describe, expect, it } from 'vitest';
import { percentChange } from '../../src/core/stats/comparison.js';
import { reportPeriods } from '../../src/core/reports/report-period.js';

describe('report periods', () => {
  it.each([
    ['weekly', '2026-11-16', ['2026-11-16', '2026-11-22'], ['2026-11-09', '2026-11-15']],
    ['weekly', '2025-12-29', ['2025-12-29', '2026-01-04'], ['2025-12-22', '2025-12-28']],
    ['weekly', '2025-03-03', ['2025-03-03', '2025-03-09'], ['2025-02-24', '2025-03-02']],
    ['monthly', '2026-10-01', ['2026-10-01', '2026-10-31'], ['2026-09-01', '2026-09-30']],
    ['monthly', '2024-03-01', ['2024-03-01', '2024-03-31'], ['2024-02-01', '2024-02-29']],
    ['monthly', '2026-01-01', ['2026-01-01', '2026-01-31'], ['2025-12-01', '2025-12-31']],
  ] as const)('a %s report from %s covers %j against %j', (frequency, start, current, previous) => {
    const periods = reportPeriods(frequency, start);
    expect([periods.current.startDate, periods.current.endDate]).toEqual(current);
    expect([periods.previous.startDate, periods.previous.endDate]).toEqual(previous);
  });
});

describe('report change', () => {
  it.each([
    [5, 1, 400],
    [1, 5, -80],
    [3, 3, 0],
    [2, 3, -33.3],
    [0, 4, -100],
    [7, 0, null],
    [0, 0, null],
  ])('%i clicks after %i is %s percent', (current, previous, change) => {
    expect(percentChange(current, previous)).toBe(change);
  });
});
