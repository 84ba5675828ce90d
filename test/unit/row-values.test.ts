import { describe, expect, it } from 'vitest';
import { num, str, withEventColumns } from '../../src/ingest/row-values.js';
import { chTime } from '../../src/shared/event-rows.js';

const isoText = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

describe('chTime', () => {
  it('writes ClickHouse DateTime64(3) text in UTC, milliseconds padded', () => {
    expect(chTime(Date.UTC(2025, 2, 9, 6, 0, 0, 5))).toBe('2025-03-09 06:00:00.005');
    expect(chTime(Date.UTC(2025, 2, 9, 6, 0, 0, 50))).toBe('2025-03-09 06:00:00.050');
    expect(chTime(Date.UTC(2025, 2, 9, 6, 0, 0, 999))).toBe('2025-03-09 06:00:00.999');
    expect(chTime(0)).toBe('1970-01-01 00:00:00.000');
  });

  it('agrees with toISOString when consecutive calls share a second and when they do not', () => {
    const start = Date.UTC(2026, 10, 22, 23, 59, 58, 0);
    // Same second several times in a row (the cached text), then across second, day and month edges.
    for (let ms = start; ms < start + 4_000; ms += 7) expect(chTime(ms)).toBe(isoText(ms));
    let seed = 42;
    for (let i = 0; i < 5_000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const ms = seed * 1999;
      expect(chTime(ms)).toBe(isoText(ms));
    }
  });
});

describe('row values', () => {
  it('turns missing or oddly typed fields into empty values', () => {
    expect(str(undefined)).toBe('');
    expect(str(null)).toBe('');
    expect(str(12)).toBe('12');
    expect(str('abcdef', 3)).toBe('abc');
    // A cut never leaves half of a surrogate pair (ClickHouse would refuse the row).
    expect(str('ab😀cd', 3)).toBe('ab');
    expect(str('ab😀cd', 4)).toBe('ab😀');
    expect(str('😀'.repeat(60), 101)).toBe('😀'.repeat(50));
    expect(num('5')).toBe(0);
    expect(num(Number.NaN)).toBe(0);
    expect(num(7)).toBe(7);
  });

  it('adds the id, time and tenant columns to a row', () => {
    const row = withEventColumns(
      { eventId: 'e1', occurredAt: Date.UTC(2026, 0, 1), organizationId: 9 },
      { link_id: 3 },
    );
    expect(row).toEqual({ link_id: 3, event_id: 'e1', ts: '2026-01-01 00:00:00.000', organization_id: 9 });
  });
});
