// Campaigns of an organization: named tracked links with an alias in the shared slug namespace,
// read together with their linked apps' names, icons and paths. Scoped by organization throughout.
import type { Sql } from './postgres.js';
import { insertClaimingSlug } from './slugs.js';
import { containsPattern, patchColumns } from './sql-helpers.js';

export interface CampaignFields {
  name: string;
  originalUrl: string;
  expiresAt: Date | null;
  iosAppId: number | null;
  androidAppId: number | null;
  utmSource: string | null;
  utmMedium: string | null;
  iosDeepLinkPath: string | null;
  androidDeepLinkPath: string | null;
  goalType: string | null;
}

interface LinkedApp {
  name: string;
  iconUrl: string | null;
  path: string;
}

export interface Campaign extends CampaignFields {
  id: number;
  organizationId: number;
  alias: string;
  customDomainId: number | null;
  customDomainName: string | null;
  createdBy: string;
  iosApp: LinkedApp | null;
  androidApp: LinkedApp | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS: Record<keyof CampaignFields, string> = {
  name: 'name',
  originalUrl: 'original_url',
  expiresAt: 'expires_at',
  iosAppId: 'ios_app_id',
  androidAppId: 'android_app_id',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  iosDeepLinkPath: 'ios_deep_link_path',
  androidDeepLinkPath: 'android_deep_link_path',
  goalType: 'goal_type',
};

type Row = Record<string, unknown> & { id: number };

function linkedApp(r: Row, prefix: 'ios' | 'android'): LinkedApp | null {
  const path = r[`${prefix}_app_path`] as string | null;
  if (!path) return null;
  return { name: r[`${prefix}_app_name`] as string, iconUrl: (r[`${prefix}_app_icon_url`] as string | null) ?? null, path };
}

function toCampaign(r: Row): Campaign {
  const fields = Object.fromEntries(Object.entries(COLUMNS).map(([field, column]) => [field, r[column] ?? null])) as unknown as CampaignFields;
  return {
    ...fields,
    id: r.id,
    organizationId: r.organization_id as number,
    alias: r.alias as string,
    customDomainId: (r.custom_domain_id as number | null) ?? null,
    customDomainName: (r.custom_domain_name as string | null) ?? null,
    createdBy: r.created_by as string,
    iosApp: linkedApp(r, 'ios'),
    androidApp: linkedApp(r, 'android'),
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
  };
}

export interface CampaignListFilter {
  search?: string | undefined;
  createdAfter?: Date | undefined;
  createdBefore?: Date | undefined;
}

export function createCampaignsRepo({ sql }: { sql: Sql }) {
  const selectFrom = sql`
    select c.*, d.domain_name as custom_domain_name,
      ia.app_name as ios_app_name, ia.app_icon_url as ios_app_icon_url, ia.path as ios_app_path,
      aa.app_name as android_app_name, aa.app_icon_url as android_app_icon_url, aa.path as android_app_path
    from campaigns c
    left join custom_domains d on d.id = c.custom_domain_id
    left join mobile_apps ia on ia.id = c.ios_app_id
    left join mobile_apps aa on aa.id = c.android_app_id`;

  const get = async (organizationId: number, id: number): Promise<Campaign | undefined> => {
    const [row] = await sql<Row[]>`${selectFrom} where c.id = ${id} and c.organization_id = ${organizationId}`;
    return row && toCampaign(row);
  };

  return {
    get,

    /** Undefined when the alias is taken on that domain (after retries, for a generated alias). */
    async create(input: {
      organizationId: number;
      fields: CampaignFields;
      createdBy: string;
      customDomain: { id: number; name: string } | null;
      alias: string;
      nextAlias?: (() => string) | undefined;
    }): Promise<Campaign | undefined> {
      const inserted = await insertClaimingSlug(sql, {
        table: 'campaigns',
        values: { ...patchColumns(input.fields, COLUMNS), created_by: input.createdBy, custom_domain_id: input.customDomain?.id ?? null },
        organizationId: input.organizationId,
        customDomainName: input.customDomain?.name ?? null,
        code: input.alias,
        nextCode: input.nextAlias,
      });
      return inserted && get(input.organizationId, inserted.id);
    },

    async list(organizationId: number, filter: CampaignListFilter, page: { page: number; size: number }) {
      const where = sql`c.organization_id = ${organizationId}
        ${filter.search ? sql`and lower(c.name || ' ' || c.alias) like ${containsPattern(filter.search)}` : sql``}
        ${filter.createdAfter ? sql`and c.created_at >= ${filter.createdAfter}` : sql``}
        ${filter.createdBefore ? sql`and c.created_at <= ${filter.createdBefore}` : sql``}`;
      const [rows, [count]] = await Promise.all([
        sql<Row[]>`${selectFrom} where ${where}
          order by c.created_at desc, c.id desc limit ${page.size} offset ${page.page * page.size}`,
        sql<{ n: number }[]>`select count(*)::bigint as n from campaigns c where ${where}`,
      ]);
      return { items: rows.map(toCampaign), total: count!.n };
    },

    async update(organizationId: number, id: number, patch: Partial<CampaignFields>): Promise<Campaign | undefined> {
      const set = patchColumns(patch, COLUMNS);
      if (Object.keys(set).length > 0) {
        const updated = await sql`
          update campaigns set ${sql(set)}, updated_at = now()
          where id = ${id} and organization_id = ${organizationId} returning id`;
        if (updated.length === 0) return undefined;
      }
      return get(organizationId, id);
    },

    async delete(organizationId: number, id: number): Promise<boolean> {
      const rows = await sql`delete from campaigns where id = ${id} and organization_id = ${organizationId} returning id`;
      return rows.length > 0;
    },
  };
}

export type CampaignsRepo = ReturnType<typeof createCampaignsRepo>;
