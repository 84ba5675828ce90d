// What the short URL and campaign tables have in common: a row created together with its claimed
// slug, read with its joins, listed a page at a time newest first (filtered by the criteria both
// kinds share and the kind's own), patched through a closed column list, deleted. Every statement is scoped by organization. The table is `l` in every query.
import type postgres from 'postgres';
import type { Sql } from './postgres.js';
import { insertClaimingSlug, insertManyClaimingSlugs, type SlugOwnerTable } from './slugs.js';
import { type PageRequest, pageOf, patchColumns } from './sql-helpers.js';

export type Row = Record<string, unknown> & { id: number };
type Fragment = postgres.PendingQuery<postgres.Row[]>;

export interface LinkTableSpec<F extends ManagedLinkFields, R, L extends ManagedListFilter> {
  table: SlugOwnerTable;
  /** The kind's own field → column allow-list; with the managed fields' columns, the only ones a create or a patch writes. */
  columns: Record<Exclude<keyof F, keyof ManagedLinkFields>, string>;
  /** What a record reads beyond the row, its custom domain's name and its tags' names: columns (`x.a as b, …`) and their joins. */
  joined?: { columns: Fragment; joins: Fragment };
  /** The record's parts beyond its fields and what every link record has (linkRecordOf). */
  ownOf(row: Row): Omit<R, keyof F | keyof LinkRecordParts> & Partial<F>;
  /** The kind's own list criteria as `and …` conditions on `l` (or empty); the shared ones are added. */
  ownCondition(filter: L): Fragment;
}

/** The fields of a row, read through the allow-list (absent columns read as null). */
function fieldsOf<F extends object>(row: Row, columns: Record<keyof F, string>): F {
  return Object.fromEntries(
    Object.entries(columns).map(([field, column]) => [field, row[column as string] ?? null]),
  ) as F;
}

/** A routing rule's conditions (jsonb): each present one must hold for a click (sql/postgres/0004). */
export interface RuleConditions {
  countries?: string[];
  /** ISO 3166-2 (`KR-11`); needs a GEOIP_DB that has them. */
  regions?: string[];
  /** English city names; needs a City GEOIP_DB. */
  cities?: string[];
  deviceTypes?: string[];
  os?: string[];
  /** Browser families (`Chrome`, `Samsung Internet`). */
  browsers?: string[];
  /** Referer hosts, each matching itself and its subdomains. */
  referrers?: string[];
  languages?: string[];
  /** ISO-8601 instants. */
  after?: string;
  before?: string;
  /** Parameter name → value. */
  query?: Record<string, string>;
}

export interface RoutingRule {
  conditions: RuleConditions;
  url: string;
}

export interface Variant {
  url: string;
  weight: number;
}

/** What both kinds of link carry for link management (tags, password, click limit, notes, archive, routing, conversion tracking). */
export interface ManagedLinkFields {
  /** The organization's tags, by id; the record reads their names as `tags`. */
  tagIds: number[];
  /** scrypt; null: no password. */
  passwordHash: string | null;
  clickLimit: number | null;
  clickLimitUrl: string | null;
  /** Clicks counted against clickLimit (see the migration). */
  limitClicks: number;
  expiredUrl: string | null;
  note: string | null;
  archivedAt: Date | null;
  /** In order; [] for none. */
  routingRules: RoutingRule[];
  /** [] for none. */
  variants: Variant[];
  /** The redirect appends a click id (signpost_token) to the destination (sql/postgres/0012). */
  conversionTracking: boolean;
}

const MANAGED_LINK_COLUMNS: Record<keyof ManagedLinkFields, string> = {
  tagIds: 'tag_ids',
  passwordHash: 'password_hash',
  clickLimit: 'click_limit',
  clickLimitUrl: 'click_limit_url',
  limitClicks: 'limit_clicks',
  expiredUrl: 'expired_url',
  note: 'note',
  archivedAt: 'archived_at',
  routingRules: 'routing_rules',
  variants: 'variants',
  conversionTracking: 'conversion_tracking',
};

/** Columns written as JSON (postgres.js would send an array as a PostgreSQL array). */
const JSON_COLUMNS = ['routing_rules', 'variants'];

/** One link of a createMany: its fields, columns beyond them, its custom domain and its slug. */
export interface NewLinkItem<F> {
  fields: F;
  values?: Record<string, unknown>;
  customDomain: { id: number; name: string } | null;
  code: string;
  nextCode?: (() => string) | undefined;
}

/** What both kinds' lists filter on besides their own criteria. */
export interface ManagedListFilter {
  createdAfter?: Date | undefined;
  createdBefore?: Date | undefined;
  /** Only links with this tag (null: a tag name the organization does not have, so none). */
  tagId?: number | null | undefined;
  /** true: only archived links; otherwise only those not archived. */
  archived?: boolean | undefined;
}

function managedListCondition(sql: Sql, filter: ManagedListFilter): Fragment {
  const created = sql`
    ${filter.createdAfter ? sql`and l.created_at >= ${filter.createdAfter}` : sql``}
    ${filter.createdBefore ? sql`and l.created_at <= ${filter.createdBefore}` : sql``}`;
  const tag =
    filter.tagId === undefined
      ? sql``
      : filter.tagId === null
        ? sql`and false`
        : sql`and ${filter.tagId} = any(l.tag_ids)`;
  return sql`${created} ${tag} ${filter.archived ? sql`and l.archived_at is not null` : sql`and l.archived_at is null`}`;
}

/** What every link record has besides its fields. */
function linkRecordOf(r: Row) {
  return {
    tags: (r.tag_names as string[] | undefined) ?? [],
    tagIds: ((r.tag_ids as (number | string)[] | undefined) ?? []).map(Number),
    id: r.id,
    organizationId: r.organization_id as number,
    customDomainId: (r.custom_domain_id as number | null) ?? null,
    customDomainName: (r.custom_domain_name as string | null) ?? null,
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
  };
}

type LinkRecordParts = ReturnType<typeof linkRecordOf>;

export function createLinkTable<F extends ManagedLinkFields, R, L extends ManagedListFilter>(
  sql: Sql,
  spec: LinkTableSpec<F, R, L>,
) {
  const { table } = spec;
  const columns = { ...spec.columns, ...MANAGED_LINK_COLUMNS } as Record<keyof F, string>;
  // One record's row: the link, its custom domain's name, its tags' names (alphabetically), the kind's own.
  const selectFrom = sql`
    select l.*, d.domain_name as custom_domain_name,
      array(select t.name from tags t where t.id = any(l.tag_ids) order by lower(t.name)) as tag_names
      ${spec.joined ? sql`, ${spec.joined.columns}` : sql``}
    from ${sql(table)} l left join custom_domains d on d.id = l.custom_domain_id ${spec.joined?.joins ?? sql``}`;
  const toRecord = (row: Row): R => ({ ...fieldsOf<F>(row, columns), ...linkRecordOf(row), ...spec.ownOf(row) }) as R;
  const condition = (filter: L) => sql`${spec.ownCondition(filter)} ${managedListCondition(sql, filter)}`;
  /** The columns of the fields present, JSON ones as JSON. */
  const columnsOf = (fields: Partial<F>): Record<string, unknown> => {
    const set = patchColumns(fields, columns);
    for (const column of JSON_COLUMNS) if (column in set) set[column] = sql.json(set[column] as never);
    return set;
  };
  /** Many links in a few multi-row inserts: each its id, undefined when its slug stays taken, or `{ error }`. */
  const insertMany = async (
    organizationId: number,
    items: NewLinkItem<F>[],
  ): Promise<Array<{ id: number } | undefined | { error: unknown }>> =>
    insertManyClaimingSlugs(
      sql,
      table,
      organizationId,
      items.map((item) => ({
        values: {
          ...columnsOf(item.fields),
          ...item.values,
          custom_domain_id: item.customDomain?.id ?? null,
        },
        customDomainName: item.customDomain?.name ?? null,
        code: item.code,
        nextCode: item.nextCode,
      })),
    );
  const get = async (organizationId: number, id: number): Promise<R | undefined> => {
    const [row] = await sql<Row[]>`${selectFrom} where l.id = ${id} and l.organization_id = ${organizationId}`;
    return row && toRecord(row);
  };

  return {
    get,

    /** createMany without reading the records back: each link's id (imports need no more). */
    insertMany,

    /** The organization's links of these ids (others' and unknown ids are left out). */
    async getMany(organizationId: number, ids: number[]): Promise<R[]> {
      if (ids.length === 0) return [];
      const rows = await sql<Row[]>`${selectFrom} where l.organization_id = ${organizationId} and l.id in ${sql(ids)}`;
      return rows.map(toRecord);
    },

    /**
     * Undefined when the slug is taken on that domain; a generated one (`nextCode`) is retried
     * with fresh codes first. `values` are columns beyond the fields (who created it…).
     */
    async create(input: NewLinkItem<F> & { organizationId: number }): Promise<R | undefined> {
      const inserted = await insertClaimingSlug(sql, {
        table,
        values: {
          ...columnsOf(input.fields),
          ...input.values,
          custom_domain_id: input.customDomain?.id ?? null,
        },
        organizationId: input.organizationId,
        customDomainName: input.customDomain?.name ?? null,
        code: input.code,
        nextCode: input.nextCode,
      });
      return inserted && get(input.organizationId, inserted.id);
    },

    /**
     * Many links of one organization in one transaction: each the record, undefined when its slug
     * stays taken, or `{ error }` when the database refused it. The others are created regardless.
     */
    createMany: async (
      organizationId: number,
      items: NewLinkItem<F>[],
    ): Promise<Array<R | undefined | { error: unknown }>> => {
      const inserted = await insertMany(organizationId, items);
      const ids = inserted.flatMap((r) => (r && 'id' in r ? [r.id] : []));
      const rows = ids.length === 0 ? [] : await sql<Row[]>`${selectFrom} where l.id in ${sql(ids)}`;
      const byId = new Map(rows.map((row) => [Number(row.id), toRecord(row)]));
      return inserted.map((r) => (r && 'id' in r ? byId.get(r.id) : r));
    },

    /**
     * One change to many links of the organization in one statement: tags added and taken off,
     * `set` columns written. Ids of the links changed; a link whose tags would pass `maxTags`
     * is left as it was, and so are ids the organization has no link of.
     */
    async updateMany(
      organizationId: number,
      ids: number[],
      change: { addTagIds: number[]; removeTagIds: number[]; set: Partial<F>; maxTags: number },
    ): Promise<number[]> {
      if (ids.length === 0) return [];
      const set = columnsOf(change.set);
      const tags = sql`array(
        select t from unnest(l.tag_ids || ${change.addTagIds}::bigint[]) with ordinality u(t, n)
        where t <> all(${change.removeTagIds}::bigint[]) group by t order by min(n))`;
      const where = sql`l.organization_id = ${organizationId} and l.id in ${sql(ids)}
        and cardinality(${tags}) <= ${change.maxTags}`;
      // postgres.js builds `set` columns only in the statement that says `update` itself.
      const rows =
        Object.keys(set).length > 0
          ? await sql<{ id: number }[]>`
              update ${sql(table)} l set ${sql(set)}, tag_ids = ${tags}, updated_at = now() where ${where} returning l.id`
          : await sql<{ id: number }[]>`
              update ${sql(table)} l set tag_ids = ${tags}, updated_at = now() where ${where} returning l.id`;
      return rows.map((r) => Number(r.id));
    },

    /** Deletes the organization's links of these ids; the ids deleted. */
    async deleteMany(organizationId: number, ids: number[]): Promise<number[]> {
      if (ids.length === 0) return [];
      const rows = await sql<{ id: number }[]>`
        delete from ${sql(table)} where organization_id = ${organizationId} and id in ${sql(ids)} returning id`;
      return rows.map((r) => Number(r.id));
    },

    /** Every link matching `filter`, newest first, `size` at a time (for exports). */
    async *each(organizationId: number, filter: L, size = 1000): AsyncGenerator<R[]> {
      let after: { createdAt: Date; id: number } | undefined;
      for (;;) {
        const rows = await sql<Row[]>`${selectFrom}
          where l.organization_id = ${organizationId} ${condition(filter)}
            ${after ? sql`and (l.created_at, l.id) < (${after.createdAt}, ${after.id})` : sql``}
          order by l.created_at desc, l.id desc limit ${size}`;
        if (rows.length === 0) return;
        const last = rows[rows.length - 1]!;
        after = { createdAt: last.created_at as Date, id: Number(last.id) };
        yield rows.map(toRecord);
        if (rows.length < size) return;
      }
    },

    /** A page newest first. */
    list(organizationId: number, filter: L, page: PageRequest) {
      const where = sql`l.organization_id = ${organizationId} ${condition(filter)}`;
      return pageOf(
        sql<Row[]>`${selectFrom} where ${where}
          order by l.created_at desc, l.id desc limit ${page.size} offset ${page.page * page.size}`,
        sql<{ n: number }[]>`select count(*)::bigint as n from ${sql(table)} l where ${where}`,
        toRecord,
      );
    },

    async update(organizationId: number, id: number, patch: Partial<F>): Promise<R | undefined> {
      const set = columnsOf(patch);
      if (Object.keys(set).length > 0) {
        const updated = await sql`
          update ${sql(table)} set ${sql(set)}, updated_at = now()
          where id = ${id} and organization_id = ${organizationId} returning id`;
        if (updated.length === 0) return undefined;
      }
      return get(organizationId, id);
    },

    async delete(organizationId: number, id: number): Promise<boolean> {
      const rows =
        await sql`delete from ${sql(table)} where id = ${id} and organization_id = ${organizationId} returning id`;
      return rows.length > 0;
    },
  };
}
