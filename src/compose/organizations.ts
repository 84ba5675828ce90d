// Wires the organizations core: accounts and keys, SSO partners, notices, usage.
import {
  createNoticesService,
  createOrganizationsService,
  createPartnersService,
  createUsageService,
  type OrganizationServices,
} from '../core/organizations/index.js';
import type { ApiKeysRepo } from '../oltp/api-keys.repo.js';
import type { NoticesRepo } from '../oltp/notices.repo.js';
import type { OrganizationsRepo } from '../oltp/organizations.repo.js';
import type { SsoPartnersRepo } from '../oltp/sso-partners.repo.js';
import type { UsageMeter } from '../oltp/usage-meter.js';
import type { UsageRepo } from '../oltp/usage.repo.js';
import type { SecretBox } from '../shared/secret-box.js';

export function composeOrganizations(ctx: {
  organizations: OrganizationsRepo;
  apiKeys: ApiKeysRepo;
  notices: NoticesRepo;
  ssoPartners: SsoPartnersRepo;
  usage: UsageRepo;
  usageMeter: UsageMeter;
  secretBox: SecretBox;
  clock: () => Date;
}): OrganizationServices {
  return {
    accounts: createOrganizationsService({ organizations: ctx.organizations, apiKeys: ctx.apiKeys }),
    partners: createPartnersService({ ssoPartners: ctx.ssoPartners, secretBox: ctx.secretBox }),
    notices: createNoticesService({ organizations: ctx.organizations, notices: ctx.notices }),
    usage: createUsageService({ usage: ctx.usage, usageMeter: ctx.usageMeter, clock: ctx.clock }),
  };
}
