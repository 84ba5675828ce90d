// Who may call a user-journey operation:
// - identity (identify, opt-in): an app id, plus the app's key from mobile (it must then be
//   right); no add-on needed;
// - session (sessions, events, transitions, funnel): the same, and the organization's user-journey
//   add-on;
// - stats: a proven caller only, because statistics cover the whole organization and an app id
//   alone is public (it sits in every web page): an app id with its key, or a Service API key
//   (which also counts against the monthly quota); and the add-on.
import { forbidden } from '../../shared/errors.js';
import type { Caller } from '../caller.js';

export type JourneyAccess = 'identity' | 'session' | 'stats';

/** Which credentials an access level asks for, given whether a Service API key was presented. */
export function journeyCredentials(access: JourneyAccess, serviceKeyPresented: boolean): 'service' | 'mobile' | 'mobileOrBrowser' {
  if (access !== 'stats') return 'mobileOrBrowser';
  return serviceKeyPresented ? 'service' : 'mobile';
}

/** Refuses an authenticated caller whose organization lacks the add-on the access level needs. */
export function admitJourneyCaller(access: JourneyAccess, caller: Caller): void {
  if (access !== 'identity' && !caller.organization.userJourney) {
    throw forbidden('ADD_ON_REQUIRED', 'the user-journey analysis add-on is not enabled for this organization');
  }
}
