// Who may call a user-journey operation:
// - identity (identify, opt-in): an app id, plus the app's key from mobile (it must then be
//   right); no add-on needed;
// - session (sessions, events, transitions, funnel): the app's key, as the interface spec requires,
//   and the organization's user-journey add-on. Browsers, which hold no key, call the same
//   operations through the web SDK API (/api/v1/sdk/web/journey) with the app id alone;
// - stats: a proven caller only, because statistics cover the whole organization and an app id
//   alone is public (it sits in every web page): an app id with its key, or a Service API key
//   (which also counts against the monthly quota); and the add-on.
import { forbidden } from '../../shared/errors.js';
import type { Caller } from '../caller.js';

export type JourneyAccess = 'identity' | 'session' | 'stats';

/** Where a journey operation is called: the user-journey API, or its browser side in the web SDK API. */
export type JourneySurface = 'cross-platform' | 'web-sdk';

/** Which credentials an access level asks for, given where it is called and whether a Service API key was presented. */
export function journeyCredentials(
  access: JourneyAccess,
  serviceKeyPresented: boolean,
  surface: JourneySurface = 'cross-platform',
): 'service' | 'mobile' | 'mobileOrBrowser' {
  if (access === 'identity') return 'mobileOrBrowser';
  if (access === 'session') return surface === 'web-sdk' ? 'mobileOrBrowser' : 'mobile';
  return serviceKeyPresented ? 'service' : 'mobile';
}

/** Refuses an authenticated caller whose organization lacks the add-on the access level needs. */
export function admitJourneyCaller(access: JourneyAccess, caller: Caller): void {
  if (access !== 'identity' && !caller.organization.userJourney) {
    throw forbidden('ADD_ON_REQUIRED', 'the user-journey analysis add-on is not enabled for this organization');
  }
}
