// Per-app request limit of the SDK APIs (SDK_RATE_LIMIT_PER_SECOND): a fixed one-second window
// per app id, counted in process. With several instances each enforces the limit on its own share
// of the traffic, so the fleet-wide limit is a multiple of it (documented in the README).
import { tooManyRequests } from '../../shared/errors.js';

export interface AppRateLimiter {
  /** Counts one call of the app; throws 429 with Retry-After when its second is used up. */
  take(appKey: string | number, nowMs?: number): void;
}

export function createAppRateLimiter(limitPerSecond: number): AppRateLimiter {
  let windowStart = 0;
  let counts = new Map<string | number, number>();
  return {
    take(appKey, nowMs = Date.now()) {
      const second = Math.floor(nowMs / 1000) * 1000;
      if (second !== windowStart) {
        // A new second: forget the old one entirely, so idle apps cost no memory.
        windowStart = second;
        counts = new Map();
      }
      const used = (counts.get(appKey) ?? 0) + 1;
      counts.set(appKey, used);
      if (used > limitPerSecond) {
        throw tooManyRequests('RATE_LIMITED', `more than ${limitPerSecond} requests per second for this app`, 1);
      }
    },
  };
}
