// Who is calling: the organization every call works inside, the app when an SDK called, and how
// the call proved itself. One shape for the Service API, the SDKs and the user-journey API.
import type { MobileApp } from '../oltp/mobile-apps.repo.js';
import type { Organization } from '../oltp/organizations.repo.js';
import type { Role } from '../shared/roles.js';

export type { MobileApp, Organization };

/**
 * service: a Service API key; mobile: an app proven by its key; browser: an app named alone;
 * console: a signed-in member of the organization, limited by the member's role.
 */
export type Channel = 'service' | 'mobile' | 'browser' | 'console';

export interface Caller {
  organization: Organization;
  /** The calling app; null for a Service API key. */
  app: MobileApp | null;
  channel: Channel;
  /** The Service API key used; null for an app. */
  apiKeyId: number | null;
  /** The signed-in member on the console channel (absent elsewhere): whose role limits the call. */
  member?: { userId: number; role: Role };
}

/**
 * Whoever asks on behalf of an organization about its own records: a Service API key, a mobile
 * app, or a console member within their role.
 */
export interface OrganizationCaller {
  organization: { id: number };
  member?: Caller['member'];
}

/** A caller holding a Service API key. */
export interface ServiceCaller extends Caller {
  app: null;
  channel: 'service';
  apiKeyId: number;
}

/** A caller that named an app (mobile and web SDKs, the user journey from them). */
export interface AppCaller extends Caller {
  app: MobileApp;
  channel: 'mobile' | 'browser';
  apiKeyId: null;
}
