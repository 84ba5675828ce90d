// Who is calling the console, as a request shows it: the session behind the cookie and, on every
// state change, the same-origin rule and the session's CSRF token (header X-CSRF-Token, or the
// form field csrfToken). A cookie that names no live session is a failed authentication, counted
// and limited per client address as the others are (auth-failures.ts), and its answer clears the
// cookie (index.ts), so a browser stops sending it.
import type { FastifyRequest } from 'fastify';
import type { AccountServices } from '../../core/accounts/index.js';
import type { ActiveSession } from '../../core/accounts/console-sessions.service.js';
import { forbidden, notFound, unauthenticated } from '../../shared/errors.js';
import type { AuthFailureLimiter } from '../auth-failures.js';
import { cookiesOf, SESSION_COOKIE } from './browser-session.js';
import { sameOrigin } from './forms.js';

declare module 'fastify' {
  interface FastifyRequest {
    consoleSession?: ActiveSession;
    /** The request's session cookie names no live session: its answer clears the cookie. */
    wrongSessionCookie?: boolean;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The organization id the path names (`:orgId`, not yet validated), undefined when it names none;
 * one that is not a positive integer is a 404, as an organization the caller is not in.
 */
export function namedOrganization(request: FastifyRequest): number | undefined {
  const named = (request.params as { orgId?: string } | undefined)?.orgId;
  if (named === undefined) return undefined;
  const orgId = Number(named);
  if (!Number.isSafeInteger(orgId) || orgId <= 0) throw notFound('ORGANIZATION_NOT_FOUND', 'no such organization');
  return orgId;
}

export interface ConsoleGuard {
  tokenOf(request: FastifyRequest): string | undefined;
  sessionOf(request: FastifyRequest): Promise<ActiveSession | undefined>;
  requireCsrf(request: FastifyRequest): void;
  /** A preHandler: a live session always (kept on the request), the CSRF rule on every state change. */
  requireSession(request: FastifyRequest): Promise<void>;
  /**
   * An onRequest hook, before anything of the request is parsed or validated: a live session, and
   * membership of the organization the path names, so a stranger learns nothing of a route's
   * input rules (a 400) before being told it is not theirs (a 404).
   */
  admit(request: FastifyRequest): Promise<void>;
  /** A preValidation hook (the body parsed): the CSRF rule on every state change. */
  csrfOnChange(request: FastifyRequest): void;
}

export function createConsoleGuard(
  accounts: AccountServices,
  publicBaseUrl: string,
  failures: AuthFailureLimiter,
): ConsoleGuard {
  const tokenOf = (request: FastifyRequest) => cookiesOf(request).get(SESSION_COOKIE);

  async function sessionOf(request: FastifyRequest): Promise<ActiveSession | undefined> {
    const token = tokenOf(request);
    if (!token) return undefined;
    failures.check(request);
    const session = await accounts.console.session(token);
    if (!session) {
      failures.fail(request);
      request.wrongSessionCookie = true;
    }
    return session;
  }

  function requireCsrf(request: FastifyRequest): void {
    sameOrigin(request, publicBaseUrl);
    const body = request.body as Record<string, unknown> | undefined;
    const header = request.headers['x-csrf-token'];
    const presented =
      typeof header === 'string' ? header : typeof body?.csrfToken === 'string' ? body.csrfToken : undefined;
    const token = tokenOf(request);
    if (!token || !accounts.sessions.csrfMatches(token, presented))
      throw forbidden('CSRF_TOKEN_INVALID', 'the CSRF token is missing or wrong; reload the console');
  }

  return {
    tokenOf,
    sessionOf,
    requireCsrf,
    async requireSession(request) {
      const session = await sessionOf(request);
      if (!session) throw unauthenticated('SESSION_REQUIRED', 'sign in to the console first');
      if (UNSAFE.has(request.method)) requireCsrf(request);
      request.consoleSession = session;
    },
    async admit(request) {
      const session = await sessionOf(request);
      if (!session) throw unauthenticated('SESSION_REQUIRED', 'sign in to the console first');
      request.consoleSession = session;
      const orgId = namedOrganization(request);
      if (orgId !== undefined) await accounts.console.callerIn(session, orgId);
    },
    csrfOnChange(request) {
      if (UNSAFE.has(request.method)) requireCsrf(request);
    },
  };
}
