// Monthly Service API call counts, added in batches by the usage meter.
import type { Sql } from './postgres.js';

export function createUsageRepo({ sql }: { sql: Sql }) {
  return {
    async addCalls(month: string, counts: Map<number, number>): Promise<void> {
      if (counts.size === 0) return;
      const orgIds = [...counts.keys()];
      const calls = orgIds.map((id) => counts.get(id)!);
      await sql`
        insert into api_usage (organization_id, month, calls)
        select org, ${month}::date, n from unnest(${orgIds}::bigint[], ${calls}::bigint[]) as t(org, n)
        on conflict (organization_id, month) do update set calls = api_usage.calls + excluded.calls`;
    },

    async callsInMonth(organizationId: number, month: string): Promise<number> {
      const [row] = await sql<{ calls: number }[]>`
        select calls from api_usage where organization_id = ${organizationId} and month = ${month}::date`;
      return row?.calls ?? 0;
    },
  };
}

export type UsageRepo = ReturnType<typeof createUsageRepo>;
