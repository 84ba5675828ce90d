// Wires the access core: Service API keys (with the usage meter) and SDK app credentials.
import { createAppAccess, createServiceKeyAccess, type AccessService } from '../core/access/index.js';
import type { Wiring } from './wiring.js';

export function composeAccess({ repos, clock }: Pick<Wiring, 'repos' | 'clock'>): AccessService {
  return {
    serviceKey: createServiceKeyAccess({ apiKeys: repos.apiKeys, usageMeter: repos.usageMeter, clock }),
    apps: createAppAccess({ mobileApps: repos.mobileApps, organizations: repos.organizations }),
  };
}
