// The Service API context (/api/v1/service): every route behind X-API-KEY, allow-list and quota,
// every answered call recorded as an api_request event (usage per key and route, audit trail).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { uuidv7 } from '../../shared/ids.js';
import type { AppDeps } from '../deps.js';
import { normalizeIp } from '../../shared/ip.js';
import { createServiceAuthenticator } from './auth.js';
import { campaignRoutes } from './campaigns.routes.js';
import { customDomainDeletionRoutes } from './custom-domain-deletion.routes.js';
import { customDomainRoutes } from './custom-domains.routes.js';
import { installStatisticsRoutes } from './install-statistics.routes.js';
import { mobileAppRoutes } from './mobile-apps.routes.js';
import { shortUrlRoutes } from './short-urls.routes.js';
import { statisticsRoutes } from './statistics.routes.js';
import { usageRoutes } from './usage.routes.js';
import { userRoutes } from './users.routes.js';

export const serviceApi: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const authenticate = createServiceAuthenticator(deps.access.serviceKey, deps.authFailures.serviceKey);
  app.addHook('onRequest', async (request) => {
    request.caller = await authenticate(request);
  });

  app.addHook('onResponse', async (request, reply) => {
    const auth = request.caller;
    if (auth?.apiKeyId == null) return;
    deps.events.record({
      eventId: uuidv7(),
      type: 'api_request',
      occurredAt: Date.now(),
      organizationId: auth.organization.id,
      data: {
        apiKeyId: auth.apiKeyId,
        method: request.method,
        route: request.routeOptions.url ?? 'unknown',
        status: reply.statusCode,
        durationMs: reply.elapsedTime,
        ip: normalizeIp(request.ip),
        requestId: request.id,
      },
    });
  });

  await app.register(usageRoutes, { usage: deps.organizations.usage });
  const { publicBaseUrl } = deps.config.server;
  const { production, linkAllowPrivateTargets } = deps.config.security;
  const linkSettings = { publicBaseUrl, production, linkAllowPrivateTargets, clock: deps.clock };
  await app.register(shortUrlRoutes, { ...linkSettings, shortUrls: deps.links.shortUrls });
  await app.register(campaignRoutes, { ...linkSettings, campaigns: deps.links.campaigns });
  await app.register(mobileAppRoutes, { mobileApps: deps.apps.mobileApps, config: deps.config });
  await app.register(customDomainRoutes, {
    domains: deps.domains,
    tags: ['service: custom domains'],
    security: [{ apiKey: [] }],
    whose: '',
  });
  await app.register(customDomainDeletionRoutes, {
    domains: deps.domains,
    tags: ['service: custom domains'],
    security: [{ apiKey: [] }],
  });
  await app.register(statisticsRoutes, { stats: deps.stats.links, publicBaseUrl: deps.config.server.publicBaseUrl });
  await app.register(installStatisticsRoutes, { installs: deps.stats.installs });
  await app.register(userRoutes, { users: deps.journey.users });
};
