// Wires the organizations core: accounts and keys, SSO partners, notices, usage.
import {
  createNoticesService,
  createOrganizationsService,
  createPartnersService,
  createUsageService,
  type OrganizationServices,
} from '../core/organizations/index.js';
import { createNoticesRepo } from '../oltp/notices.repo.js';
import { createSsoPartnersRepo } from '../oltp/sso-partners.repo.js';
import type { Wiring } from './wiring.js';

export function composeOrganizations({ sql, repos, secretBox, clock }: Pick<Wiring, 'sql' | 'repos' | 'secretBox' | 'clock'>): OrganizationServices {
  const { organizations } = repos;
  return {
    accounts: createOrganizationsService({ organizations, apiKeys: repos.apiKeys }),
    partners: createPartnersService({ ssoPartners: createSsoPartnersRepo({ sql }), secretBox }),
    notices: createNoticesService({ organizations, notices: createNoticesRepo({ sql }) }),
    usage: createUsageService({ usage: repos.usage, usageMeter: repos.usageMeter, clock }),
  };
}
