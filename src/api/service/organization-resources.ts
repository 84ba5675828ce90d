// An organization's links, campaigns, mobile apps, custom domains and their statistics: the
// Service API's route plugins, which the console serves too under its own prefix and caller. One
// registration, so the two cannot drift apart; only the OpenAPI tags and security differ.
import type { FastifyInstance } from 'fastify';
import type { AppsService } from '../../core/apps/index.js';
import type { DomainsService } from '../../core/domains/domains.service.js';
import type { LinksService } from '../../core/links/index.js';
import type { StatsService } from '../../core/stats/index.js';
import type { Config } from '../../shared/config.js';
import { campaignRoutes } from './campaigns.routes.js';
import { customDomainDeletionRoutes } from './custom-domain-deletion.routes.js';
import { customDomainRoutes } from './custom-domains.routes.js';
import { installStatisticsRoutes } from './install-statistics.routes.js';
import { linkShareRoutes } from './link-shares.routes.js';
import { mobileAppRoutes } from './mobile-apps.routes.js';
import { shortUrlRoutes } from './short-urls.routes.js';
import { statisticsRoutes } from './statistics.routes.js';
import { tagRoutes } from './tags.routes.js';

export interface OrganizationResourceDeps {
  config: Pick<Config, 'server' | 'security'>;
  clock: () => Date;
  links: LinksService;
  apps: Pick<AppsService, 'mobileApps'>;
  domains: DomainsService;
  stats: Pick<StatsService, 'links' | 'installs' | 'shares'>;
}

/** How the custom-domain operations are documented: their tags, and their security where the context's differs. */
interface DomainDocs {
  tags: string[];
  security?: Record<string, string[]>[];
}

export async function registerOrganizationResources(
  app: FastifyInstance,
  deps: OrganizationResourceDeps,
  domainDocs: DomainDocs,
): Promise<void> {
  const { config, domains } = deps;
  const { publicBaseUrl } = config.server;
  const { production, linkAllowPrivateTargets } = config.security;
  const linkSettings = { publicBaseUrl, production, linkAllowPrivateTargets, clock: deps.clock };
  await app.register(shortUrlRoutes, {
    ...linkSettings,
    shortUrls: deps.links.shortUrls,
    idempotency: deps.links.idempotency,
  });
  await app.register(campaignRoutes, {
    ...linkSettings,
    campaigns: deps.links.campaigns,
    idempotency: deps.links.idempotency,
  });
  await app.register(tagRoutes, { tags: deps.links.tags, docTags: ['service: tags'] });
  await app.register(mobileAppRoutes, { mobileApps: deps.apps.mobileApps, config });
  await app.register(customDomainRoutes, { domains, ...domainDocs, whose: '' });
  await app.register(customDomainDeletionRoutes, { domains, ...domainDocs });
  await app.register(statisticsRoutes, { stats: deps.stats.links, publicBaseUrl });
  await app.register(linkShareRoutes, { shares: deps.stats.shares, publicBaseUrl });
  await app.register(installStatisticsRoutes, { installs: deps.stats.installs });
}
