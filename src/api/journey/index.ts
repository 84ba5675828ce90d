// The user-journey context (/api/v1/cross-platform): sessions, events, transitions, funnel,
// identify, opt-in and statistics. Browsers call it directly (CORS, X-App-ID only); apps add their
// key; each route says in its config which access it needs (see caller.ts), checked on request,
// before the body is read.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { allowBrowserCalls } from '../cors.js';
import type { AppDeps } from '../deps.js';
import { journeyActivityReadRoutes, journeyActivityRoutes } from './activity.routes.js';
import { createJourneyAuthenticator } from './caller.js';
import { createServiceAuthenticator } from '../service/auth.js';
import { journeyIdentityRoutes } from './identity.routes.js';
import { journeySessionRoutes } from './sessions.routes.js';
import { journeyStatsRoutes } from './stats.routes.js';

export const journeyApi: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  allowBrowserCalls(app);
  const authenticate = createJourneyAuthenticator({
    service: createServiceAuthenticator(deps.access.serviceKey, deps.authFailures.serviceKey),
    sdk: deps.sdk,
  });
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.journeyAccess;
    // Preflights (answered by allowBrowserCalls) and unknown paths carry no access rule.
    if (access === undefined || request.method === 'OPTIONS') return;
    request.caller = await authenticate(request, access);
  });

  await app.register(journeySessionRoutes, { sessions: deps.journey.sessions });
  await app.register(journeyActivityRoutes, { activity: deps.journey.activity });
  await app.register(journeyActivityReadRoutes, { activity: deps.journey.activity });
  await app.register(journeyIdentityRoutes, { identity: deps.journey.identity, hashFailures: deps.authFailures.identityHash });
  await app.register(journeyStatsRoutes, { stats: deps.stats.journey });
};
