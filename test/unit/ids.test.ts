// Identifiers: UUIDv7 event ids (format, order, time), base62 secrets and API keys.
import { describe, expect, it } from 'vitest';
import { newApiKey, randomBase62, uuidv7 } from '../../src/shared/ids.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The 48-bit Unix millisecond prefix of a UUIDv7. */
const millisOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('uuidv7', () => {
  it('is an RFC 9562 version 7 UUID with the 10xx variant', () => {
    for (let i = 0; i < 1000; i++) {
      const id = uuidv7();
      expect(id).toMatch(UUID);
      expect(id[14]).toBe('7');
      expect('89ab').toContain(id[19]);
    }
  });

  it('is strictly increasing over 10,000 ids made in a tight loop', () => {
    const ids = Array.from({ length: 10_000 }, () => uuidv7());
    let outOfOrder = 0;
    for (let i = 1; i < ids.length; i++) if (!(ids[i - 1]! < ids[i]!)) outOfOrder++;
    expect(outOfOrder).toBe(0);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('starts with the current Unix time in milliseconds', async () => {
    // The generator may run a few milliseconds ahead of the clock after a burst (its counter
    // overflowed); wait until the clock has passed it, then the prefix is the clock's.
    const ahead = millisOf(uuidv7());
    while (Date.now() <= ahead) await new Promise((r) => setTimeout(r, 1));
    const before = Date.now();
    const id = uuidv7();
    const after = Date.now();
    expect(millisOf(id)).toBeGreaterThanOrEqual(before);
    expect(millisOf(id)).toBeLessThanOrEqual(after);
    expect(new Date(millisOf(id)).getUTCFullYear()).toBe(new Date().getUTCFullYear());
  });

  it('keeps order when the clock steps backwards', () => {
    const first = uuidv7();
    const earlier = uuidv7(millisOf(first) - 60_000);
    expect(earlier > first).toBe(true);
    // It does not follow the clock back: the prefix stays at the newest time seen.
    expect(millisOf(earlier)).toBeGreaterThanOrEqual(millisOf(first));
  });
});

describe('randomBase62', () => {
  it('has the asked length and only base62 characters', () => {
    for (const length of [0, 1, 7, 32, 100, 1000]) {
      const s = randomBase62(length);
      expect(s).toHaveLength(length);
      expect(s).toMatch(/^[0-9A-Za-z]*$/);
    }
  });

  it('uses every character about equally often (chi-square over 62,000 characters)', () => {
    const counts = new Map<string, number>();
    const text = randomBase62(62_000);
    for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = text.length / 62;
    const chiSquare = [...BASE62].reduce((sum, c) => sum + ((counts.get(c) ?? 0) - expected) ** 2 / expected, 0);
    // 61 degrees of freedom: mean 61, and 150 is beyond p = 1e-8. A `byte % 62` bias (the first
    // eight characters 25% more likely) scores around 400.
    expect(chiSquare).toBeLessThan(150);
  });
});

describe('newApiKey', () => {
  it('is sp_live_ and 32 base62 characters, never repeated', () => {
    const keys = Array.from({ length: 2_000 }, () => newApiKey());
    for (const key of keys) expect(key).toMatch(/^sp_live_[0-9A-Za-z]{32}$/);
    expect(new Set(keys).size).toBe(keys.length);
    // No shared prefix beyond the fixed one: the random part starts fresh for each key.
    expect(new Set(keys.map((k) => k.slice(0, 12))).size).toBeGreaterThan(1_900);
  });
});
