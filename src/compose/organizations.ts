// Wires the organizations core: accounts and keys, SSO partners, notices, usage.
import type { AuditTrail } from '../core/accounts/audit-trail.js';
import {
  createApiKeysService,
  createNoticesService,
  createOrganizationsService,
  createPartnersService,
  createUsageService,
  type OrganizationServices,
} from '../core/organizations/index.js';
import { createApiKeyUsage } from '../olap/api-key-usage.queries.js';
import { createNoticesRepo } from '../oltp/notices.repo.js';
import type { SsoPartnersRepo } from '../oltp/sso-partners.repo.js';
import type { Wiring } from './wiring.js';

export function composeOrganizations({
  sql,
  clickhouse,
  repos,
  secretBox,
  clock,
  audit,
  ssoPartners,
  linkChanged,
}: Pick<Wiring, 'sql' | 'clickhouse' | 'repos' | 'secretBox' | 'clock' | 'linkChanged'> & {
  audit: AuditTrail;
  ssoPartners: SsoPartnersRepo;
}): OrganizationServices {
  const { organizations } = repos;
  const accounts = createOrganizationsService({ organizations, apiKeys: repos.apiKeys, audit, linkChanged, clock });
  return {
    accounts,
    apiKeys: createApiKeysService({
      apiKeys: repos.apiKeys,
      usage: createApiKeyUsage(clickhouse),
      audit,
      setIpAllowlist: accounts.setIpAllowlist,
      clock,
    }),
    partners: createPartnersService({ ssoPartners, organizations, secretBox, audit, clock }),
    notices: createNoticesService({ organizations, notices: createNoticesRepo({ sql }) }),
    usage: createUsageService({ usage: repos.usage, usageMeter: repos.usageMeter, clock }),
  };
}
