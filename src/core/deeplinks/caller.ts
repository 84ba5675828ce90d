// Who a deep-link flow works for, and what the caller's connection says, as plain values.
import type { MobileApp } from '../../oltp/mobile-apps.repo.js';

/** The SDK caller every deep-link flow works for: an app, inside its organization. */
export interface AppCaller {
  app: Pick<MobileApp, 'id' | 'platform'>;
  organization: { id: number };
}

/** What the caller's connection says about the device, as plain values. */
export interface ClientInfo {
  ip: string;
  userAgent?: string | undefined;
}
