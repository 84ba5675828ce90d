// Shared statistics of short URLs (sql/postgres/0006): one share per link, found by the SHA-256 of
// its token. Sharing again replaces the token in one statement, so the old address stops working
// the moment the new one exists.
import type { Sql } from './postgres.js';

export interface LinkShare {
  organizationId: number;
  shortUrlId: number;
}

export function createLinkSharesRepo({ sql }: { sql: Sql }) {
  return {
    /** Shares the link under this token hash, replacing any token it had. */
    async put(organizationId: number, shortUrlId: number, tokenHash: Buffer, now: Date): Promise<void> {
      await sql`
        insert into link_shares (short_url_id, organization_id, token_hash, created_at)
        values (${shortUrlId}, ${organizationId}, ${tokenHash}, ${now})
        on conflict (short_url_id) do update set token_hash = excluded.token_hash, created_at = excluded.created_at`;
    },

    /** Ends the link's share; false when it had none. */
    async remove(organizationId: number, shortUrlId: number): Promise<boolean> {
      const rows = await sql`
        delete from link_shares where organization_id = ${organizationId} and short_url_id = ${shortUrlId} returning 1`;
      return rows.length > 0;
    },

    async find(tokenHash: Buffer): Promise<LinkShare | undefined> {
      const [row] = await sql<{ organization_id: number; short_url_id: number }[]>`
        select organization_id, short_url_id from link_shares where token_hash = ${tokenHash}`;
      return row && { organizationId: row.organization_id, shortUrlId: row.short_url_id };
    },
  };
}

export type LinkSharesRepo = ReturnType<typeof createLinkSharesRepo>;
