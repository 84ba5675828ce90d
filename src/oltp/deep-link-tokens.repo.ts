// Deep-link tokens: one per phone click on a link with an app, created by the redirect, enriched
// by the landing page (fingerprint, store visit), and consumed once when the app opens with it or
// a first launch matches it. Expired tokens are purged in batches any instance may run, a day
// after they expire.
import type { Sql } from './postgres.js';
import { firstOf } from './sql-helpers.js';

export type TokenPlatform = 'IOS' | 'ANDROID';
export type TokenLinkType = 'url' | 'campaign';

export interface NewDeepLinkToken {
  token: string;
  organizationId: number;
  appId: number;
  platform: TokenPlatform;
  linkType: TokenLinkType;
  linkId: number;
  ip: string;
  ipPrefix: string;
  userAgent: string;
  os: string | null;
  osVersion: string | null;
  deviceModel: string | null;
  acceptLanguage: string | null;
  cid: string | null;
  tracker: string | null;
  /** The short code the landing page copies for a clipboard match; null unless the app turned it on. */
  clipboardCode: string | null;
  ttlSeconds: number;
}

export interface DeepLinkToken extends Omit<NewDeepLinkToken, 'ttlSeconds'> {
  resolution: string | null;
  timeZone: string | null;
  language: string | null;
  pixelRatio: number | null;
  fingerprintAt: Date | null;
  storeVisitedAt: Date | null;
  openedAt: Date | null;
  consumedAt: Date | null;
  consumedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

interface Row {
  token: string;
  organization_id: number;
  app_id: number;
  platform: TokenPlatform;
  link_type: TokenLinkType;
  short_url_id: number | null;
  campaign_id: number | null;
  ip: string;
  ip_prefix: string;
  user_agent: string;
  os: string | null;
  os_version: string | null;
  device_model: string | null;
  accept_language: string | null;
  cid: string | null;
  tracker: string | null;
  clipboard_code: string | null;
  resolution: string | null;
  time_zone: string | null;
  language: string | null;
  pixel_ratio: number | null;
  fingerprint_at: Date | null;
  store_visited_at: Date | null;
  opened_at: Date | null;
  consumed_at: Date | null;
  consumed_by: string | null;
  created_at: Date;
  expires_at: Date;
}

const toToken = (r: Row): DeepLinkToken => ({
  token: r.token,
  organizationId: r.organization_id,
  appId: r.app_id,
  platform: r.platform,
  linkType: r.link_type,
  linkId: (r.link_type === 'url' ? r.short_url_id : r.campaign_id)!,
  ip: r.ip,
  ipPrefix: r.ip_prefix,
  userAgent: r.user_agent,
  os: r.os,
  osVersion: r.os_version,
  deviceModel: r.device_model,
  acceptLanguage: r.accept_language,
  cid: r.cid,
  tracker: r.tracker,
  clipboardCode: r.clipboard_code,
  resolution: r.resolution,
  timeZone: r.time_zone,
  language: r.language,
  pixelRatio: r.pixel_ratio,
  fingerprintAt: r.fingerprint_at,
  storeVisitedAt: r.store_visited_at,
  openedAt: r.opened_at,
  consumedAt: r.consumed_at,
  consumedBy: r.consumed_by,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

export interface Fingerprint {
  resolution: string | null;
  timeZone: string | null;
  language: string | null;
  pixelRatio: number | null;
  /** Device facts from the page's user agent: each fills only a value the token does not have. */
  agent: { os: string | null; osVersion: string | null; deviceModel: string | null } | null;
}

/** Where a first launch may come from: the device's addresses, their networks, its screens. */
export interface Nearness {
  ips: string[];
  ipPrefixes: string[];
  resolutions: string[];
}

export function createDeepLinkTokensRepo({ sql }: { sql: Sql }) {
  /** Tokens from one of the device's addresses or networks, or with one of its screens. */
  const nearby = (near: Nearness) => sql`(ip = any(${near.ips}::text[]) or ip_prefix = any(${near.ipPrefixes}::text[])
    or resolution = any(${near.resolutions}::text[]))`;

  return {
    async create(t: NewDeepLinkToken): Promise<void> {
      await sql`
        insert into deep_link_tokens (token, organization_id, app_id, platform, link_type, short_url_id, campaign_id,
          ip, ip_prefix, user_agent, os, os_version, device_model, accept_language, cid, tracker, clipboard_code, expires_at)
        values (${t.token}, ${t.organizationId}, ${t.appId}, ${t.platform}, ${t.linkType},
          ${t.linkType === 'url' ? t.linkId : null}, ${t.linkType === 'campaign' ? t.linkId : null},
          ${t.ip}, ${t.ipPrefix}, ${t.userAgent}, ${t.os}, ${t.osVersion}, ${t.deviceModel}, ${t.acceptLanguage},
          ${t.cid}, ${t.tracker}, ${t.clipboardCode}, now() + make_interval(secs => ${t.ttlSeconds}))`;
    },

    /** A token as stored, expired or not (callers tell expired from unknown for the records). */
    get(token: string): Promise<DeepLinkToken | undefined> {
      return firstOf(sql<Row[]>`select * from deep_link_tokens where token = ${token}`, toToken);
    },

    /** The token a clipboard code was copied for, expired or not. */
    byClipboardCode(code: string): Promise<DeepLinkToken | undefined> {
      return firstOf(sql<Row[]>`select * from deep_link_tokens where clipboard_code = ${code}`, toToken);
    },

    /** The landing page's fingerprint; a live token only. */
    updateFingerprint(token: string, f: Fingerprint): Promise<DeepLinkToken | undefined> {
      return firstOf(
        sql<Row[]>`
          update deep_link_tokens set
            resolution = coalesce(${f.resolution}, resolution), time_zone = coalesce(${f.timeZone}, time_zone),
            language = coalesce(${f.language}, language), pixel_ratio = coalesce(${f.pixelRatio}::real, pixel_ratio),
            os = coalesce(os, ${f.agent?.os ?? null}), os_version = coalesce(os_version, ${f.agent?.osVersion ?? null}),
            device_model = coalesce(device_model, ${f.agent?.deviceModel ?? null}),
            fingerprint_at = now()
          where token = ${token} and expires_at > now()
          returning *`,
        toToken,
      );
    },

    /** The first store visit of a live token: `first` is false for a repeat. */
    async markStoreVisited(token: string): Promise<{ token: DeepLinkToken; first: boolean } | undefined> {
      const [row] = await sql<(Row & { first: boolean })[]>`
        update deep_link_tokens t set store_visited_at = coalesce(t.store_visited_at, now())
        from (select token, store_visited_at is null as first from deep_link_tokens where token = ${token} for update) old
        where t.token = old.token and t.expires_at > now()
        returning t.*, old.first`;
      return row && { token: toToken(row), first: row.first };
    },

    /**
     * The app opened with the token (deeplink/match): marked opened, and consumed so no first
     * launch elsewhere can match it. Repeats of the open answer the same token.
     */
    async open(organizationId: number, token: string): Promise<{ token: DeepLinkToken; first: boolean } | undefined> {
      const [row] = await sql<(Row & { first: boolean })[]>`
        update deep_link_tokens t set opened_at = coalesce(t.opened_at, now()),
          consumed_at = coalesce(t.consumed_at, now()), consumed_by = coalesce(t.consumed_by, 'token')
        from (select token, opened_at is null as first from deep_link_tokens where token = ${token} for update) old
        where t.token = old.token and t.organization_id = ${organizationId} and t.expires_at > now()
        returning t.*, old.first`;
      return row && { token: toToken(row), first: row.first };
    },

    /**
     * Open tokens of the app a first launch may be: from its address or network, or with its
     * screen; newest first, at most `limit`.
     */
    async candidates(appId: number, near: Nearness, limit = 200): Promise<DeepLinkToken[]> {
      const rows = await sql<Row[]>`
        select * from deep_link_tokens
        where app_id = ${appId} and consumed_at is null and expires_at > now() and ${nearby(near)}
        order by created_at desc
        limit ${limit}`;
      return rows.map(toToken);
    },

    /**
     * Live tokens of one campaign's clicks for the app, consumed or not, from the device's address
     * or network or with its screen; newest first, at most `limit`. Whose click it was, not a match
     * to hand out: nothing is consumed.
     */
    async campaignClicks(appId: number, campaignId: number, near: Nearness, limit = 50): Promise<DeepLinkToken[]> {
      const rows = await sql<Row[]>`
        select * from deep_link_tokens
        where campaign_id = ${campaignId} and app_id = ${appId} and expires_at > now() and ${nearby(near)}
        order by created_at desc
        limit ${limit}`;
      return rows.map(toToken);
    },

    /**
     * Tokens of the app near a first launch that can no longer match, newest first: consumed ones,
     * and expired ones the purge still keeps. Only read to tell a miss's reason.
     */
    async closedNear(appId: number, near: Nearness, limit = 50): Promise<DeepLinkToken[]> {
      const close = nearby(near);
      const rows = await sql<Row[]>`
        (select * from deep_link_tokens where app_id = ${appId} and consumed_at is not null and ${close}
          order by created_at desc limit ${limit})
        union all
        (select * from deep_link_tokens where app_id = ${appId} and consumed_at is null and expires_at <= now() and ${close}
          order by created_at desc limit ${limit})
        order by created_at desc
        limit ${limit}`;
      return rows.map(toToken);
    },

    /** Consumes a live, unconsumed token of the app; undefined when another call got it first. */
    consume(
      appId: number,
      token: string,
      by: 'referrer' | 'clipboard' | 'token' | 'fingerprint',
    ): Promise<DeepLinkToken | undefined> {
      return firstOf(
        sql<Row[]>`
          update deep_link_tokens set consumed_at = now(), consumed_by = ${by}
          where token = ${token} and app_id = ${appId} and consumed_at is null and expires_at > now()
          returning *`,
        toToken,
      );
    },

    /**
     * Deletes up to `batch` tokens expired more than `graceSeconds` ago (kept meanwhile so a late
     * first launch hears `expired`, not `no_candidate`); rows another instance is deleting are skipped.
     */
    async purgeExpired(batch = 5_000, graceSeconds = 86_400): Promise<number> {
      const rows = await sql`
        delete from deep_link_tokens where token in (
          select token from deep_link_tokens where expires_at < now() - make_interval(secs => ${graceSeconds})
          order by expires_at limit ${batch} for update skip locked)
        returning 1`;
      return rows.length;
    },
  };
}

export type DeepLinkTokensRepo = ReturnType<typeof createDeepLinkTokensRepo>;
