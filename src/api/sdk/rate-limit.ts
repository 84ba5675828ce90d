// Request limits of the SDK APIs, as token buckets counted in process. Two budgets, so that what
// anyone can send with an app's public id never spends what the app's own SDK needs:
// - keyed callers (X-App-ID proven by X-Mobile-App-API-Key): one bucket per app,
//   SDK_RATE_LIMIT_PER_SECOND tokens a second, as many in a burst;
// - keyless callers (browsers and the web SDK, the app id alone): one bucket per app and client
//   address, SDK_KEYLESS_RATE_LIMIT_PER_SECOND a second, SDK_KEYLESS_RATE_LIMIT_BURST in a burst.
// A bucket that has refilled is the same as no bucket, so idle ones are dropped, and the number of
// buckets has a ceiling. With several instances each enforces the limits on its own share of the
// traffic, so the fleet-wide limits are a multiple of them (documented in the README).
import { limitReached } from '../../shared/errors.js';
import type { AppCaller } from '../../core/caller.js';

export type TakeOutcome = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface TokenBuckets {
  /** Takes one token of `key`'s bucket at `nowMs`, or says how long until one is there. */
  take(key: string, nowMs: number): TakeOutcome;
  /** Buckets held now (for tests and metrics). */
  readonly size: number;
}

interface Bucket {
  tokens: number;
  atMs: number;
}

/** Far more clients than one instance serves at once; past it, the least recently seen go first. */
const DEFAULT_MAX_BUCKETS = 100_000;

export function createTokenBuckets(options: {
  ratePerSecond: number;
  burst: number;
  maxBuckets?: number;
}): TokenBuckets {
  const { ratePerSecond, burst } = options;
  const maxBuckets = options.maxBuckets ?? DEFAULT_MAX_BUCKETS;
  const perMs = ratePerSecond / 1000;
  // After this long untouched a bucket is full again: forgetting it changes nothing.
  const idleMs = burst / perMs;
  // Least recently used first: every take moves its bucket to the end.
  const buckets = new Map<string, Bucket>();

  function dropIdle(nowMs: number) {
    for (const [key, bucket] of buckets) {
      if (nowMs - bucket.atMs < idleMs && buckets.size <= maxBuckets) break;
      buckets.delete(key);
    }
  }

  return {
    take(key, nowMs) {
      const found = buckets.get(key);
      let tokens = burst;
      if (found) {
        tokens = Math.min(burst, found.tokens + Math.max(0, nowMs - found.atMs) * perMs);
        buckets.delete(key);
      }
      const allowed = tokens >= 1;
      if (allowed) tokens -= 1;
      buckets.set(key, { tokens, atMs: nowMs });
      dropIdle(nowMs);
      return allowed
        ? { allowed }
        : { allowed, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / ratePerSecond)) };
    },
    get size() {
      return buckets.size;
    },
  };
}

export interface SdkRateLimiter {
  /** One call of a caller that proved the app's key; 429 with Retry-After past the app's budget. */
  keyed(appId: number, nowMs?: number): void;
  /**
   * One call that named the app without its key, from a client address; 429 with Retry-After past
   * that address's budget for the app. `app` may be another stable name when no app is known.
   */
  keyless(app: number | string, clientAddress: string, nowMs?: number): void;
  /** One call of an authenticated SDK caller: keyed when it proved the key, keyless otherwise. */
  take(caller: Pick<AppCaller, 'app' | 'channel'>, clientAddress: string): void;
}

export interface SdkRateLimits {
  keyedPerSecond: number;
  keylessPerSecond: number;
  keylessBurst: number;
  maxBuckets?: number;
}

export function createSdkRateLimiter(limits: SdkRateLimits): SdkRateLimiter {
  const keyed = createTokenBuckets({
    ratePerSecond: limits.keyedPerSecond,
    burst: limits.keyedPerSecond,
    maxBuckets: limits.maxBuckets,
  });
  const keyless = createTokenBuckets({
    ratePerSecond: limits.keylessPerSecond,
    burst: limits.keylessBurst,
    maxBuckets: limits.maxBuckets,
  });

  function refuse(outcome: TakeOutcome, message: string) {
    if (!outcome.allowed) throw limitReached('RATE_LIMITED', message, outcome.retryAfterSeconds);
  }

  return {
    take(caller, clientAddress) {
      if (caller.channel === 'mobile') this.keyed(caller.app.id);
      else this.keyless(caller.app.id, clientAddress);
    },
    keyed(appId, nowMs = Date.now()) {
      refuse(keyed.take(String(appId), nowMs), `more than ${limits.keyedPerSecond} requests per second for this app`);
    },
    keyless(app, clientAddress, nowMs = Date.now()) {
      refuse(
        keyless.take(`${app} ${clientAddress}`, nowMs),
        `more than ${limits.keylessPerSecond} requests per second for this app from this address (burst ${limits.keylessBurst})`,
      );
    },
  };
}
