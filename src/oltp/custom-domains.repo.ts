// Custom domains: created by the operator, verified by DNS (a later job), read by the Service API.
import type { Sql } from './postgres.js';
import { containsPattern } from './sql-helpers.js';

export const DOMAIN_STATUSES = ['PENDING', 'VERIFIED', 'ACTIVE', 'FAILED', 'REVOKED'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** Sortable fields (the API's names) and their columns: a closed list, never request text. */
export const SORT_COLUMNS = { createdAt: 'created_at', domainName: 'domain_name', status: 'status' } as const;
export type DomainSortField = keyof typeof SORT_COLUMNS;

export interface CustomDomain {
  id: number;
  organizationId: number;
  organizationName: string;
  domainName: string;
  status: DomainStatus;
  cnameRecordName: string | null;
  cnameRecordValue: string | null;
  createdAt: Date;
  deletionRequested: boolean;
  deletionRequestedAt: Date | null;
}

interface Row {
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
}

const toDomain = (r: Row): CustomDomain => ({
  id: r.id,
  organizationId: r.organization_id,
  organizationName: r.organization_name,
  domainName: r.domain_name,
  status: r.status,
  cnameRecordName: r.cname_record_name,
  cnameRecordValue: r.cname_record_value,
  createdAt: r.created_at,
  deletionRequested: r.deletion_requested,
  deletionRequestedAt: r.deletion_requested_at,
});

export function createCustomDomainsRepo({ sql }: { sql: Sql }) {
  const selectById = (id: number) => sql<Row[]>`
    select d.*, o.name as organization_name
    from custom_domains d join organizations o on o.id = d.organization_id
    where d.id = ${id}`;

  return {
    /** Undefined when the name is taken (by any organization). */
    async create(input: {
      organizationId: number;
      domainName: string;
      cnameRecordName: string | null;
      cnameRecordValue: string | null;
    }): Promise<CustomDomain | undefined> {
      const [inserted] = await sql<{ id: number }[]>`
        insert into custom_domains (organization_id, domain_name, cname_record_name, cname_record_value)
        values (${input.organizationId}, ${input.domainName}, ${input.cnameRecordName}, ${input.cnameRecordValue})
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
        select d.*, o.name as organization_name
        from custom_domains d join organizations o on o.id = d.organization_id
        where d.id = ${id} and d.organization_id = ${organizationId}`;
      return row && toDomain(row);
    },

    async list(
      organizationId: number,
      filter: { search?: string | undefined; status?: DomainStatus | undefined },
      order: { field: DomainSortField; direction: 'asc' | 'desc' },
      page: { page: number; size: number },
    ): Promise<{ items: CustomDomain[]; total: number }> {
      const where = sql`d.organization_id = ${organizationId}
        ${filter.search ? sql`and lower(d.domain_name) like ${containsPattern(filter.search)}` : sql``}
        ${filter.status ? sql`and d.status = ${filter.status}` : sql``}`;
      const column = sql(SORT_COLUMNS[order.field]);
      const direction = order.direction === 'asc' ? sql`asc` : sql`desc`;
      const [rows, [count]] = await Promise.all([
        sql<Row[]>`
          select d.*, o.name as organization_name
          from custom_domains d join organizations o on o.id = d.organization_id
          where ${where}
          order by d.${column} ${direction}, d.id ${direction}
          limit ${page.size} offset ${page.page * page.size}`,
        sql<{ n: number }[]>`select count(*)::bigint as n from custom_domains d where ${where}`,
      ]);
      return { items: rows.map(toDomain), total: count!.n };
    },

    /** VERIFIED and ACTIVE domains: the ones links may use. */
    async listUsable(organizationId: number): Promise<CustomDomain[]> {
      const rows = await sql<Row[]>`
        select d.*, o.name as organization_name
        from custom_domains d join organizations o on o.id = d.organization_id
        where d.organization_id = ${organizationId} and d.status in ('VERIFIED', 'ACTIVE')
        order by d.created_at desc, d.id desc`;
      return rows.map(toDomain);
    },

    async findUsableByName(organizationId: number, domainName: string): Promise<CustomDomain | undefined> {
      const [row] = await sql<Row[]>`
        select d.*, o.name as organization_name
        from custom_domains d join organizations o on o.id = d.organization_id
        where d.organization_id = ${organizationId} and lower(d.domain_name) = ${domainName.toLowerCase()}
          and d.status in ('VERIFIED', 'ACTIVE')`;
      return row && toDomain(row);
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
