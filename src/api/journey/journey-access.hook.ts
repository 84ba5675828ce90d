// Who may call a user-journey route, decided before the body is even read: each route names its
// access level in its config; the access core says which credentials that level needs and
// whether the organization's add-on is required. SDK callers then take one unit of their budget
// (429 + Retry-After): the app's own with the key, their client address's for the app without it
// (src/api/sdk/rate-limit.ts).
import type { FastifyRequest } from 'fastify';
import {
  admitJourneyCaller,
  journeyCredentials,
  type JourneyAccess,
  type JourneySurface,
} from '../../core/access/journey-access.js';
import type { Caller } from '../../core/caller.js';
import type { SdkCallers } from '../sdk/mobile-sdk-auth.js';
import { serviceKeyOf, type ServiceAuthenticator } from '../service/auth.js';

export type { JourneyAccess };

declare module 'fastify' {
  interface FastifyContextConfig {
    journeyAccess?: JourneyAccess;
  }
}

export interface JourneyAuthDeps {
  service: ServiceAuthenticator;
  sdk: SdkCallers;
}

export function createJourneyAuthenticator(deps: JourneyAuthDeps, surface: JourneySurface) {
  return async function authenticate(request: FastifyRequest, access: JourneyAccess): Promise<Caller> {
    let caller: Caller;
    const needed = journeyCredentials(access, serviceKeyOf(request) !== undefined, surface);
    if (needed === 'service') {
      caller = await deps.service(request);
    } else {
      const sdk =
        needed === 'mobile'
          ? await deps.sdk.authenticate.mobile(request)
          : await deps.sdk.authenticate.mobileOrBrowser(request);
      deps.sdk.rateLimit.take(sdk, request.ip);
      caller = sdk;
    }
    admitJourneyCaller(access, caller);
    return caller;
  };
}
