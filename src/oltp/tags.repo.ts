// An organization's tags: a name (unique whatever its case) and a colour. Links hold tag ids in an
// array column (see the migration), so renaming or recolouring a tag touches one row, and deleting
// one takes its id out of every link of the organization in the same transaction.
import type { Sql } from './postgres.js';
import { isUniqueViolation } from './sql-helpers.js';

export interface Tag {
  id: number;
  name: string;
  color: string;
  /** Short URLs and campaigns carrying it. */
  linkCount: number;
  createdAt: Date;
}

interface TagRow {
  id: number;
  name: string;
  color: string;
  link_count: number;
  created_at: Date;
}

const toTag = (r: TagRow): Tag => ({
  id: r.id,
  name: r.name,
  color: r.color,
  linkCount: Number(r.link_count ?? 0),
  createdAt: r.created_at,
});

const NAME_TAKEN = 'tags_organization_name_key';

export function createTagsRepo({ sql }: { sql: Sql }) {
  const select = (organizationId: number) => sql`
    select t.*,
      (select count(*) from short_urls u where u.organization_id = ${organizationId} and t.id = any(u.tag_ids))
      + (select count(*) from campaigns c where c.organization_id = ${organizationId} and t.id = any(c.tag_ids))
        as link_count
    from tags t where t.organization_id = ${organizationId}`;

  return {
    async list(organizationId: number): Promise<Tag[]> {
      const rows = await sql<TagRow[]>`${select(organizationId)} order by lower(t.name)`;
      return rows.map(toTag);
    },

    async get(organizationId: number, id: number): Promise<Tag | undefined> {
      const [row] = await sql<TagRow[]>`${select(organizationId)} and t.id = ${id}`;
      return row && toTag(row);
    },

    async idOf(organizationId: number, name: string): Promise<number | undefined> {
      const [row] = await sql<{ id: number }[]>`
        select id from tags where organization_id = ${organizationId} and lower(name) = lower(${name})`;
      return row?.id;
    },

    /**
     * The ids of these names, creating the missing ones with the colour `colorOf` gives. Names are
     * distinct whatever their case (the caller makes them so); the ids come back in their order.
     */
    async ensure(organizationId: number, names: string[], colorOf: (name: string) => string): Promise<number[]> {
      if (names.length === 0) return [];
      const rows = names.map((name) => ({ organization_id: organizationId, name, color: colorOf(name) }));
      await sql`insert into tags ${sql(rows)} on conflict (organization_id, lower(name)) do nothing`;
      const found = await sql<{ id: number; key: string }[]>`
        select id, lower(name) as key from tags
        where organization_id = ${organizationId} and lower(name) in ${sql(names.map((n) => n.toLowerCase()))}`;
      const byKey = new Map(found.map((r) => [r.key, r.id]));
      return names.map((n) => byKey.get(n.toLowerCase())!);
    },

    /** Undefined when the name is taken. */
    async create(organizationId: number, name: string, color: string): Promise<Tag | undefined> {
      try {
        const [row] = await sql<TagRow[]>`
          insert into tags ${sql({ organization_id: organizationId, name, color })} returning *, 0 as link_count`;
        return toTag(row!);
      } catch (err) {
        if (isUniqueViolation(err, NAME_TAKEN)) return undefined;
        throw err;
      }
    },

    /** 'taken' when another tag has the name; undefined when there is no such tag. */
    async update(
      organizationId: number,
      id: number,
      patch: { name?: string | undefined; color?: string | undefined },
    ): Promise<Tag | 'taken' | undefined> {
      const set = {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.color === undefined ? {} : { color: patch.color }),
      };
      if (Object.keys(set).length > 0) {
        try {
          const updated = await sql`
            update tags set ${sql(set)} where id = ${id} and organization_id = ${organizationId} returning id`;
          if (updated.length === 0) return undefined;
        } catch (err) {
          if (isUniqueViolation(err, NAME_TAKEN)) return 'taken';
          throw err;
        }
      }
      return this.get(organizationId, id);
    },

    /** Takes the tag off every link of the organization, then deletes it. False when there is none. */
    async delete(organizationId: number, id: number): Promise<boolean> {
      return sql.begin(async (tx) => {
        const [tag] = await tx`
          select id from tags where id = ${id} and organization_id = ${organizationId} for update`;
        if (!tag) return false;
        for (const table of ['short_urls', 'campaigns'] as const) {
          await tx`
            update ${tx(table)} set tag_ids = array_remove(tag_ids, ${id}::bigint)
            where organization_id = ${organizationId} and ${id}::bigint = any(tag_ids)`;
        }
        await tx`delete from tags where id = ${id}`;
        return true;
      }) as Promise<boolean>;
    },
  };
}

export type TagsRepo = ReturnType<typeof createTagsRepo>;
