// SDK callers: the app named by its id, proven by its mobile app API key for the mobile SDK (and
// the user-journey API from mobile), or named alone for browsers, which can hold no secret. Every
// SDK call then works inside that app's organization only.
import { invalid, unauthenticated } from '../../shared/errors.js';
import type { MobileAppsRepo } from '../../oltp/mobile-apps.repo.js';
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type { AppCaller } from '../caller.js';

/** The credentials as presented: absent ones undefined. */
export interface AppCredentials {
  appId: string | undefined;
  appKey: string | undefined;
}

const APP_ID = /^[1-9][0-9]{0,17}$/;
/** Longer than any key issued: refused without a look-up. */
const MAX_KEY_LENGTH = 200;

/** The app id as a number; undefined when absent, invalid when it is not an id. */
export function parseAppId(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!APP_ID.test(raw.trim())) throw invalid('APP_ID_INVALID', 'X-App-ID must be the numeric id of a registered app');
  return Number(raw.trim());
}

export function createAppAccess(deps: { mobileApps: MobileAppsRepo; organizations: OrganizationsRepo }) {
  async function load(appId: number, appKey: string | null): Promise<AppCaller | undefined> {
    const app = await deps.mobileApps.authenticate(appId, appKey);
    if (!app) return undefined;
    const organization = await deps.organizations.get(app.organizationId);
    return organization && { organization, app, channel: appKey === null ? 'browser' : 'mobile', apiKeyId: null };
  }

  return {
    /** Mobile SDK: the app id and its key, both required. */
    async mobile(credentials: AppCredentials): Promise<AppCaller> {
      const appId = parseAppId(credentials.appId);
      const { appKey } = credentials;
      if (appId === undefined || !appKey) {
        throw unauthenticated('APP_CREDENTIALS_MISSING', 'X-App-ID and X-Mobile-App-API-Key headers are required');
      }
      const caller = appKey.length <= MAX_KEY_LENGTH ? await load(appId, appKey) : undefined;
      if (!caller) throw unauthenticated('APP_CREDENTIALS_INVALID', 'the app id or the mobile app API key is invalid');
      return caller;
    },

    /**
     * Mobile or browser: with the key it must be right; without it the app id alone names the app
     * (unauthenticated when unknown, invalid when the id is missing).
     */
    async mobileOrBrowser(credentials: AppCredentials): Promise<AppCaller> {
      const appId = parseAppId(credentials.appId);
      if (appId === undefined) throw invalid('APP_ID_MISSING', 'X-App-ID header is required');
      const { appKey } = credentials;
      if (appKey !== undefined && appKey.length > MAX_KEY_LENGTH)
        throw unauthenticated('APP_CREDENTIALS_INVALID', 'the mobile app API key is invalid');
      const caller = await load(appId, appKey ?? null);
      if (!caller) {
        throw unauthenticated(
          'APP_CREDENTIALS_INVALID',
          appKey === undefined ? 'no app has this X-App-ID' : 'the app id or the mobile app API key is invalid',
        );
      }
      return caller;
    },
  };
}

export type AppAccess = ReturnType<typeof createAppAccess>;
