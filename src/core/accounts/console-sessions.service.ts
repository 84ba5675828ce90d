// Console sessions: started at every sign-in with a new token (whatever token the browser had is
// revoked, so a planted one is worthless: no session fixation), ended by idleness, by their
// absolute age, by sign-out here or everywhere, by their user from the list of their sessions, or
// by an owner of an organization the user belongs to. The CSRF token is derived from the session
// token, so it needs no storage and is useless without the HttpOnly cookie's value.
import { createHash } from 'node:crypto';
import type { AgentParser, DeviceType } from '../../ingest/enrich.js';
import type { ConsoleSessionsRepo } from '../../oltp/console-sessions.repo.js';
import type { User, UsersRepo } from '../../oltp/users.repo.js';
import { notFound } from '../../shared/errors.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { secretsEqual } from '../../shared/secrets.js';
import type { Caller } from '../caller.js';
import type { AuditTrail } from './audit-trail.js';
import { newToken, tokenHash } from './one-time-tokens.js';
import { authorize } from './permissions.js';

export type SignInMethod = 'email' | 'login_link' | 'sso' | 'oidc';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/** Where a sign-in came from, for the session record and the audit log. */
export interface ClientFacts {
  ip: string;
  userAgent: string | undefined;
  /** The session token the browser presented, if any: revoked when a new session starts. */
  currentToken?: string | undefined;
}

export interface StartedSession {
  token: string;
  expiresAt: Date;
  user: User;
}

export interface ActiveSession {
  id: number;
  user: User;
  csrfToken: string;
  expiresAt: Date;
  method: string;
}

/** A signed-in session as its owner's list shows it. */
export interface SessionView {
  id: number;
  /** What the stored user agent says; null when the browser sent none. */
  device: { browser: string; os: string; type: DeviceType } | null;
  /** The client address the session began from; null when it could not be opened (a retired key). */
  ip: string | null;
  method: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** The session the list was asked with. */
  current: boolean;
}

/** last_seen_at is written at most this often per session: no database write per console call. */
const TOUCH_EVERY_MS = 60_000;

const csrfTokenOf = (sessionToken: string): string =>
  createHash('sha256').update(`csrf\u0000${sessionToken}`, 'utf8').digest('base64url');

type MemberCaller = Pick<Caller, 'organization'> & { member: NonNullable<Caller['member']> };

export function createSessions(deps: {
  repo: ConsoleSessionsRepo;
  users: Pick<UsersRepo, 'get' | 'recordSignIn' | 'roleIn'>;
  secretBox: SecretBox;
  parseAgent: AgentParser;
  clock: () => Date;
  policy: SessionPolicy;
  audit: Pick<AuditTrail, 'record'>;
}) {
  const { repo, policy } = deps;

  const opened = (sealed: string | null): string | null => {
    if (!sealed) return null;
    try {
      return deps.secretBox.open(sealed);
    } catch {
      return null;
    }
  };

  async function active(token: string): Promise<ActiveSession | undefined> {
    const session = await repo.find(tokenHash(token));
    if (!session) return undefined;
    const now = deps.clock();
    if (now >= session.expiresAt || now.getTime() - session.lastSeenAt.getTime() >= policy.idleMs) {
      await repo.revoke(session.id, now);
      return undefined;
    }
    const user = await deps.users.get(session.userId);
    if (!user) return undefined;
    if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await repo.touch(session.id, now);
    return {
      id: session.id,
      user,
      csrfToken: csrfTokenOf(token),
      expiresAt: session.expiresAt,
      method: session.method,
    };
  }

  async function liveSessionsOf(userId: number, currentSessionId: number): Promise<SessionView[]> {
    const now = deps.clock();
    const open = await repo.openOf(userId, now);
    return open
      .filter((s) => now.getTime() - s.lastSeenAt.getTime() < policy.idleMs)
      .map((s) => {
        const agent = s.userAgent ? deps.parseAgent(s.userAgent) : undefined;
        return {
          id: s.id,
          device: agent ? { browser: agent.browser, os: agent.os, type: agent.deviceType } : null,
          ip: opened(s.ipSealed),
          method: s.method,
          createdAt: s.createdAt,
          lastSeenAt: s.lastSeenAt,
          current: s.id === currentSessionId,
        };
      });
  }

  /** An owner's (sessions.manage) look at a member of their organization. */
  async function checkedMember(caller: MemberCaller, userId: number): Promise<void> {
    authorize(caller, 'sessions.manage');
    if (!(await deps.users.roleIn(caller.organization.id, userId)))
      throw notFound('MEMBER_NOT_FOUND', `user ${userId} is not a member of organization ${caller.organization.id}`);
  }

  return {
    active,

    async start(user: User, method: SignInMethod, client: ClientFacts): Promise<StartedSession> {
      const now = deps.clock();
      if (client.currentToken) {
        const previous = await repo.find(tokenHash(client.currentToken));
        if (previous) await repo.revoke(previous.id, now);
      }
      const token = newToken();
      const expiresAt = new Date(now.getTime() + policy.absoluteMs);
      await repo.create({
        tokenHash: tokenHash(token),
        userId: user.id,
        createdAt: now,
        expiresAt,
        method,
        userAgent: client.userAgent?.slice(0, 500) ?? null,
        ipSealed: deps.secretBox.seal(client.ip),
      });
      await deps.users.recordSignIn(user.id, now);
      return { token, expiresAt, user };
    },

    /** Whether a state-changing call carries this session's CSRF token (constant time). */
    csrfMatches: (sessionToken: string, presented: string | undefined): boolean =>
      presented !== undefined && secretsEqual(presented, csrfTokenOf(sessionToken)),

    async end(session: Pick<ActiveSession, 'id' | 'user'>, ip: string): Promise<void> {
      await repo.revoke(session.id, deps.clock());
      await deps.audit.record({ type: 'user', userId: session.user.id, ip }, 'sign_out', {
        target: `user:${session.user.id}`,
      });
    },

    /** The user's live sessions (idle ones, which end at their next use, left out), most recently used first. */
    listOf: (session: Pick<ActiveSession, 'id' | 'user'>): Promise<SessionView[]> =>
      liveSessionsOf(session.user.id, session.id),

    /**
     * An owner sees a member's live sessions (device, address, last use) before ending them;
     * someone outside the organization answers as a member that does not exist.
     */
    async listOfMember(caller: MemberCaller, userId: number, currentSessionId: number): Promise<SessionView[]> {
      await checkedMember(caller, userId);
      return liveSessionsOf(userId, currentSessionId);
    },

    /**
     * Ends one of the user's own sessions; another user's id answers as one that does not exist.
     * Answers whether it was the session asking (then the caller is signed out).
     */
    async endOwn(session: Pick<ActiveSession, 'id' | 'user'>, sessionId: number, ip: string): Promise<boolean> {
      const userId = session.user.id;
      if (!(await repo.revokeOf(userId, sessionId, deps.clock())))
        throw notFound('SESSION_NOT_FOUND', `session ${sessionId} does not exist`);
      await deps.audit.record({ type: 'user', userId, ip }, 'session.ended', {
        target: `user:${userId}`,
        details: { sessionId },
      });
      return sessionId === session.id;
    },

    /**
     * An owner ends every session of a member of their organization (a lost laptop, someone
     * leaving); someone outside it answers as a member that does not exist.
     */
    async endAllOfMember(caller: MemberCaller, userId: number, ip: string): Promise<number> {
      await checkedMember(caller, userId);
      const ended = await repo.revokeAllOf(userId, deps.clock());
      await deps.audit.record({ type: 'user', userId: caller.member.userId, ip }, 'member.sessions_ended', {
        organizationId: caller.organization.id,
        target: `user:${userId}`,
        details: { ended },
      });
      return ended;
    },

    /** Ends every session of the user on every device; answers how many were open. */
    async endEverywhere(userId: number, ip: string): Promise<number> {
      const ended = await repo.revokeAllOf(userId, deps.clock());
      await deps.audit.record({ type: 'user', userId, ip }, 'sign_out.everywhere', {
        target: `user:${userId}`,
        details: { ended },
      });
      return ended;
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
