// Short URLs of an organization: created with a claimed slug, listed with filters and stable
// order, updated, deleted (the slug goes with them). Every query is scoped by organization.
import type { Sql } from './postgres.js';
import { insertClaimingSlug } from './slugs.js';
import { containsPattern, patchColumns } from './sql-helpers.js';

export interface ShortUrlFields {
  originalUrl: string;
  title: string | null;
  expiresAt: Date | null;
  showAdPage: boolean;
  ogTitle: string | null;
  ogDescription: string | null;
  ogImageUrl: string | null;
  iosAppId: number | null;
  androidAppId: number | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  iosDeepLinkPath: string | null;
  androidDeepLinkPath: string | null;
  mobileTargetUrl: string | null;
  goalType: string | null;
}

export interface ShortUrl extends ShortUrlFields {
  id: number;
  organizationId: number;
  shortCode: string;
  customDomainId: number | null;
  customDomainName: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS: Record<keyof ShortUrlFields, string> = {
  originalUrl: 'original_url',
  title: 'title',
  expiresAt: 'expires_at',
  showAdPage: 'show_ad_page',
  ogTitle: 'og_title',
  ogDescription: 'og_description',
  ogImageUrl: 'og_image_url',
  iosAppId: 'ios_app_id',
  androidAppId: 'android_app_id',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  utmTerm: 'utm_term',
  utmContent: 'utm_content',
  iosDeepLinkPath: 'ios_deep_link_path',
  androidDeepLinkPath: 'android_deep_link_path',
  mobileTargetUrl: 'mobile_target_url',
  goalType: 'goal_type',
};

type Row = Record<string, unknown> & { id: number; custom_domain_name: string | null };

function toShortUrl(r: Row): ShortUrl {
  const fields = Object.fromEntries(Object.entries(COLUMNS).map(([field, column]) => [field, r[column] ?? null])) as unknown as ShortUrlFields;
  return {
    ...fields,
    showAdPage: Boolean(r.show_ad_page),
    id: r.id,
    organizationId: r.organization_id as number,
    shortCode: r.short_code as string,
    customDomainId: (r.custom_domain_id as number | null) ?? null,
    customDomainName: r.custom_domain_name,
    createdAt: r.created_at as Date,
    updatedAt: r.updated_at as Date,
  };
}

export interface ShortUrlListFilter {
  keyword?: string | undefined;
  showAdPage?: boolean | undefined;
  createdAfter?: Date | undefined;
  createdBefore?: Date | undefined;
}

export type CreateResult = { created: true; shortUrl: ShortUrl } | { created: false; reason: 'slug_taken' };

export function createShortUrlsRepo({ sql }: { sql: Sql }) {
  const selectOne = (organizationId: number, id: number) => sql<Row[]>`
    select u.*, d.domain_name as custom_domain_name
    from short_urls u left join custom_domains d on d.id = u.custom_domain_id
    where u.id = ${id} and u.organization_id = ${organizationId}`;

  return {
    /** Creates the link with its slug; a generated code (`nextCode`) is retried on a clash. */
    async create(input: {
      organizationId: number;
      fields: ShortUrlFields;
      customDomain: { id: number; name: string } | null;
      code: string;
      nextCode?: () => string;
    }): Promise<CreateResult> {
      const inserted = await insertClaimingSlug(sql, {
        table: 'short_urls',
        values: { ...patchColumns(input.fields, COLUMNS), custom_domain_id: input.customDomain?.id ?? null },
        organizationId: input.organizationId,
        customDomainName: input.customDomain?.name ?? null,
        code: input.code,
        nextCode: input.nextCode,
      });
      if (!inserted) return { created: false, reason: 'slug_taken' };
      const [row] = await selectOne(input.organizationId, inserted.id);
      return { created: true, shortUrl: toShortUrl(row!) };
    },

    async get(organizationId: number, id: number): Promise<ShortUrl | undefined> {
      const [row] = await selectOne(organizationId, id);
      return row && toShortUrl(row);
    },

    async list(organizationId: number, filter: ShortUrlListFilter, page: { page: number; size: number }) {
      const where = sql`u.organization_id = ${organizationId}
        ${filter.keyword ? sql`and lower(u.original_url || ' ' || u.short_code) like ${containsPattern(filter.keyword)}` : sql``}
        ${filter.showAdPage !== undefined ? sql`and u.show_ad_page = ${filter.showAdPage}` : sql``}
        ${filter.createdAfter ? sql`and u.created_at >= ${filter.createdAfter}` : sql``}
        ${filter.createdBefore ? sql`and u.created_at <= ${filter.createdBefore}` : sql``}`;
      const [rows, [count]] = await Promise.all([
        sql<Row[]>`
          select u.*, d.domain_name as custom_domain_name
          from short_urls u left join custom_domains d on d.id = u.custom_domain_id
          where ${where}
          order by u.created_at desc, u.id desc
          limit ${page.size} offset ${page.page * page.size}`,
        sql<{ n: number }[]>`select count(*)::bigint as n from short_urls u where ${where}`,
      ]);
      return { items: rows.map(toShortUrl), total: count!.n };
    },

    async update(organizationId: number, id: number, patch: Partial<ShortUrlFields>): Promise<ShortUrl | undefined> {
      const set = patchColumns(patch, COLUMNS);
      if (Object.keys(set).length > 0) {
        const updated = await sql`
          update short_urls set ${sql(set)}, updated_at = now()
          where id = ${id} and organization_id = ${organizationId} returning id`;
        if (updated.length === 0) return undefined;
      }
      return this.get(organizationId, id);
    },

    async delete(organizationId: number, id: number): Promise<boolean> {
      const rows = await sql`delete from short_urls where id = ${id} and organization_id = ${organizationId} returning id`;
      return rows.length > 0;
    },
  };
}

export type ShortUrlsRepo = ReturnType<typeof createShortUrlsRepo>;
