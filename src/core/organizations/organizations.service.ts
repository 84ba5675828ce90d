// Organizations as the operator manages them: created with their first Service API key (its
// secret returned this once and only stored hashed), further keys issued and deleted, plan and
// quota, add-ons and the Service API IP allow-list.
import type { PageLanguage } from '../../shared/language.js';
import { notFound } from '../../shared/errors.js';
import type { Plan } from '../../shared/plans.js';
import type { ApiKeyEntry, ApiKeyOptions, ApiKeysRepo, IssuedApiKey } from '../../oltp/api-keys.repo.js';
import type { Organization, OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type { Actor, AuditTrail } from '../accounts/audit-trail.js';
import { checkedKeyOptions } from './api-keys.service.js';
import { existingOrganization } from './existing-organization.js';

export type { IssuedApiKey, Organization };

export interface AddOns {
  userJourney?: boolean | undefined;
  revenueAnalytics?: boolean | undefined;
}

const OPERATOR: Actor = { type: 'operator' };

export function createOrganizationsService(deps: {
  organizations: OrganizationsRepo;
  apiKeys: ApiKeysRepo;
  audit: AuditTrail;
  /** Cached links and domains carry their organization's page language: null reloads them all. */
  linkChanged: (organizationId: number | null) => void;
  clock: () => Date;
}) {
  const { organizations, apiKeys, audit } = deps;

  async function get(id: number): Promise<Organization> {
    return existingOrganization(await organizations.get(id), id);
  }

  return {
    get,

    list: (filter: { search?: string | undefined; plan?: Plan | undefined }, page: { page: number; size: number }) =>
      organizations.list(filter, page),

    /** A page of the organization's live keys: names and first characters, never a secret. */
    async apiKeys(
      organizationId: number,
      page: { page: number; size: number },
    ): Promise<{ items: ApiKeyEntry[]; total: number }> {
      await get(organizationId);
      return apiKeys.page(organizationId, page);
    },

    async apiKey(organizationId: number, keyId: number): Promise<ApiKeyEntry> {
      await get(organizationId);
      const key = await apiKeys.get(organizationId, keyId);
      if (!key) throw notFound('API_KEY_NOT_FOUND', `API key ${keyId} does not exist`);
      return key;
    },

    /** The organization and its first key; the key's secret cannot be read again later. */
    async create(input: {
      name: string;
      plan: Plan;
      timeZone?: string | undefined;
    }): Promise<{ organization: Organization; apiKey: IssuedApiKey }> {
      const organization = await organizations.create(input);
      return { organization, apiKey: await apiKeys.issue(organization.id) };
    },

    async issueApiKey(
      organizationId: number,
      options: ApiKeyOptions = {},
      actor: Actor = OPERATOR,
    ): Promise<IssuedApiKey> {
      await get(organizationId);
      const key = await apiKeys.issue(organizationId, checkedKeyOptions(options, deps.clock()));
      await audit.record(actor, 'api_key.issued', { organizationId, target: `api_key:${key.id}` });
      return key;
    },

    /** The key fails on its very next call. */
    async revokeApiKey(organizationId: number, keyId: number, actor: Actor = OPERATOR): Promise<void> {
      await get(organizationId);
      if (!(await apiKeys.revoke(organizationId, keyId)))
        throw notFound('API_KEY_NOT_FOUND', `API key ${keyId} does not exist`);
      await audit.record(actor, 'api_key.deleted', { organizationId, target: `api_key:${keyId}` });
    },

    /** `monthlyQuota` undefined keeps the override, null returns to the plan's quota. */
    async setPlan(id: number, plan: Plan, monthlyQuota: number | null | undefined): Promise<Organization> {
      return existingOrganization(await organizations.setPlan(id, plan, monthlyQuota), id);
    },

    /** Flags left undefined keep their value. */
    async setAddOns(id: number, addOns: AddOns): Promise<Organization> {
      return existingOrganization(await organizations.setAddOns(id, addOns), id);
    },

    /** The visitor pages' language when a browser asks for none of ours; every instance picks it up at once. */
    async setDefaultLanguage(id: number, language: PageLanguage): Promise<Organization> {
      const org = existingOrganization(await organizations.setDefaultLanguage(id, language), id);
      deps.linkChanged(null);
      return org;
    },

    /** Where the organization's days end (a link's expiry given as a bare date). */
    async setTimeZone(id: number, timeZone: string): Promise<Organization> {
      return existingOrganization(await organizations.setTimeZone(id, timeZone), id);
    },

    /** Replaces the list (each entry once); an empty one allows every address. */
    async setIpAllowlist(id: number, ips: string[], actor: Actor = OPERATOR): Promise<string[]> {
      const org = existingOrganization(await organizations.setIpAllowlist(id, [...new Set(ips)]), id);
      await audit.record(actor, 'ip_allowlist.changed', {
        organizationId: id,
        details: { entries: org.ipAllowlist.length },
      });
      return org.ipAllowlist;
    },
  };
}

export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
