// The Mobile SDK context's caller: authenticated once per request (X-App-ID and
// X-Mobile-App-API-Key, 401 otherwise) and counted against the app's per-second limit (429).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppCaller } from '../../core/caller.js';
import type { SdkAuthenticator } from './app-auth.js';
import type { SdkRateLimiter } from './rate-limit.js';

/** SDK callers (mobile and web SDK, user journey): who they are, and their rate limits (keyed per app, keyless per app and address). */
export interface SdkCallers {
  authenticate: SdkAuthenticator;
  rateLimit: SdkRateLimiter;
}

/** Adds the hook to every route of the context (call it inside the plugin). */
export function requireMobileApp(app: FastifyInstance, sdk: SdkCallers): void {
  app.addHook('onRequest', async (request) => {
    const caller = await sdk.authenticate.mobile(request);
    sdk.rateLimit.keyed(caller.app.id);
    request.caller = caller;
  });
}

/** The old accessor of the mobile caller, until every route reads callerOf(request). */
export function mobileCaller(request: FastifyRequest): AppCaller {
  const caller = request.caller;
  if (!caller?.app) throw new Error('mobile SDK route without its authentication hook');
  return caller as AppCaller;
}
