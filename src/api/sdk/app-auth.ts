// The SDK's app credentials as the request carries them: X-App-ID and X-Mobile-App-API-Key. The
// rules (which are needed, what a wrong one answers) are the access core's.
import type { FastifyRequest } from 'fastify';
import type { AppAccess, AppCredentials } from '../../core/access/app-credentials.js';
import type { AppCaller } from '../../core/caller.js';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function appCredentialsOf(request: FastifyRequest): AppCredentials {
  return { appId: header(request, 'x-app-id'), appKey: header(request, 'x-mobile-app-api-key') };
}

export function createSdkAuthenticator(apps: AppAccess) {
  return {
    /** Mobile SDK: X-App-ID and X-Mobile-App-API-Key, both required. */
    mobile: (request: FastifyRequest): Promise<AppCaller> => apps.mobile(appCredentialsOf(request)),
    /** Mobile or browser: X-App-ID, with X-Mobile-App-API-Key from mobile. */
    mobileOrBrowser: (request: FastifyRequest): Promise<AppCaller> => apps.mobileOrBrowser(appCredentialsOf(request)),
  };
}

export type SdkAuthenticator = ReturnType<typeof createSdkAuthenticator>;
