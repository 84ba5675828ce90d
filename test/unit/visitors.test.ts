import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createVisitorHasher } from '../../src/ingest/visitors.js';

const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)';
const noon = Date.parse('2026-03-02T12:00:00Z');

describe('visitor hashes', () => {
  const key = randomBytes(32);
  const visitor = createVisitorHasher(key);

  it('are the same for one address and browser within a UTC day, and differ across days', () => {
    const morning = visitor('203.0.113.5', UA, Date.parse('2026-03-02T00:00:01Z'));
    expect(visitor('203.0.113.5', UA, noon)).toBe(morning);
    expect(visitor('203.0.113.5', UA, Date.parse('2026-03-02T23:59:59Z'))).toBe(morning);
    expect(visitor('203.0.113.5', UA, Date.parse('2026-03-03T00:00:00Z'))).not.toBe(morning);
    // Back to the first day after another: the same hash again (the salt is the day's, not the order's).
    expect(visitor('203.0.113.5', UA, noon)).toBe(morning);
  });

  it('tell addresses and browsers apart, depend on the key, and fit a JSON number', () => {
    const a = visitor('203.0.113.5', UA, noon);
    expect(visitor('203.0.113.6', UA, noon)).not.toBe(a);
    expect(visitor('203.0.113.5', `${UA} Safari`, noon)).not.toBe(a);
    expect(createVisitorHasher(randomBytes(32))('203.0.113.5', UA, noon)).not.toBe(a);
    expect(createVisitorHasher(key)('203.0.113.5', UA, noon)).toBe(a);
    expect(Number.isSafeInteger(a) && a > 0 && a < 2 ** 48).toBe(true);
  });

  it('are 0 without an address (nothing to go by)', () => {
    expect(visitor('', UA, noon)).toBe(0);
  });
});
