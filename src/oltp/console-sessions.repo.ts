// Console sessions, server-side: the cookie carries a random token and this table its SHA-256,
// so a copy of the database signs no one in. Revoking is immediate on every instance.
import type { Sql } from './postgres.js';

export interface ConsoleSession {
  id: number;
  userId: number;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  method: string;
  userAgent: string | null;
}

/** A session as its owner's list shows it: with the sealed client address it began from. */
export interface ListedConsoleSession extends ConsoleSession {
  ipSealed: string | null;
}

interface Row {
  id: number;
  user_id: number;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  method: string;
  user_agent: string | null;
}

const toSession = (r: Row): ConsoleSession => ({
  id: r.id,
  userId: r.user_id,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  expiresAt: r.expires_at,
  method: r.method,
  userAgent: r.user_agent,
});

export function createConsoleSessionsRepo({ sql }: { sql: Sql }) {
  return {
    async create(input: {
      tokenHash: Buffer;
      userId: number;
      createdAt: Date;
      expiresAt: Date;
      method: string;
      userAgent: string | null;
      ipSealed: string | null;
    }): Promise<ConsoleSession> {
      const [row] = await sql<Row[]>`
        insert into console_sessions (token_hash, user_id, created_at, last_seen_at, expires_at, method, user_agent, ip_sealed)
        values (${input.tokenHash}, ${input.userId}, ${input.createdAt}, ${input.createdAt}, ${input.expiresAt},
                ${input.method}, ${input.userAgent}, ${input.ipSealed})
        returning id, user_id, created_at, last_seen_at, expires_at, method, user_agent`;
      return toSession(row!);
    },

    /** The unrevoked session of this token, whatever its age (the core applies the expiry rules). */
    async find(tokenHash: Buffer): Promise<ConsoleSession | undefined> {
      const [row] = await sql<Row[]>`
        select id, user_id, created_at, last_seen_at, expires_at, method, user_agent from console_sessions
        where token_hash = ${tokenHash} and revoked_at is null`;
      return row && toSession(row);
    },

    /** The user's unrevoked, unexpired sessions, most recently used first (the core drops idle ones). */
    async openOf(userId: number, now: Date): Promise<ListedConsoleSession[]> {
      const rows = await sql<(Row & { ip_sealed: string | null })[]>`
        select id, user_id, created_at, last_seen_at, expires_at, method, user_agent, ip_sealed from console_sessions
        where user_id = ${userId} and revoked_at is null and expires_at > ${now}
        order by last_seen_at desc, id desc`;
      return rows.map((r) => ({ ...toSession(r), ipSealed: r.ip_sealed }));
    },

    async touch(id: number, at: Date): Promise<void> {
      await sql`update console_sessions set last_seen_at = ${at} where id = ${id} and revoked_at is null`;
    },

    async revoke(id: number, at: Date): Promise<void> {
      await sql`update console_sessions set revoked_at = ${at} where id = ${id} and revoked_at is null`;
    },

    /** Revokes the session only if it is the user's and open; answers whether it was. */
    async revokeOf(userId: number, id: number, at: Date): Promise<boolean> {
      const rows = await sql`
        update console_sessions set revoked_at = ${at}
        where id = ${id} and user_id = ${userId} and revoked_at is null returning id`;
      return rows.length > 0;
    },

    /** Every open session of the user; answers how many were open. */
    async revokeAllOf(userId: number, at: Date): Promise<number> {
      const rows =
        await sql`update console_sessions set revoked_at = ${at} where user_id = ${userId} and revoked_at is null returning id`;
      return rows.length;
    },

    async purgeEnded(before: Date): Promise<void> {
      await sql`delete from console_sessions where expires_at < ${before} or revoked_at < ${before}`;
    },
  };
}

export type ConsoleSessionsRepo = ReturnType<typeof createConsoleSessionsRepo>;
