// The clicks counted against links' click limits (limit_clicks on short_urls and campaigns): each
// instance adds what it counted about once a second and reads what the others added.
import type { Sql } from './postgres.js';

export type LimitedLinkKind = 'url' | 'campaign';

const TABLES = { url: 'short_urls', campaign: 'campaigns' } as const;

export function createClickLimitsRepo({ sql }: { sql: Sql }) {
  return {
    /** Adds `clicks` to the link's count; the count afterwards (undefined: the link is gone). */
    async add(kind: LimitedLinkKind, id: number, clicks: number): Promise<number | undefined> {
      const [row] = await sql<{ limit_clicks: number }[]>`
        update ${sql(TABLES[kind])} set limit_clicks = limit_clicks + ${clicks}
        where id = ${id} returning limit_clicks`;
      return row && Number(row.limit_clicks);
    },

    /** The counts of these links of one kind. */
    async read(kind: LimitedLinkKind, ids: number[]): Promise<Map<number, number>> {
      if (ids.length === 0) return new Map();
      const rows = await sql<{ id: number; limit_clicks: number }[]>`
        select id, limit_clicks from ${sql(TABLES[kind])} where id in ${sql(ids)}`;
      return new Map(rows.map((r) => [Number(r.id), Number(r.limit_clicks)]));
    },
  };
}

export type ClickLimitsRepo = ReturnType<typeof createClickLimitsRepo>;
