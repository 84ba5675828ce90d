// The console's view of one organization's links, campaigns, apps, custom domains, statistics and
// import jobs (the user journey's too, under /journey, with the same add-on rule as the journey API):
// the Service API's own route plugins and core services, under /console/api/organizations/{orgId},
// with the signed-in member as the caller (the core checks their role) instead of an API key. No
// rule is written twice; the routes are documented once, under the Service API.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { admitJourneyCaller } from '../../core/access/journey-access.js';
import type { AccountServices } from '../../core/accounts/index.js';
import type { ImportsService } from '../../core/imports/index.js';
import type { JourneyService } from '../../core/journey/index.js';
import type { StatsService } from '../../core/stats/index.js';
import { importRoutes } from '../service/imports.routes.js';
import { type OrganizationResourceDeps, registerOrganizationResources } from '../service/organization-resources.js';
import { journeyActivityReadRoutes } from '../journey/activity.routes.js';
import { journeyStatsRoutes } from '../journey/stats.routes.js';
import type { AuthFailureLimiter } from '../auth-failures.js';
import { createConsoleGuard, namedOrganization } from './console-guard.js';
import { consoleJourneyExportRoutes } from './journey-export.routes.js';

export interface ConsoleOrganizationDeps extends OrganizationResourceDeps {
  accounts: AccountServices;
  stats: Pick<StatsService, 'links' | 'installs' | 'journey' | 'shares'>;
  journey: Pick<JourneyService, 'activity'>;
  imports: Pick<ImportsService, 'jobs'>;
}

export const consoleOrganizationApi: FastifyPluginAsyncZod<{
  deps: ConsoleOrganizationDeps;
  /** Where a wrong session cookie is counted. */
  sessionFailures: AuthFailureLimiter;
}> = async (app, { deps, sessionFailures }) => {
  const guard = createConsoleGuard(deps.accounts, deps.config.server.publicBaseUrl, sessionFailures);
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  // Before validation: the route schemas know nothing of orgId, and a stranger learns nothing of them.
  app.addHook('onRequest', async (request) => {
    await guard.requireSession(request);
    // Every route here sits under /organizations/:orgId, so the path always names one.
    request.caller = await deps.accounts.console.callerIn(request.consoleSession!, namedOrganization(request)!);
    const journeyAccess = request.routeOptions.config.journeyAccess;
    if (journeyAccess) admitJourneyCaller(journeyAccess, request.caller);
  });

  await registerOrganizationResources(app, deps, { tags: ['console'] });
  await app.register(importRoutes, { imports: deps.imports.jobs });
  await app.register(journeyStatsRoutes, { stats: deps.stats.journey, prefix: '/journey' });
  await app.register(journeyActivityReadRoutes, { activity: deps.journey.activity, prefix: '/journey' });
  await app.register(consoleJourneyExportRoutes, { stats: deps.stats.journey, prefix: '/journey' });
};
