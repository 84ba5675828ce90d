// Access: who is calling, from the credentials a call presented.
import type { AppAccess } from './app-credentials.js';
import type { ServiceKeyAccess } from './service-keys.js';

export interface AccessService {
  /** A Service API key from a client address: allow-list and monthly quota included. */
  serviceKey: ServiceKeyAccess;
  /** An app's id and, from mobile, its key. */
  apps: AppAccess;
}

export { createAppAccess, parseAppId } from './app-credentials.js';
export { createServiceKeyAccess } from './service-keys.js';
export { admitJourneyCaller, journeyCredentials } from './journey-access.js';
