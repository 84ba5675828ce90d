// Wires the access core: Service API keys (with the usage meter) and SDK app credentials.
import { createAppAccess, createServiceKeyAccess, type AccessService } from '../core/access/index.js';
import type { ApiKeysRepo } from '../oltp/api-keys.repo.js';
import type { MobileAppsRepo } from '../oltp/mobile-apps.repo.js';
import type { OrganizationsRepo } from '../oltp/organizations.repo.js';
import type { UsageMeter } from '../oltp/usage-meter.js';

export function composeAccess(ctx: {
  apiKeys: ApiKeysRepo;
  mobileApps: MobileAppsRepo;
  organizations: OrganizationsRepo;
  usageMeter: UsageMeter;
  clock: () => Date;
}): AccessService {
  return {
    serviceKey: createServiceKeyAccess({ apiKeys: ctx.apiKeys, usageMeter: ctx.usageMeter, clock: ctx.clock }),
    apps: createAppAccess({ mobileApps: ctx.mobileApps, organizations: ctx.organizations }),
  };
}
