// Service API keys as an organization's members manage them in the console's developer menu: the
// list (names, first characters, last use), a new key shown once, a key regenerated (a new secret
// under the same name, the old one failing at once) and deleted; and the IP allow-list the keys
// are held to. Each needs keys.manage; each change is audited.
import type { ApiKeyEntry, ApiKeyOptions, ApiKeysRepo, IssuedApiKey } from '../../oltp/api-keys.repo.js';
import type { ApiKeyUsage } from '../../olap/api-key-usage.queries.js';
import { notFound } from '../../shared/errors.js';
import { invalidField } from '../field-error.js';
import type { Actor, AuditTrail } from '../accounts/audit-trail.js';
import { authorize } from '../accounts/permissions.js';
import type { Caller } from '../caller.js';

export type { ApiKeyEntry, ApiKeyOptions } from '../../oltp/api-keys.repo.js';

type KeyCaller = Pick<Caller, 'organization' | 'member'>;

/** A key issued already expired could never be used: refused, naming the field. */
export function checkedKeyOptions(options: ApiKeyOptions, now: Date): ApiKeyOptions {
  if (options.expiresAt && options.expiresAt.getTime() <= now.getTime())
    throw invalidField('expiresAt', 'must be in the future');
  return options;
}

/** The member told before a key expires: the one who issued it in the console. */
const issuerOf = (actor: Actor): number | null => (actor.type === 'user' ? actor.userId : null);

export interface ApiKeyView extends ApiKeyEntry {
  lastUsedAt: Date | null;
}

export function createApiKeysService(deps: {
  apiKeys: ApiKeysRepo;
  usage: ApiKeyUsage;
  audit: AuditTrail;
  /** The organizations core's allow-list change (audited there). */
  setIpAllowlist(organizationId: number, ips: string[], actor: Actor): Promise<string[]>;
  clock: () => Date;
}) {
  const { apiKeys, audit } = deps;

  async function existing(caller: KeyCaller, keyId: number): Promise<ApiKeyEntry> {
    const key = await apiKeys.get(caller.organization.id, keyId);
    if (!key) throw notFound('API_KEY_NOT_FOUND', `API key ${keyId} does not exist`);
    return key;
  }

  return {
    async list(caller: KeyCaller): Promise<ApiKeyView[]> {
      authorize(caller, 'keys.manage');
      const [keys, lastUsed] = await Promise.all([
        apiKeys.list(caller.organization.id),
        deps.usage.lastUsed(caller.organization.id),
      ]);
      return keys.map((k) => ({ ...k, lastUsedAt: lastUsed.get(k.id) ?? null }));
    },

    async issue(caller: KeyCaller, actor: Actor, options: ApiKeyOptions): Promise<IssuedApiKey> {
      authorize(caller, 'keys.manage');
      const key = await apiKeys.issue(caller.organization.id, {
        ...checkedKeyOptions(options, deps.clock()),
        createdByUserId: issuerOf(actor),
      });
      await audit.record(actor, 'api_key.issued', {
        organizationId: caller.organization.id,
        target: `api_key:${key.id}`,
        details: { name: options.name ?? null, scopes: options.scopes ?? [] },
      });
      return key;
    },

    /** A new secret under the same name; the old key fails from its next call. */
    async regenerate(caller: KeyCaller, actor: Actor, keyId: number): Promise<IssuedApiKey> {
      authorize(caller, 'keys.manage');
      const old = await existing(caller, keyId);
      // The same name, scopes and expiry: only the secret changes. Who holds the new secret is told of its expiry.
      const key = await apiKeys.issue(caller.organization.id, { ...old, createdByUserId: issuerOf(actor) });
      await apiKeys.revoke(caller.organization.id, keyId);
      await audit.record(actor, 'api_key.regenerated', {
        organizationId: caller.organization.id,
        target: `api_key:${key.id}`,
        details: { replaces: keyId, name: old.name },
      });
      return key;
    },

    ipAllowlist(caller: KeyCaller): string[] {
      authorize(caller, 'keys.manage');
      return caller.organization.ipAllowlist;
    },

    /** Replaces the list; an empty one allows every address. */
    setIpAllowlist(caller: KeyCaller, actor: Actor, ips: string[]): Promise<string[]> {
      authorize(caller, 'keys.manage');
      return deps.setIpAllowlist(caller.organization.id, ips, actor);
    },

    async delete(caller: KeyCaller, actor: Actor, keyId: number): Promise<void> {
      authorize(caller, 'keys.manage');
      await existing(caller, keyId);
      await apiKeys.revoke(caller.organization.id, keyId);
      await audit.record(actor, 'api_key.deleted', {
        organizationId: caller.organization.id,
        target: `api_key:${keyId}`,
      });
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
