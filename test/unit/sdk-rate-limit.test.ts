// Token buckets of the SDK rate limits on a controlled clock: burst, refill, Retry-After, separate
// keyed and keyless budgets, and memory that stays bounded.
import { describe, expect, it } from 'vitest';
import { createSdkRateLimiter, createTokenBuckets } from '../../src/api/sdk/rate-limit.js';
import { DomainError } from '../../src/shared/errors.js';
import { httpHeadersOf, httpStatusOf } from '../../src/api/error-handler.js';

function refusal(fn: () => void): DomainError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('not refused');
}

describe('token buckets', () => {
  it('serves a burst, then one call per refilled token', () => {
    const buckets = createTokenBuckets({ ratePerSecond: 2, burst: 4 });
    const t0 = 1_000_000;
    expect([0, 1, 2, 3, 4].map(() => buckets.take('a', t0).allowed)).toEqual([true, true, true, true, false]);
    // Half a second refills one token at 2 per second.
    expect(buckets.take('a', t0 + 499).allowed).toBe(false);
    expect(buckets.take('a', t0 + 500).allowed).toBe(true);
    expect(buckets.take('a', t0 + 500).allowed).toBe(false);
    // Never more than the burst, however long the pause.
    const later = t0 + 3_600_000;
    expect([0, 1, 2, 3, 4].map(() => buckets.take('a', later).allowed)).toEqual([true, true, true, true, false]);
  });

  it('tells how long until the next token', () => {
    const slow = createTokenBuckets({ ratePerSecond: 0.25, burst: 1 });
    expect(slow.take('a', 0).allowed).toBe(true);
    expect(slow.take('a', 0)).toEqual({ allowed: false, retryAfterSeconds: 4 });
    expect(slow.take('a', 3_000)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('forgets idle buckets and never holds more than maxBuckets', () => {
    const buckets = createTokenBuckets({ ratePerSecond: 10, burst: 10, maxBuckets: 100 });
    for (let i = 0; i < 1_000; i++) buckets.take(`addr-${i}`, 0);
    expect(buckets.size).toBeLessThanOrEqual(100);
    // A second later every bucket is full again, which is the same as having none.
    buckets.take('fresh', 1_001);
    expect(buckets.size).toBe(1);
  });
});

describe('SDK rate limiter', () => {
  const limiter = () => createSdkRateLimiter({ keyedPerSecond: 5, keylessPerSecond: 1, keylessBurst: 2 });

  it('refuses a keyed caller past its app budget with 429 RATE_LIMITED and Retry-After', () => {
    const l = limiter();
    for (let i = 0; i < 5; i++) l.keyed(1, 0);
    const err = refusal(() => l.keyed(1, 0));
    expect(httpStatusOf(err)).toBe(429);
    expect(err.code).toBe('RATE_LIMITED');
    expect(httpHeadersOf(err)['retry-after']).toBe('1');
    l.keyed(2, 0);
  });

  it('keeps keyless calls out of the keyed budget, and each address to its own', () => {
    const l = limiter();
    l.keyless(1, '203.0.113.7', 0);
    l.keyless(1, '203.0.113.7', 0);
    expect(httpStatusOf(refusal(() => l.keyless(1, '203.0.113.7', 0)))).toBe(429);
    for (let i = 0; i < 5; i++) l.keyed(1, 0);
    l.keyless(1, '198.51.100.1', 0);
    // The same address has a budget per app.
    l.keyless(2, '203.0.113.7', 0);
  });
});
