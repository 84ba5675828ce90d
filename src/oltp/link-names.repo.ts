// Short codes and campaign aliases of many links at once, each pair scoped by its organization:
// click webhooks name the link that was clicked (one query per bus batch, not per click).
import type { Sql } from './postgres.js';

export function createLinkNamesRepo({ sql }: { sql: Sql }) {
  /** `${organizationId}:${id}` → name, for the pairs that exist (deleted links are left out). */
  async function lookup(table: 'short_urls' | 'campaigns', pairs: [number, number][]): Promise<Map<string, string>> {
    if (pairs.length === 0) return new Map();
    const orgs = pairs.map(([o]) => o);
    const ids = pairs.map(([, i]) => i);
    const rows =
      table === 'short_urls'
        ? await sql<{ organization_id: number; id: number; name: string }[]>`
          select s.organization_id, s.id, s.short_code as name
          from short_urls s join unnest(${orgs}::bigint[], ${ids}::bigint[]) as p(org, id) on s.organization_id = p.org and s.id = p.id`
        : await sql<{ organization_id: number; id: number; name: string }[]>`
          select c.organization_id, c.id, c.alias as name
          from campaigns c join unnest(${orgs}::bigint[], ${ids}::bigint[]) as p(org, id) on c.organization_id = p.org and c.id = p.id`;
    return new Map(rows.map((r) => [`${r.organization_id}:${r.id}`, r.name]));
  }

  return {
    shortCodes: (pairs: [number, number][]) => lookup('short_urls', pairs),
    campaignAliases: (pairs: [number, number][]) => lookup('campaigns', pairs),
  };
}

export type LinkNamesRepo = ReturnType<typeof createLinkNamesRepo>;
