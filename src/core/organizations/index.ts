// Organizations: accounts and their Service API keys, SSO partners, notices, usage.
import type { ApiKeysService } from './api-keys.service.js';
import type { NoticesService } from './notices.service.js';
import type { OrganizationsService } from './organizations.service.js';
import type { PartnersService } from './partners.service.js';
import type { UsageService } from './usage.service.js';

export interface OrganizationServices {
  accounts: OrganizationsService;
  /** Service API keys as members manage them in the console. */
  apiKeys: ApiKeysService;
  partners: PartnersService;
  notices: NoticesService;
  usage: UsageService;
}

export { createOrganizationsService, type OrganizationsService } from './organizations.service.js';
export { createApiKeysService, type ApiKeysService } from './api-keys.service.js';
export { createPartnersService, type PartnersService } from './partners.service.js';
export { createNoticesService, type NoticesService } from './notices.service.js';
export { createUsageService, type UsageService } from './usage.service.js';
