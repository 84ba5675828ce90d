// Failed authentications per client address: after `limit` failures within the window, the
// address gets 429 with Retry-After on that surface (even with a right credential, so guessing
// learns nothing) until the window of its first counted failure has passed. Other addresses are
// untouched. Memory is bounded: at most `maxAddresses` addresses are tracked per surface; the
// least recently failing one is forgotten first (a Map keeps insertion order, and a failure
// re-inserts its address at the end).
import type { FastifyRequest } from 'fastify';
import { normalizeIp } from '../shared/ip.js';
import { limitReached } from '../shared/errors.js';

export interface AuthFailureLimiter {
  /**
   * Throws 429 (with `code`) when the request's address has failed too often lately (on `scope`,
   * when the surface counts per thing guessed at, such as one protected link).
   */
  check(request: FastifyRequest, scope?: string): void;
  /** Counts one failed authentication of the request's address (on `scope`). */
  fail(request: FastifyRequest, scope?: string): void;
  /** Addresses currently tracked (for tests and metrics). */
  size(): number;
}

export interface AuthFailureOptions {
  limit: number;
  windowSeconds: number;
  /** The 429's code, for example API_KEY_FAILURES. */
  code: string;
  /** What was failed, for the message: "Service API key". */
  what: string;
  maxAddresses?: number;
  now?: () => number;
}

interface Entry {
  since: number;
  count: number;
}

export function createAuthFailureLimiter(options: AuthFailureOptions): AuthFailureLimiter {
  const windowMs = options.windowSeconds * 1000;
  const maxAddresses = options.maxAddresses ?? 10_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const addressOf = (request: FastifyRequest, scope = '') => `${normalizeIp(request.ip)} ${scope}`;

  /** The entry of a still-open window, dropping an expired one. */
  function current(address: string, at: number): Entry | undefined {
    const entry = entries.get(address);
    if (entry && at - entry.since >= windowMs) {
      entries.delete(address);
      return undefined;
    }
    return entry;
  }

  return {
    check(request, scope) {
      const at = now();
      const entry = current(addressOf(request, scope), at);
      if (!entry || entry.count < options.limit) return;
      throw limitReached(
        options.code,
        `too many failed ${options.what} attempts from this address; try again later`,
        (entry.since + windowMs - at) / 1000,
      );
    },
    fail(request, scope) {
      const at = now();
      const address = addressOf(request, scope);
      const entry = current(address, at) ?? { since: at, count: 0 };
      entry.count += 1;
      entries.delete(address);
      entries.set(address, entry);
      if (entries.size > maxAddresses) entries.delete(entries.keys().next().value!);
    },
    size: () => entries.size,
  };
}

/** One limiter per authentication surface, so a guesser on one does not lock out the others. */
export interface AuthFailureLimiters {
  serviceKey: AuthFailureLimiter;
  adminToken: AuthFailureLimiter;
  mobileKey: AuthFailureLimiter;
  /** For the journey's identity verification (a wrong userHash). */
  identityHash: AuthFailureLimiter;
  /** Wrong passwords of protected links, per address and link. */
  linkPassword: AuthFailureLimiter;
  /** Console session cookies that name no live session. */
  consoleSession: AuthFailureLimiter;
}

export function createAuthFailureLimiters(
  config: { limit: number; windowSeconds: number },
  now?: () => number,
): AuthFailureLimiters {
  const make = (code: string, what: string) =>
    createAuthFailureLimiter({ ...config, code, what, ...(now ? { now } : {}) });
  return {
    serviceKey: make('API_KEY_FAILURES', 'Service API key'),
    adminToken: make('ADMIN_TOKEN_FAILURES', 'operator token'),
    mobileKey: make('APP_CREDENTIALS_FAILURES', 'mobile app API key'),
    identityHash: make('USER_HASH_FAILURES', 'identity verification'),
    linkPassword: make('LINK_PASSWORD_FAILURES', 'link password'),
    consoleSession: make('SESSION_FAILURES', 'console session'),
  };
}

/**
 * Wraps an authentication: refused up front while the address is blocked, and every refusal
 * that `counts` (a wrong credential, not a missing one) is counted.
 */
export async function limited<T>(
  limiter: AuthFailureLimiter,
  request: FastifyRequest,
  counts: (err: unknown) => boolean,
  authenticate: () => Promise<T>,
): Promise<T> {
  limiter.check(request);
  try {
    return await authenticate();
  } catch (err) {
    if (counts(err)) limiter.fail(request);
    throw err;
  }
}
