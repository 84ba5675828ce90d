// Short URLs of an organization: created with a claimed slug, listed with filters and stable
// order, updated, deleted (the slug goes with them). Every query is scoped by organization.
import type { Sql } from './postgres.js';
import { createLinkTable, type ManagedLinkFields, type ManagedListFilter } from './link-table.js';
import { containsPattern } from './sql-helpers.js';

export interface ShortUrlFields extends ManagedLinkFields {
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
  /** The names of its tags. */
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS: Record<Exclude<keyof ShortUrlFields, keyof ManagedLinkFields>, string> = {
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

export interface ShortUrlListFilter extends ManagedListFilter {
  keyword?: string | undefined;
  showAdPage?: boolean | undefined;
}

export function createShortUrlsRepo({ sql }: { sql: Sql }) {
  return createLinkTable<ShortUrlFields, ShortUrl, ShortUrlListFilter>(sql, {
    table: 'short_urls',
    columns: COLUMNS,
    ownOf: (r) => ({ showAdPage: Boolean(r.show_ad_page), shortCode: r.short_code as string }),
    ownCondition: (filter) => sql`
      ${filter.keyword ? sql`and lower(l.original_url || ' ' || l.short_code) like ${containsPattern(filter.keyword)}` : sql``}
      ${filter.showAdPage !== undefined ? sql`and l.show_ad_page = ${filter.showAdPage}` : sql``}`,
  });
}

export type ShortUrlsRepo = ReturnType<typeof createShortUrlsRepo>;
