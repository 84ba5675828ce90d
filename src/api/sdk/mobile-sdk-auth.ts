// The Mobile SDK context's caller: authenticated once per request (X-App-ID and
// X-Mobile-App-API-Key, 401 otherwise) and counted against the app's per-second limit (429).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.js';
import type { SdkCaller } from './app-auth.js';

const callers = new WeakMap<FastifyRequest, SdkCaller>();

/** Adds the hook to every route of the context (call it inside the plugin). */
export function requireMobileApp(app: FastifyInstance, deps: Pick<AppDeps, 'sdk'>): void {
  app.addHook('onRequest', async (request) => {
    const caller = await deps.sdk.authenticate.mobile(request);
    deps.sdk.rateLimit.keyed(caller.app.id);
    callers.set(request, caller);
  });
}

export function mobileCaller(request: FastifyRequest): SdkCaller {
  const caller = callers.get(request);
  if (!caller) throw new Error('mobile SDK route without its authentication hook');
  return caller;
}
