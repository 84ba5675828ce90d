// Service API keys: issued, looked up by hash with their organization and this month's usage in one
// query, revoked. A revoked key fails on its very next call (no cache in front of this look-up).
import { newApiKey } from '../shared/ids.js';
import { hashSecret, hashesEqual } from '../shared/secrets.js';
import type { Sql } from './postgres.js';
import { type PageRequest, pageOf } from './sql-helpers.js';
import { toOrganization, type Organization, type OrganizationRow } from './organizations.repo.js';

export interface IssuedApiKey {
  id: number;
  apiKey: string;
}

/**
 * What a key may do, as stored (`read`, `links:write`, …): no scope at all is full access. What
 * each means is the access core's (src/core/access/api-key-scopes.ts); the store keeps the names.
 */
type ApiKeyScope = string;

/** How a key is issued: a name to tell it apart, its scopes, when it stops working. */
export interface ApiKeyOptions {
  name?: string | null;
  scopes?: readonly ApiKeyScope[];
  expiresAt?: Date | null;
  /** The console member who issued it: told before it expires (otherwise the owners are). */
  createdByUserId?: number | null;
}

/** A key soon to expire whose warning this instance took on (the claim is the sent mark). */
export interface ExpiringApiKey {
  id: number;
  organizationId: number;
  name: string | null;
  prefix: string;
  expiresAt: Date;
  createdByUserId: number | null;
}

/** A live key as a list shows it: never the key, only its first characters. */
export interface ApiKeyEntry {
  id: number;
  name: string | null;
  prefix: string;
  createdAt: Date;
  /** Empty: full access. */
  scopes: ApiKeyScope[];
  expiresAt: Date | null;
}

export interface AuthenticatedKey {
  apiKeyId: number;
  scopes: ApiKeyScope[];
  /** Set when the key's expiry has passed: the caller is refused, with that reason. */
  expiredAt: Date | null;
  organization: Organization;
  /** Calls recorded in PostgreSQL for the current UTC month (not counting unflushed ones). */
  callsThisMonth: number;
}

interface EntryRow {
  id: number;
  name: string | null;
  key_prefix: string;
  created_at: Date;
  scopes: ApiKeyScope[];
  expires_at: Date | null;
}

const toEntry = (r: EntryRow): ApiKeyEntry => ({
  id: r.id,
  name: r.name,
  prefix: r.key_prefix,
  createdAt: r.created_at,
  scopes: r.scopes,
  expiresAt: r.expires_at,
});

export function createApiKeysRepo({ sql }: { sql: Sql }) {
  return {
    async issue(organizationId: number, options: ApiKeyOptions = {}): Promise<IssuedApiKey> {
      const apiKey = newApiKey();
      const [row] = await sql<{ id: number }[]>`
        insert into api_keys (organization_id, key_hash, key_prefix, name, scopes, expires_at, created_by_user_id)
        values (${organizationId}, ${hashSecret(apiKey)}, ${apiKey.slice(0, 12)}, ${options.name ?? null},
                ${[...(options.scopes ?? [])]}::text[], ${options.expiresAt ?? null}, ${options.createdByUserId ?? null})
        returning id`;
      return { id: row!.id, apiKey };
    },

    async list(organizationId: number): Promise<ApiKeyEntry[]> {
      const rows = await sql<EntryRow[]>`
        select id, name, key_prefix, created_at, scopes, expires_at from api_keys
        where organization_id = ${organizationId} and revoked_at is null order by id`;
      return rows.map(toEntry);
    },

    /** A page of the organization's live keys, oldest first. */
    page(organizationId: number, page: PageRequest) {
      return pageOf(
        sql<EntryRow[]>`
          select id, name, key_prefix, created_at, scopes, expires_at from api_keys
          where organization_id = ${organizationId} and revoked_at is null order by id
          limit ${page.size} offset ${page.page * page.size}`,
        sql<
          { n: number }[]
        >`select count(*)::int as n from api_keys where organization_id = ${organizationId} and revoked_at is null`,
        toEntry,
      );
    },

    async get(organizationId: number, keyId: number): Promise<ApiKeyEntry | undefined> {
      const [row] = await sql<EntryRow[]>`
        select id, name, key_prefix, created_at, scopes, expires_at from api_keys
        where id = ${keyId} and organization_id = ${organizationId} and revoked_at is null`;
      return row && toEntry(row);
    },

    async revoke(organizationId: number, keyId: number): Promise<boolean> {
      const rows = await sql`
        update api_keys set revoked_at = now()
        where id = ${keyId} and organization_id = ${organizationId} and revoked_at is null
        returning id`;
      return rows.length > 0;
    },

    /**
     * Marks up to `limit` live keys expiring after `now` and by `until`, not yet warned of, as warned,
     * and answers them: rows another instance is marking are skipped, so each key is taken once.
     */
    async claimExpiryNotices(now: Date, until: Date, limit: number): Promise<ExpiringApiKey[]> {
      const rows = await sql<
        {
          id: number;
          organization_id: number;
          name: string | null;
          key_prefix: string;
          expires_at: Date;
          created_by_user_id: number | null;
        }[]
      >`
        update api_keys set expiry_notified_at = ${now}
        where id in (
          select id from api_keys
          where expiry_notified_at is null and revoked_at is null and expires_at > ${now} and expires_at <= ${until}
          order by expires_at limit ${limit}
          for update skip locked)
        returning id, organization_id, name, key_prefix, expires_at, created_by_user_id`;
      return rows.map((r) => ({
        id: r.id,
        organizationId: r.organization_id,
        name: r.name,
        prefix: r.key_prefix,
        expiresAt: r.expires_at,
        createdByUserId: r.created_by_user_id,
      }));
    },

    /** Gives a claimed warning back (its mail failed), for a later round to send. */
    async releaseExpiryNotice(id: number): Promise<void> {
      await sql`update api_keys set expiry_notified_at = null where id = ${id}`;
    },

    async authenticate(apiKey: string, month: string): Promise<AuthenticatedKey | undefined> {
      const hash = hashSecret(apiKey);
      const [row] = await sql<
        (OrganizationRow & {
          key_id: number;
          key_hash: Buffer;
          key_scopes: ApiKeyScope[];
          key_expires_at: Date | null;
          key_expired: boolean;
          calls: number;
        })[]
      >`
        select k.id as key_id, k.key_hash, k.scopes as key_scopes, k.expires_at as key_expires_at,
               coalesce(k.expires_at <= now(), false) as key_expired, o.*, coalesce(u.calls, 0)::bigint as calls
        from api_keys k
        join organizations o on o.id = k.organization_id
        left join api_usage u on u.organization_id = o.id and u.month = ${month}::date
        where k.key_hash = ${hash} and k.revoked_at is null`;
      // The index found the row by hash; compare anyway in constant time, as every secret check is.
      if (!row || !hashesEqual(row.key_hash, hash)) return undefined;
      return {
        apiKeyId: row.key_id,
        scopes: row.key_scopes,
        expiredAt: row.key_expired ? row.key_expires_at : null,
        organization: toOrganization(row),
        callsThisMonth: row.calls,
      };
    },
  };
}

export type ApiKeysRepo = ReturnType<typeof createApiKeysRepo>;
