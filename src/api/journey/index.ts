// The user-journey context (/api/v1/cross-platform): sessions, events, transitions, funnel,
// identify, opt-in and statistics; and its browser side in the web SDK API
// (/api/v1/sdk/web/journey): the session operations with the app id alone, since a browser holds
// no app key and the spec requires one on the user-journey session endpoints. Each route says in
// its config which access it needs (see caller.ts), checked on request, before the body is read.
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { JourneySurface } from '../../core/access/journey-access.js';
import { allowBrowserCalls } from '../cors.js';
import type { AccessService } from '../../core/access/index.js';
import type { JourneyService } from '../../core/journey/index.js';
import type { StatsService } from '../../core/stats/index.js';
import type { AuthFailureLimiters } from '../auth-failures.js';
import type { SdkCallers } from '../sdk/mobile-sdk-auth.js';
import { journeyActivityReadRoutes, journeyActivityRoutes } from './activity.routes.js';
import { createJourneyAuthenticator } from './journey-access.hook.js';
import { createServiceAuthenticator } from '../service/auth.js';
import { journeyIdentityRoutes } from './identity.routes.js';
import { journeySessionRoutes } from './sessions.routes.js';
import { journeyStatsRoutes } from './stats.routes.js';

export interface JourneyApiDeps {
  /** Service API keys for the statistics and server calls; SDK app credentials for the session operations. */
  access: Pick<AccessService, 'serviceKey'>;
  sdk: SdkCallers;
  authFailures: Pick<AuthFailureLimiters, 'serviceKey' | 'identityHash'>;
  journey: Pick<JourneyService, 'sessions' | 'activity' | 'identity'>;
  stats: Pick<StatsService, 'journey'>;
}

/** CORS for browsers, and the caller of each route with an access rule, for one surface. */
function authenticateJourneyCalls(app: FastifyInstance, deps: JourneyApiDeps, surface: JourneySurface): void {
  allowBrowserCalls(app);
  const authenticate = createJourneyAuthenticator(
    {
      service: createServiceAuthenticator(deps.access.serviceKey, deps.authFailures.serviceKey),
      sdk: deps.sdk,
    },
    surface,
  );
  // The OpenAPI document says which headers the session operations take on this surface.
  const sessionSecurity = surface === 'web-sdk' ? [{ appId: [] }] : [{ appId: [], mobileAppKey: [] }];
  app.addHook('onRoute', (route) => {
    if (route.config?.journeyAccess === 'session' && route.schema)
      route.schema = { ...route.schema, security: sessionSecurity };
  });
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.journeyAccess;
    // Preflights (answered by allowBrowserCalls) and unknown paths carry no access rule.
    if (access === undefined || request.method === 'OPTIONS') return;
    request.caller = await authenticate(request, access);
  });
}

/** The session operations: sessions, events, transitions, funnel. */
async function registerSessionRoutes(app: FastifyInstance, deps: JourneyApiDeps): Promise<void> {
  await app.register(journeySessionRoutes, { sessions: deps.journey.sessions });
  await app.register(journeyActivityRoutes, { activity: deps.journey.activity });
  await app.register(journeyActivityReadRoutes, { activity: deps.journey.activity });
}

export const journeyApi: FastifyPluginAsyncZod<{ deps: JourneyApiDeps }> = async (app, { deps }) => {
  authenticateJourneyCalls(app, deps, 'cross-platform');
  await registerSessionRoutes(app, deps);
  await app.register(journeyIdentityRoutes, {
    identity: deps.journey.identity,
    hashFailures: deps.authFailures.identityHash,
  });
  await app.register(journeyStatsRoutes, { stats: deps.stats.journey });
};

/** The same session operations for browsers (web SDK API): X-App-ID alone, the add-on still required. */
export const webJourneyApi: FastifyPluginAsyncZod<{ deps: JourneyApiDeps }> = async (app, { deps }) => {
  authenticateJourneyCalls(app, deps, 'web-sdk');
  await registerSessionRoutes(app, deps);
};
