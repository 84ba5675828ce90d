// Custom domains: created by the operator, verified by DNS (a later job), read by the Service API.
import type { SecretBox } from '../shared/secret-box.js';
import type { Sql } from './postgres.js';
import { creatorName, type CreatorColumns } from './record-creators.js';
import { containsPattern, type PageRequest, pageOf } from './sql-helpers.js';

export const DOMAIN_STATUSES = ['PENDING', 'VERIFIED', 'ACTIVE', 'FAILED', 'REVOKED'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** Sortable fields (the API's names) and their columns: a closed list, never request text. */
export const SORT_COLUMNS = { createdAt: 'created_at', domainName: 'domain_name', status: 'status' } as const;
export type DomainSortField = keyof typeof SORT_COLUMNS;

export interface CustomDomain {
  id: number;
  organizationId: number;
  organizationName: string;
  /** Who registered it: the console member's name (or address); the organization's name for the operator's. */
  ownerUsername: string;
  domainName: string;
  status: DomainStatus;
  cnameRecordName: string | null;
  cnameRecordValue: string | null;
  createdAt: Date;
  deletionRequested: boolean;
  deletionRequestedAt: Date | null;
  /** Where the domain's bare root sends a visitor; null: the 404 page. */
  fallbackUrl: string | null;
}

interface Row extends CreatorColumns {
  id: number;
  organization_id: number;
  organization_name: string;
  domain_name: string;
  status: DomainStatus;
  cname_record_name: string | null;
  cname_record_value: string | null;
  created_at: Date;
  deletion_requested: boolean;
  deletion_requested_at: Date | null;
  fallback_url: string | null;
}

const toRecord = (r: Row, secretBox: SecretBox): CustomDomain => ({
  id: r.id,
  organizationId: r.organization_id,
  organizationName: r.organization_name,
  ownerUsername: creatorName(r, secretBox, r.organization_name),
  domainName: r.domain_name,
  status: r.status,
  cnameRecordName: r.cname_record_name,
  cnameRecordValue: r.cname_record_value,
  createdAt: r.created_at,
  deletionRequested: r.deletion_requested,
  deletionRequestedAt: r.deletion_requested_at,
  fallbackUrl: r.fallback_url,
});

export interface DomainListFilter {
  /** Undefined: every organization's (the operator's list). */
  organizationId?: number | undefined;
  search?: string | undefined;
  status?: DomainStatus | undefined;
  deletionRequested?: boolean | undefined;
}

export function createCustomDomainsRepo({ sql, secretBox }: { sql: Sql; secretBox: SecretBox }) {
  /** Every read: the domain, its organization's name, and its creator's sealed name and address. */
  const selectFrom = sql`
    select d.*, o.name as organization_name, u.name_sealed as creator_name_sealed, u.email_sealed as creator_email_sealed
    from custom_domains d join organizations o on o.id = d.organization_id
    left join users u on u.id = d.created_by_user_id`;
  const toDomain = (r: Row) => toRecord(r, secretBox);
  const selectById = (id: number) => sql<Row[]>`${selectFrom} where d.id = ${id}`;

  return {
    /** Undefined when the name is taken (by any organization). */
    async create(input: {
      organizationId: number;
      domainName: string;
      cnameRecordName: string | null;
      cnameRecordValue: string | null;
      /** The console member who registered it; null for the operator. */
      createdByUserId: number | null;
    }): Promise<CustomDomain | undefined> {
      const [inserted] = await sql<{ id: number }[]>`
        insert into custom_domains (organization_id, domain_name, cname_record_name, cname_record_value, created_by_user_id)
        values (${input.organizationId}, ${input.domainName}, ${input.cnameRecordName}, ${input.cnameRecordValue}, ${input.createdByUserId})
        on conflict do nothing
        returning id`;
      if (!inserted) return undefined;
      const [row] = await selectById(inserted.id);
      return toDomain(row!);
    },

    async get(id: number): Promise<CustomDomain | undefined> {
      const [row] = await selectById(id);
      return row && toDomain(row);
    },

    /** The organization's domain by id; another organization's id is simply not found. */
    async getForOrganization(organizationId: number, id: number): Promise<CustomDomain | undefined> {
      const [row] = await sql<Row[]>`
        ${selectFrom}
        where d.id = ${id} and d.organization_id = ${organizationId}`;
      return row && toDomain(row);
    },

    /** One organization's domains, or (organizationId undefined: the operator) every organization's. */
    async list(
      filter: DomainListFilter,
      order: { field: DomainSortField; direction: 'asc' | 'desc' },
      page: PageRequest,
    ): Promise<{ items: CustomDomain[]; total: number }> {
      const where = sql`true
        ${filter.organizationId === undefined ? sql`` : sql`and d.organization_id = ${filter.organizationId}`}
        ${filter.search ? sql`and lower(d.domain_name) like ${containsPattern(filter.search)}` : sql``}
        ${filter.status ? sql`and d.status = ${filter.status}` : sql``}
        ${filter.deletionRequested === undefined ? sql`` : sql`and d.deletion_requested = ${filter.deletionRequested}`}`;
      const column = sql(SORT_COLUMNS[order.field]);
      const direction = order.direction === 'asc' ? sql`asc` : sql`desc`;
      return pageOf(
        sql<Row[]>`
          ${selectFrom}
          where ${where}
          order by d.${column} ${direction}, d.id ${direction}
          limit ${page.size} offset ${page.page * page.size}`,
        sql<{ n: number }[]>`select count(*)::bigint as n from custom_domains d where ${where}`,
        toDomain,
      );
    },

    /** VERIFIED and ACTIVE domains: the ones links may use. */
    async listUsable(organizationId: number): Promise<CustomDomain[]> {
      const rows = await sql<Row[]>`
        ${selectFrom}
        where d.organization_id = ${organizationId} and d.status in ('VERIFIED', 'ACTIVE')
        order by d.created_at desc, d.id desc`;
      return rows.map(toDomain);
    },

    async findUsableByName(organizationId: number, domainName: string): Promise<CustomDomain | undefined> {
      const [row] = await sql<Row[]>`
        ${selectFrom}
        where d.organization_id = ${organizationId} and lower(d.domain_name) = ${domainName.toLowerCase()}
          and d.status in ('VERIFIED', 'ACTIVE')`;
      return row && toDomain(row);
    },

    /** Asks for the domain's deletion (the first request's time is kept) or withdraws the request. */
    async setDeletionRequested(
      organizationId: number,
      id: number,
      requested: boolean,
    ): Promise<CustomDomain | undefined> {
      const updated = await sql`
        update custom_domains set deletion_requested = ${requested},
          deletion_requested_at = case when ${requested}::boolean then coalesce(deletion_requested_at, now()) else null end
        where id = ${id} and organization_id = ${organizationId} returning id`;
      if (updated.length === 0) return undefined;
      const [row] = await selectById(id);
      return row && toDomain(row);
    },

    async setFallbackUrl(id: number, url: string | null): Promise<CustomDomain | undefined> {
      const updated = await sql`update custom_domains set fallback_url = ${url} where id = ${id} returning id`;
      if (updated.length === 0) return undefined;
      const [row] = await selectById(id);
      return row && toDomain(row);
    },

    /**
     * Deletes the domain unless links still live on it: then nothing is deleted and their counts
     * say why. Undefined when there is no such domain.
     */
    async delete(
      id: number,
    ): Promise<{ deleted: true } | { deleted: false; shortUrls: number; campaigns: number } | undefined> {
      const [row] = await sql<{ id: number | null; short_urls: number; campaigns: number; present: boolean }[]>`
        with counts as (
          select (select count(*)::int from short_urls where custom_domain_id = ${id}) as short_urls,
                 (select count(*)::int from campaigns where custom_domain_id = ${id}) as campaigns
        ), gone as (
          delete from custom_domains where id = ${id}
            and (select short_urls + campaigns from counts) = 0
          returning id
        )
        select (select id from gone) as id, short_urls, campaigns,
          exists (select 1 from custom_domains where id = ${id}) as present
        from counts`;
      const r = row!;
      if (r.id !== null) return { deleted: true };
      if (!r.present) return undefined;
      return { deleted: false, shortUrls: r.short_urls, campaigns: r.campaigns };
    },

    async setStatus(id: number, status: DomainStatus): Promise<CustomDomain | undefined> {
      const updated = await sql`
        update custom_domains set status = ${status}, status_changed_at = now(), verification_failures = 0
        where id = ${id} returning id`;
      if (updated.length === 0) return undefined;
      const [row] = await selectById(id);
      return row && toDomain(row);
    },
  };
}

export type CustomDomainsRepo = ReturnType<typeof createCustomDomainsRepo>;
