// Mobile apps (iOS or Android) of an organization: deep-link settings, the URL namespace (path)
// and the mobile SDK key. Every query is scoped by organization.
import { randomBase62 } from '../shared/ids.js';
import type { SecretBox } from '../shared/secret-box.js';
import { slugOf } from '../shared/slug.js';
import { hashesEqual, hashSecret } from '../shared/secrets.js';
import type { Sql } from './postgres.js';
import { containsPattern, isUniqueViolation, type PageRequest, pageOf, patchColumns } from './sql-helpers.js';

export type Platform = 'IOS' | 'ANDROID';

/** The settings an organization gives an app. */
export interface MobileAppInput {
  platform: Platform;
  appName: string;
  bundleId: string;
  teamId: string | null;
  scheme: string | null;
  storeUrl: string | null;
  appIconUrl: string | null;
  sha256CertFingerprints: string[];
  deepLinkTokenTtlSeconds?: number | undefined;
  /** iOS: the landing page's store button copies a code the app reads at first launch (opt-in). */
  clipboardMatch?: boolean | undefined;
}

/** An app as stored: its settings plus what the service generates (path, SDK key) and keeps. */
export interface MobileApp extends Omit<MobileAppInput, 'deepLinkTokenTtlSeconds' | 'clipboardMatch'> {
  id: number;
  organizationId: number;
  path: string;
  apiKey: string;
  deepLinkTokenTtlSeconds: number;
  clipboardMatch: boolean;
  /**
   * When the app's identity secret was issued; null while identity verification is off. The secret
   * itself is read only where a hash is checked (identityVerifiers).
   */
  identitySecretIssuedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An app of an organization that requires verified identities, with its identity secret. */
export interface IdentityVerifier {
  appId: number;
  secret: string;
}

interface Row {
  id: number;
  organization_id: number;
  platform: Platform;
  app_name: string;
  bundle_id: string;
  team_id: string | null;
  scheme: string | null;
  store_url: string | null;
  app_icon_url: string | null;
  path: string;
  api_key_sealed: string;
  sha256_cert_fingerprints: string[];
  deep_link_token_ttl_seconds: number;
  clipboard_match: boolean;
  identity_secret_issued_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** Columns a patch may set, keyed by the field name callers use. */
const PATCHABLE = {
  platform: 'platform',
  appName: 'app_name',
  bundleId: 'bundle_id',
  teamId: 'team_id',
  scheme: 'scheme',
  storeUrl: 'store_url',
  appIconUrl: 'app_icon_url',
  sha256CertFingerprints: 'sha256_cert_fingerprints',
  deepLinkTokenTtlSeconds: 'deep_link_token_ttl_seconds',
  clipboardMatch: 'clipboard_match',
} as const;

export type MobileAppPatch = Partial<Pick<MobileAppInput, keyof typeof PATCHABLE>>;

/** Readable, lowercase namespace from the app name plus a short random suffix: `acme-shop-x7k2`. */
function appPathFor(appName: string): string {
  const stem = slugOf(appName, 24);
  const suffix = randomBase62(6).toLowerCase();
  return stem ? `${stem}-${suffix}` : `app-${suffix}`;
}

export function createMobileAppsRepo({ sql, secretBox }: { sql: Sql; secretBox: SecretBox }) {
  const toApp = (r: Row): MobileApp => ({
    id: r.id,
    organizationId: r.organization_id,
    platform: r.platform,
    appName: r.app_name,
    bundleId: r.bundle_id,
    teamId: r.team_id,
    scheme: r.scheme,
    storeUrl: r.store_url,
    appIconUrl: r.app_icon_url,
    path: r.path,
    apiKey: secretBox.open(r.api_key_sealed),
    sha256CertFingerprints: r.sha256_cert_fingerprints,
    deepLinkTokenTtlSeconds: r.deep_link_token_ttl_seconds,
    clipboardMatch: r.clipboard_match,
    identitySecretIssuedAt: r.identity_secret_issued_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });

  return {
    async create(organizationId: number, input: MobileAppInput): Promise<MobileApp> {
      const apiKey = `spm_${randomBase62(32)}`;
      // The random suffix makes a clash rare; retry the few times it happens.
      for (let attempt = 0; ; attempt++) {
        try {
          const [row] = await sql<Row[]>`
            insert into mobile_apps (organization_id, platform, app_name, bundle_id, team_id, scheme, store_url,
              app_icon_url, path, api_key_sealed, api_key_hash, sha256_cert_fingerprints, deep_link_token_ttl_seconds,
              clipboard_match)
            values (${organizationId}, ${input.platform}, ${input.appName}, ${input.bundleId}, ${input.teamId},
              ${input.scheme}, ${input.storeUrl}, ${input.appIconUrl}, ${appPathFor(input.appName)},
              ${secretBox.seal(apiKey)}, ${hashSecret(apiKey)}, ${input.sha256CertFingerprints}::text[],
              ${input.deepLinkTokenTtlSeconds ?? 7200}, ${input.clipboardMatch ?? false})
            returning *`;
          return toApp(row!);
        } catch (err) {
          if (!isUniqueViolation(err, 'mobile_apps_path_key') || attempt >= 5) throw err;
        }
      }
    },

    async get(organizationId: number, id: number): Promise<MobileApp | undefined> {
      const [row] = await sql<
        Row[]
      >`select * from mobile_apps where id = ${id} and organization_id = ${organizationId}`;
      return row && toApp(row);
    },

    async getMany(organizationId: number, ids: number[]): Promise<Map<number, MobileApp>> {
      if (ids.length === 0) return new Map();
      const rows = await sql<Row[]>`
        select * from mobile_apps where organization_id = ${organizationId} and id = any(${ids}::bigint[])`;
      return new Map(rows.map((r) => [r.id, toApp(r)]));
    },

    list(organizationId: number, options: PageRequest & { search?: string | undefined }) {
      const pattern = options.search ? containsPattern(options.search) : null;
      const filter = sql`organization_id = ${organizationId}
        ${pattern ? sql`and lower(app_name) like ${pattern}` : sql``}`;
      return pageOf(
        sql<Row[]>`select * from mobile_apps where ${filter}
          order by created_at desc, id desc limit ${options.size} offset ${options.page * options.size}`,
        sql<{ n: number }[]>`select count(*)::bigint as n from mobile_apps where ${filter}`,
        toApp,
      );
    },

    async update(organizationId: number, id: number, patch: MobileAppPatch): Promise<MobileApp | undefined> {
      const set = patchColumns(patch, PATCHABLE);
      if (Object.keys(set).length === 0) return this.get(organizationId, id);
      const [row] = await sql<Row[]>`
        update mobile_apps set ${sql(set)}, updated_at = now()
        where id = ${id} and organization_id = ${organizationId} returning *`;
      return row && toApp(row);
    },

    /**
     * The SDK's look-up: an app by its public id alone (web SDK, no secret) or by id and key (mobile
     * SDK). The key is compared by hash in constant time; a wrong key and an unknown id look alike.
     */
    async authenticate(appId: number, apiKey: string | null): Promise<MobileApp | undefined> {
      const [row] = await sql<(Row & { api_key_hash: Buffer })[]>`select * from mobile_apps where id = ${appId}`;
      if (!row) return undefined;
      if (apiKey !== null && !hashesEqual(hashSecret(apiKey), row.api_key_hash)) return undefined;
      return toApp(row);
    },

    /**
     * Turns identity verification on, or rotates its secret: a new random secret replaces the old
     * one at once. Returns the app and the plaintext secret, which the caller shows this once.
     */
    async issueIdentitySecret(
      organizationId: number,
      id: number,
    ): Promise<{ app: MobileApp; secret: string } | undefined> {
      const secret = `spi_${randomBase62(43)}`;
      const [row] = await sql<Row[]>`
        update mobile_apps set identity_secret_sealed = ${secretBox.seal(secret)}, identity_secret_issued_at = now(), updated_at = now()
        where id = ${id} and organization_id = ${organizationId} returning *`;
      return row && { app: toApp(row), secret };
    },

    /** A new mobile SDK key for the app; the old one fails from its next call. */
    async regenerateApiKey(organizationId: number, id: number): Promise<MobileApp | undefined> {
      const apiKey = `spm_${randomBase62(32)}`;
      const [row] = await sql<Row[]>`
        update mobile_apps set api_key_sealed = ${secretBox.seal(apiKey)}, api_key_hash = ${hashSecret(apiKey)}, updated_at = now()
        where id = ${id} and organization_id = ${organizationId} returning *`;
      return row && toApp(row);
    },

    /** Turns identity verification off (the secret is forgotten). */
    async clearIdentitySecret(organizationId: number, id: number): Promise<MobileApp | undefined> {
      const [row] = await sql<Row[]>`
        update mobile_apps set identity_secret_sealed = null, identity_secret_issued_at = null, updated_at = now()
        where id = ${id} and organization_id = ${organizationId} returning *`;
      return row && toApp(row);
    },

    /** The organization's apps that require verified identities, with their secrets opened. */
    async identityVerifiers(organizationId: number): Promise<IdentityVerifier[]> {
      const rows = await sql<{ id: number; identity_secret_sealed: string }[]>`
        select id, identity_secret_sealed from mobile_apps
        where organization_id = ${organizationId} and identity_secret_sealed is not null`;
      return rows.map((r) => ({ appId: r.id, secret: secretBox.open(r.identity_secret_sealed) }));
    },

    /** Ids of the organization's short URLs and campaigns that link the app. */
    async linkedLinkIds(organizationId: number, id: number): Promise<{ urlIds: number[]; campaignIds: number[] }> {
      const rows = await sql<{ kind: 'url' | 'campaign'; id: number }[]>`
        select 'url' as kind, id from short_urls where organization_id = ${organizationId} and (ios_app_id = ${id} or android_app_id = ${id})
        union all
        select 'campaign', id from campaigns where organization_id = ${organizationId} and (ios_app_id = ${id} or android_app_id = ${id})`;
      return {
        urlIds: rows.filter((r) => r.kind === 'url').map((r) => r.id),
        campaignIds: rows.filter((r) => r.kind === 'campaign').map((r) => r.id),
      };
    },

    /** Whether any short URL or campaign of the organization links the app. */
    async isLinked(organizationId: number, id: number): Promise<boolean> {
      const [row] = await sql<{ linked: boolean }[]>`
        select exists (select 1 from short_urls where organization_id = ${organizationId} and (ios_app_id = ${id} or android_app_id = ${id}))
            or exists (select 1 from campaigns where organization_id = ${organizationId} and (ios_app_id = ${id} or android_app_id = ${id}))
          as linked`;
      return row!.linked;
    },

    /** Links that pointed at the app keep working without it (their app ids become null). */
    async delete(organizationId: number, id: number): Promise<boolean> {
      const rows =
        await sql`delete from mobile_apps where id = ${id} and organization_id = ${organizationId} returning id`;
      return rows.length > 0;
    },
  };
}

export type MobileAppsRepo = ReturnType<typeof createMobileAppsRepo>;
