// What the redirect needs to know about a slug, in one indexed query: the short URL or campaign,
// its linked apps and, on a custom domain, that the domain is usable. The result is cached in
// memory, so it is built to be small and immutable.
import type { PageLanguage } from '../shared/language.js';
import type { RoutingRule, Variant } from './link-table.js';
import type { Sql } from './postgres.js';

export interface AppTarget {
  appId: number;
  appName: string;
  appIconUrl: string | null;
  path: string;
  scheme: string | null;
  storeUrl: string | null;
  bundleId: string;
  teamId: string | null;
  deepLinkPath: string | null;
  tokenTtlSeconds: number;
  /** The click gets a clipboard code (the app turned the clipboard match on). */
  clipboardMatch: boolean;
}

export interface ResolvedLink {
  kind: 'url' | 'campaign';
  id: number;
  organizationId: number;
  slug: string;
  domainKey: string;
  originalUrl: string;
  /** Unix ms, or null for never. */
  expiresAt: number | null;
  showAdPage: boolean;
  title: string | null;
  ogTitle: string | null;
  ogDescription: string | null;
  ogImageUrl: string | null;
  utm: {
    source: string | null;
    medium: string | null;
    campaign: string | null;
    term: string | null;
    content: string | null;
  };
  mobileTargetUrl: string | null;
  goalType: string | null;
  ios: AppTarget | null;
  android: AppTarget | null;
  /** The organization's language for visitor pages when the browser asks for none we speak. */
  language: PageLanguage;
  /** scrypt of the link's password; null: none. */
  passwordHash: string | null;
  clickLimit: number | null;
  clickLimitUrl: string | null;
  /** Clicks counted against clickLimit as PostgreSQL had them when the link was read. */
  limitClicks: number;
  /** Where clicks go after expiry instead of the 410 page. */
  expiredUrl: string | null;
  tagIds: number[];
  /** In order; [] for none. */
  routingRules: RoutingRule[];
  /** [] for none. */
  variants: Variant[];
  /** Clicks get a click id appended to the destination (signpost_token) and recorded. */
  conversionTracking: boolean;
}

type Row = Record<string, unknown>;

function appTarget(r: Row, p: 'ios' | 'android'): AppTarget | null {
  if (r[`${p}_app_id`] == null) return null;
  return {
    appId: r[`${p}_app_id`] as number,
    appName: r[`${p}_app_name`] as string,
    appIconUrl: (r[`${p}_app_icon_url`] as string | null) ?? null,
    path: r[`${p}_app_path`] as string,
    scheme: (r[`${p}_scheme`] as string | null) ?? null,
    storeUrl: (r[`${p}_store_url`] as string | null) ?? null,
    bundleId: r[`${p}_bundle_id`] as string,
    teamId: (r[`${p}_team_id`] as string | null) ?? null,
    deepLinkPath: (r[`${p}_deep_link_path`] as string | null) ?? null,
    tokenTtlSeconds: r[`${p}_token_ttl`] as number,
    clipboardMatch: r[`${p}_clipboard_match`] === true,
  };
}

const orNull = (v: unknown) => (v === undefined || v === null ? null : (v as string));

export function createLinkLookupRepo({ sql }: { sql: Sql }) {
  return {
    async findBySlug(domainKey: string, slug: string): Promise<ResolvedLink | undefined> {
      const [r] = await sql<Row[]>`
        select s.organization_id, s.short_url_id, s.campaign_id, o.default_language,
          coalesce(u.original_url, c.original_url) as original_url,
          coalesce(u.expires_at, c.expires_at) as expires_at,
          coalesce(u.show_ad_page, false) as show_ad_page,
          coalesce(u.title, c.name) as title,
          u.og_title, u.og_description, u.og_image_url,
          coalesce(u.utm_source, c.utm_source) as utm_source,
          coalesce(u.utm_medium, c.utm_medium) as utm_medium,
          u.utm_campaign, u.utm_term, u.utm_content,
          u.mobile_target_url,
          coalesce(u.goal_type, c.goal_type) as goal_type,
          coalesce(u.password_hash, c.password_hash) as password_hash,
          coalesce(u.click_limit, c.click_limit) as click_limit,
          coalesce(u.click_limit_url, c.click_limit_url) as click_limit_url,
          coalesce(u.limit_clicks, c.limit_clicks) as limit_clicks,
          coalesce(u.expired_url, c.expired_url) as expired_url,
          coalesce(u.tag_ids, c.tag_ids) as tag_ids,
          coalesce(u.routing_rules, c.routing_rules) as routing_rules,
          coalesce(u.variants, c.variants) as variants,
          coalesce(u.conversion_tracking, c.conversion_tracking, false) as conversion_tracking,
          ia.id as ios_app_id, ia.app_name as ios_app_name, ia.app_icon_url as ios_app_icon_url, ia.path as ios_app_path,
          ia.scheme as ios_scheme, ia.store_url as ios_store_url, ia.bundle_id as ios_bundle_id, ia.team_id as ios_team_id,
          ia.deep_link_token_ttl_seconds as ios_token_ttl, ia.clipboard_match as ios_clipboard_match,
          coalesce(u.ios_deep_link_path, c.ios_deep_link_path) as ios_deep_link_path,
          aa.id as android_app_id, aa.app_name as android_app_name, aa.app_icon_url as android_app_icon_url, aa.path as android_app_path,
          aa.scheme as android_scheme, aa.store_url as android_store_url, aa.bundle_id as android_bundle_id, aa.team_id as android_team_id,
          aa.deep_link_token_ttl_seconds as android_token_ttl, aa.clipboard_match as android_clipboard_match,
          coalesce(u.android_deep_link_path, c.android_deep_link_path) as android_deep_link_path
        from slugs s
        join organizations o on o.id = s.organization_id
        left join short_urls u on u.id = s.short_url_id
        left join campaigns c on c.id = s.campaign_id
        left join mobile_apps ia on ia.id = coalesce(u.ios_app_id, c.ios_app_id)
        left join mobile_apps aa on aa.id = coalesce(u.android_app_id, c.android_app_id)
        left join custom_domains d on s.domain_key <> '' and lower(d.domain_name) = s.domain_key and d.organization_id = s.organization_id
        where s.domain_key = ${domainKey} and s.code = ${slug}
          and (s.domain_key = '' or d.status in ('VERIFIED', 'ACTIVE'))`;
      if (!r) return undefined;
      const isUrl = r.short_url_id != null;
      return {
        kind: isUrl ? 'url' : 'campaign',
        id: (isUrl ? r.short_url_id : r.campaign_id) as number,
        organizationId: r.organization_id as number,
        slug,
        domainKey,
        originalUrl: r.original_url as string,
        expiresAt: r.expires_at ? (r.expires_at as Date).getTime() : null,
        showAdPage: r.show_ad_page as boolean,
        title: orNull(r.title),
        ogTitle: orNull(r.og_title),
        ogDescription: orNull(r.og_description),
        ogImageUrl: orNull(r.og_image_url),
        utm: {
          source: orNull(r.utm_source),
          medium: orNull(r.utm_medium),
          campaign: orNull(r.utm_campaign),
          term: orNull(r.utm_term),
          content: orNull(r.utm_content),
        },
        mobileTargetUrl: orNull(r.mobile_target_url),
        goalType: orNull(r.goal_type),
        ios: appTarget(r, 'ios'),
        android: appTarget(r, 'android'),
        language: r.default_language as PageLanguage,
        passwordHash: orNull(r.password_hash),
        clickLimit: r.click_limit == null ? null : Number(r.click_limit),
        clickLimitUrl: orNull(r.click_limit_url),
        limitClicks: Number(r.limit_clicks ?? 0),
        expiredUrl: orNull(r.expired_url),
        tagIds: ((r.tag_ids as (number | string)[] | null) ?? []).map(Number),
        routingRules: (r.routing_rules as RoutingRule[] | null) ?? [],
        variants: (r.variants as Variant[] | null) ?? [],
        conversionTracking: r.conversion_tracking === true,
      };
    },

    /** Every custom domain host, whether links may be served on it (VERIFIED or ACTIVE), and where its root goes. */
    async customDomainHosts(): Promise<Map<string, DomainHost>> {
      const rows = await sql<
        { host: string; usable: boolean; fallback_url: string | null; default_language: PageLanguage }[]
      >`
        select lower(d.domain_name) as host, d.status in ('VERIFIED', 'ACTIVE') as usable, d.fallback_url, o.default_language
        from custom_domains d join organizations o on o.id = d.organization_id`;
      return new Map(
        rows.map((r) => [r.host, { usable: r.usable, fallbackUrl: r.fallback_url, language: r.default_language }]),
      );
    },
  };
}

export type LinkLookupRepo = ReturnType<typeof createLinkLookupRepo>;

/** A registered custom domain as the redirect sees it. */
export interface DomainHost {
  usable: boolean;
  fallbackUrl: string | null;
  /** The owner's language for visitor pages (the 404 page on this domain). */
  language: PageLanguage;
}
