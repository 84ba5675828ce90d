// The outbox of link tag changes (sql/postgres/0010): rows the triggers write when a statement
// changes a link's tags, taken oldest first and deleted in the same transaction as the copy to
// ClickHouse succeeds, so a failed copy leaves them for the next round. Instances draining at once
// take disjoint rows (skip locked); the order between them does not matter, since ClickHouse keeps
// the row with the highest id of each link.
import type { Sql } from './postgres.js';

export interface LinkTagChange {
  id: number;
  organizationId: number;
  linkType: 'url' | 'campaign';
  linkId: number;
  tagIds: number[];
  changedAt: Date;
}

interface ChangeRow {
  id: string | number;
  organization_id: string | number;
  link_type: 'url' | 'campaign';
  link_id: string | number;
  tag_ids: (string | number)[];
  changed_at: Date;
}

export function createLinkTagChangesRepo({ sql }: { sql: Sql }) {
  return {
    /**
     * Takes up to `limit` changes (of one organization, or of all), hands them to `copy`, and deletes
     * them once it resolved; a throw from `copy` keeps them. The number of changes taken.
     */
    async drain(
      limit: number,
      organizationId: number | null,
      copy: (changes: LinkTagChange[]) => Promise<void>,
    ): Promise<number> {
      return sql.begin(async (tx) => {
        const rows = await tx<ChangeRow[]>`
          delete from link_tag_changes where id in (
            select id from link_tag_changes
            ${organizationId === null ? tx`` : tx`where organization_id = ${organizationId}`}
            order by id limit ${limit} for update skip locked)
          returning *`;
        if (rows.length === 0) return 0;
        await copy(
          rows.map((r) => ({
            id: Number(r.id),
            organizationId: Number(r.organization_id),
            linkType: r.link_type,
            linkId: Number(r.link_id),
            tagIds: r.tag_ids.map(Number),
            changedAt: r.changed_at,
          })),
        );
        return rows.length;
      }) as Promise<number>;
    },
  };
}

export type LinkTagChangesRepo = ReturnType<typeof createLinkTagChangesRepo>;
