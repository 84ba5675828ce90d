// Who calls a user-journey operation, as the services need to know it: the organization, the app
// it came through (none for a Service API key) and how the caller proved itself.
import type { MobileApp } from '../../oltp/mobile-apps.repo.js';
import type { Organization } from '../../oltp/organizations.repo.js';

export interface JourneyCallerInfo {
  organization: Organization;
  /** The calling app; null for a Service API key (statistics and user look-ups). */
  app: MobileApp | null;
  /** mobile: the app key was proven; browser: the app id alone; service: a Service API key. */
  channel: 'mobile' | 'browser' | 'service';
}

/** The app a session-level call came through (those calls are refused without one before they get here). */
export function appOf(caller: JourneyCallerInfo): MobileApp {
  if (!caller.app) throw new Error('a session call without an app');
  return caller.app;
}
