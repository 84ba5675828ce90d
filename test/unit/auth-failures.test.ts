// The failure counter itself: the window, the Retry-After it computes, and its memory bound.
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createAuthFailureLimiter } from '../../src/api/auth-failures.js';
import { isDomainError } from '../../src/shared/errors.js';
import { httpHeadersOf, httpStatusOf } from '../../src/api/error-handler.js';

const from = (ip: string) => ({ ip }) as FastifyRequest;

function refusal(check: () => void): { status: number; retryAfter: string | undefined } | undefined {
  try {
    check();
    return undefined;
  } catch (err) {
    if (!isDomainError(err)) throw err;
    return { status: httpStatusOf(err), retryAfter: httpHeadersOf(err)['retry-after'] };
  }
}

describe('auth failure limiter', () => {
  it('blocks after the limit until the window of the first failure has passed', () => {
    let now = 1_000_000;
    const limiter = createAuthFailureLimiter({ limit: 3, windowSeconds: 60, code: 'X', what: 'key', now: () => now });
    for (let i = 0; i < 3; i++) {
      expect(refusal(() => limiter.check(from('198.51.100.1')))).toBeUndefined();
      limiter.fail(from('198.51.100.1'));
      now += 1_000;
    }
    expect(refusal(() => limiter.check(from('198.51.100.1')))).toEqual({ status: 429, retryAfter: '57' });
    // The IPv4-mapped spelling of the same address is the same address.
    expect(refusal(() => limiter.check(from('::ffff:198.51.100.1')))?.status).toBe(429);
    expect(refusal(() => limiter.check(from('198.51.100.2')))).toBeUndefined();
    now += 57_000;
    expect(refusal(() => limiter.check(from('198.51.100.1')))).toBeUndefined();
  });

  it('tracks at most maxAddresses addresses, forgetting the least recently failing', () => {
    const limiter = createAuthFailureLimiter({
      limit: 2,
      windowSeconds: 60,
      code: 'X',
      what: 'key',
      maxAddresses: 100,
    });
    limiter.fail(from('203.0.113.1'));
    limiter.fail(from('203.0.113.1'));
    for (let i = 0; i < 10_000; i++) limiter.fail(from(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`));
    expect(limiter.size()).toBe(100);
    // The early guesser was forgotten; a recent one is still counted.
    expect(refusal(() => limiter.check(from('203.0.113.1')))).toBeUndefined();
    limiter.fail(from('10.0.39.15'));
    expect(refusal(() => limiter.check(from('10.0.39.15')))?.status).toBe(429);
  });
});
