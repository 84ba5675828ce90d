// The console's view of one organization's links, campaigns, apps, custom domains and statistics
// (the user journey's too, under /journey, with the same add-on rule as the journey API):
// the Service API's own route plugins and core services, under /console/api/organizations/{orgId},
// with the signed-in member as the caller (the core checks their role) instead of an API key. No
// rule is written twice; the routes are documented once, under the Service API.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../shared/errors.js';
import type { AppDeps } from '../deps.js';
import { campaignRoutes } from '../service/campaigns.routes.js';
import { customDomainDeletionRoutes } from '../service/custom-domain-deletion.routes.js';
import { customDomainRoutes } from '../service/custom-domains.routes.js';
import { installStatisticsRoutes } from '../service/install-statistics.routes.js';
import { mobileAppRoutes } from '../service/mobile-apps.routes.js';
import { shortUrlRoutes } from '../service/short-urls.routes.js';
import { statisticsRoutes } from '../service/statistics.routes.js';
import { admitJourneyCaller } from '../../core/access/journey-access.js';
import { journeyActivityReadRoutes } from '../journey/activity.routes.js';
import { journeyStatsRoutes } from '../journey/stats.routes.js';
import { createConsoleGuard } from './console-guard.js';
import { consoleJourneyExportRoutes } from './journey-export.routes.js';

export const consoleOrganizationApi: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const guard = createConsoleGuard(deps.accounts, deps.config.server.publicBaseUrl);
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  // Before validation: the route schemas know nothing of orgId, and a stranger learns nothing of them.
  app.addHook('onRequest', async (request) => {
    await guard.requireSession(request);
    const orgId = Number((request.params as { orgId?: string }).orgId);
    if (!Number.isSafeInteger(orgId) || orgId <= 0) throw notFound('ORGANIZATION_NOT_FOUND', 'no such organization');
    request.caller = await deps.accounts.console.callerIn(request.consoleSession!, orgId);
    const journeyAccess = request.routeOptions.config.journeyAccess;
    if (journeyAccess) admitJourneyCaller(journeyAccess, request.caller);
  });

  const { publicBaseUrl } = deps.config.server;
  const { production, linkAllowPrivateTargets } = deps.config.security;
  const linkSettings = { publicBaseUrl, production, linkAllowPrivateTargets, clock: deps.clock };
  await app.register(shortUrlRoutes, { ...linkSettings, shortUrls: deps.links.shortUrls });
  await app.register(campaignRoutes, { ...linkSettings, campaigns: deps.links.campaigns });
  await app.register(mobileAppRoutes, { mobileApps: deps.apps.mobileApps, config: deps.config });
  await app.register(customDomainRoutes, { domains: deps.domains, tags: ['console'], whose: '' });
  await app.register(customDomainDeletionRoutes, { domains: deps.domains, tags: ['console'] });
  await app.register(statisticsRoutes, { stats: deps.stats.links, publicBaseUrl });
  await app.register(installStatisticsRoutes, { installs: deps.stats.installs });
  await app.register(journeyStatsRoutes, { stats: deps.stats.journey, prefix: '/journey' });
  await app.register(journeyActivityReadRoutes, { activity: deps.journey.activity, prefix: '/journey' });
  await app.register(consoleJourneyExportRoutes, { stats: deps.stats.journey, prefix: '/journey' });
};
