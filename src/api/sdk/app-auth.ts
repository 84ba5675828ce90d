// Who is calling an SDK endpoint: the app named by X-App-ID, proven by X-Mobile-App-API-Key for
// the mobile SDK (and the user-journey API from mobile), or named alone for browsers, which can
// hold no secret. Every SDK route then works inside that app's organization only.
import type { FastifyRequest } from 'fastify';
import { invalid, unauthenticated } from '../../shared/errors.js';
import type { MobileApp } from '../../oltp/mobile-apps.repo.js';
import type { Organization } from '../../oltp/organizations.repo.js';
import type { AppDeps } from '../deps.js';

export interface SdkCaller {
  app: MobileApp;
  organization: Organization;
  /** True when the call carried the app's secret key (a mobile app), false for a browser. */
  authenticated: boolean;
}

const APP_ID = /^[1-9][0-9]{0,17}$/;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The X-App-ID header as a number; 400 when it is there but is not an id. */
export function appIdHeader(request: FastifyRequest): number | undefined {
  const raw = header(request, 'x-app-id');
  if (raw === undefined || raw === '') return undefined;
  if (!APP_ID.test(raw.trim())) throw invalid('APP_ID_INVALID', 'X-App-ID must be the numeric id of a registered app');
  return Number(raw.trim());
}

export function createSdkAuthenticator(deps: Pick<AppDeps, 'repos'>) {
  async function load(appId: number, apiKey: string | null): Promise<SdkCaller | undefined> {
    const app = await deps.repos.mobileApps.authenticate(appId, apiKey);
    if (!app) return undefined;
    const organization = await deps.repos.organizations.get(app.organizationId);
    return organization && { app, organization, authenticated: apiKey !== null };
  }

  return {
    /** Mobile SDK: X-App-ID and X-Mobile-App-API-Key, both required; 401 otherwise. */
    async mobile(request: FastifyRequest): Promise<SdkCaller> {
      const appId = appIdHeader(request);
      const apiKey = header(request, 'x-mobile-app-api-key');
      if (appId === undefined || !apiKey) {
        throw unauthenticated('APP_CREDENTIALS_MISSING', 'X-App-ID and X-Mobile-App-API-Key headers are required');
      }
      const caller = apiKey.length <= 200 ? await load(appId, apiKey) : undefined;
      if (!caller) throw unauthenticated('APP_CREDENTIALS_INVALID', 'the app id or the mobile app API key is invalid');
      return caller;
    },

    /**
     * Mobile or browser: with the key it must be right (401); without it the app id alone names
     * the app (401 when unknown, 400 when X-App-ID is missing).
     */
    async mobileOrBrowser(request: FastifyRequest): Promise<SdkCaller> {
      const appId = appIdHeader(request);
      if (appId === undefined) throw invalid('APP_ID_MISSING', 'X-App-ID header is required');
      const apiKey = header(request, 'x-mobile-app-api-key');
      if (apiKey !== undefined && apiKey.length > 200) throw unauthenticated('APP_CREDENTIALS_INVALID', 'the mobile app API key is invalid');
      const caller = await load(appId, apiKey ?? null);
      if (!caller) {
        throw unauthenticated('APP_CREDENTIALS_INVALID', apiKey === undefined ? 'no app has this X-App-ID' : 'the app id or the mobile app API key is invalid');
      }
      return caller;
    },
  };
}

export type SdkAuthenticator = ReturnType<typeof createSdkAuthenticator>;
