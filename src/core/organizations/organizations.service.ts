// Organizations as the operator manages them: created with their first Service API key (its
// secret returned this once and only stored hashed), further keys issued and deleted, plan and
// quota, add-ons and the Service API IP allow-list.
import { notFound } from '../../shared/errors.js';
import type { Plan } from '../../shared/plans.js';
import type { ApiKeysRepo, IssuedApiKey } from '../../oltp/api-keys.repo.js';
import type { Organization, OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type { Actor, AuditTrail } from '../accounts/audit-trail.js';
import { existingOrganization } from './existing-organization.js';

export type { IssuedApiKey, Organization };

export interface AddOns {
  userJourney?: boolean | undefined;
  revenueAnalytics?: boolean | undefined;
}

const OPERATOR: Actor = { type: 'operator' };

export function createOrganizationsService(deps: { organizations: OrganizationsRepo; apiKeys: ApiKeysRepo; audit: AuditTrail }) {
  const { organizations, apiKeys, audit } = deps;

  async function get(id: number): Promise<Organization> {
    return existingOrganization(await organizations.get(id), id);
  }

  return {
    get,

    /** The organization and its first key; the key's secret cannot be read again later. */
    async create(input: { name: string; plan: Plan }): Promise<{ organization: Organization; apiKey: IssuedApiKey }> {
      const organization = await organizations.create(input);
      return { organization, apiKey: await apiKeys.issue(organization.id) };
    },

    async issueApiKey(organizationId: number, actor: Actor = OPERATOR): Promise<IssuedApiKey> {
      await get(organizationId);
      const key = await apiKeys.issue(organizationId);
      await audit.record(actor, 'api_key.issued', { organizationId, target: `api_key:${key.id}` });
      return key;
    },

    /** The key fails on its very next call. */
    async revokeApiKey(organizationId: number, keyId: number, actor: Actor = OPERATOR): Promise<void> {
      await get(organizationId);
      if (!(await apiKeys.revoke(organizationId, keyId))) throw notFound('API_KEY_NOT_FOUND', `API key ${keyId} does not exist`);
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

    /** Replaces the list (each entry once); an empty one allows every address. */
    async setIpAllowlist(id: number, ips: string[], actor: Actor = OPERATOR): Promise<string[]> {
      const org = existingOrganization(await organizations.setIpAllowlist(id, [...new Set(ips)]), id);
      await audit.record(actor, 'ip_allowlist.changed', { organizationId: id, details: { entries: org.ipAllowlist.length } });
      return org.ipAllowlist;
    },
  };
}

export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
