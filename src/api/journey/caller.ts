// Who may call a user-journey route, decided before the body is even read:
// - identity (identify, opt-in): X-App-ID, plus X-Mobile-App-API-Key from mobile (it must then be
//   right); no add-on needed;
// - session (sessions, events, transitions, funnel): the same, and the organization's user-journey
//   add-on (403 ADD_ON_REQUIRED);
// - stats: a proven caller only, because statistics cover the whole organization and an app id
//   alone is public (it sits in every web page): X-App-ID with X-Mobile-App-API-Key, or a Service
//   API key (X-API-KEY, which also counts against the monthly quota); and the add-on.
// SDK callers then take one unit of their budget (429 + Retry-After): the app's own with the key,
// their client address's for the app without it (src/api/sdk/rate-limit.ts).
import type { FastifyRequest } from 'fastify';
import { forbidden } from '../../shared/errors.js';
import type { MobileApp } from '../../oltp/mobile-apps.repo.js';
import type { Organization } from '../../oltp/organizations.repo.js';
import type { AppDeps } from '../deps.js';
import { createServiceAuthenticator } from '../service/auth.js';

export type JourneyAccess = 'identity' | 'session' | 'stats';

export interface JourneyCaller {
  organization: Organization;
  /** The calling app; null for a Service API key (statistics only). */
  app: MobileApp | null;
  /** mobile: the app key was proven; browser: the app id alone; service: X-API-KEY. */
  channel: 'mobile' | 'browser' | 'service';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    journeyAccess?: JourneyAccess;
  }
  interface FastifyRequest {
    journeyCaller: JourneyCaller | null;
  }
}

export function createJourneyAuthenticator(deps: AppDeps) {
  const serviceAuthenticate = createServiceAuthenticator(deps);

  return async function authenticate(request: FastifyRequest, access: JourneyAccess): Promise<JourneyCaller> {
    let caller: JourneyCaller;
    if (access === 'stats' && request.headers['x-api-key'] !== undefined) {
      const { organization } = await serviceAuthenticate(request);
      caller = { organization, app: null, channel: 'service' };
    } else {
      const sdk = access === 'stats' ? await deps.sdk.authenticate.mobile(request) : await deps.sdk.authenticate.mobileOrBrowser(request);
      deps.sdk.rateLimit.take(sdk, request.ip);
      caller = { organization: sdk.organization, app: sdk.app, channel: sdk.authenticated ? 'mobile' : 'browser' };
    }
    if (access !== 'identity' && !caller.organization.userJourney) {
      throw forbidden('ADD_ON_REQUIRED', 'the user-journey analysis add-on is not enabled for this organization');
    }
    return caller;
  };
}

/** The caller of a route inside the journey context (set by its onRequest hook). */
export function callerOf(request: FastifyRequest): JourneyCaller {
  const caller = request.journeyCaller;
  if (!caller) throw new Error('journey route without a journeyAccess config');
  return caller;
}
