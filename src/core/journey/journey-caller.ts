// Who calls a user-journey operation, as the services need to know it: the organization, the app
// it came through (none for a Service API key) and how the caller proved itself.
import type { Caller, MobileApp } from '../caller.js';

/** The app is null for a Service API key (statistics and user look-ups). */
export type JourneyCallerInfo = Pick<Caller, 'organization' | 'app' | 'channel'>;

/** The app a session-level call came through (those calls are refused without one before they get here). */
export function appOf(caller: JourneyCallerInfo): MobileApp {
  if (!caller.app) throw new Error('a session call without an app');
  return caller.app;
}
