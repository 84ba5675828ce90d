// The console context: partner single sign-on (/sso), the console's pages and its own API
// (/console, /console/api) with mail-link sign-in, and one organization's resources under
// /console/api/organizations/{orgId}. Sign-in attempts are limited per client address across them.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GoalTypesService } from '../../core/links/goal-types.js';
import type { RoutingTester } from '../../core/routing/routing-tester.js';
import type { OrganizationServices } from '../../core/organizations/index.js';
import type { ReportSubscriptions } from '../../core/reports/report-subscriptions.service.js';
import type { StatsService } from '../../core/stats/index.js';
import type { WebhookSettings } from '../../core/webhooks/webhook-settings.js';
import type { Config } from '../../shared/config.js';
import type { Logger } from '../../shared/logger.js';
import { createAuthFailureLimiter } from '../auth-failures.js';
import { consoleRoutes } from './console.routes.js';
import { reportUnsubscribeRoutes } from './report-unsubscribe.routes.js';
import { type ConsoleOrganizationDeps, consoleOrganizationApi } from './organization-api.js';
import { ssoRoutes } from './sso.routes.js';

export interface ConsoleDeps extends ConsoleOrganizationDeps {
  config: Config;
  log: Logger;
  /** Service API keys, and the usage of the organization's quota, as members manage them. */
  organizations: Pick<OrganizationServices, 'apiKeys' | 'usage'>;
  /** The goal types an organization's links may name: the presets and its own. */
  goalTypes: GoalTypesService;
  /** Where a described visitor goes under a link's rules and variants, as the redirect decides. */
  routingTester: RoutingTester;
  stats: Pick<StatsService, 'links' | 'installs' | 'journey' | 'dashboards' | 'shares' | 'tags'>;
  /** The operator's webhook endpoint and log, as a member with webhooks.manage manages them. */
  webhookSettings: WebhookSettings;
  /** Members' subscriptions to reports by mail, and their unsubscribe links. */
  reports: ReportSubscriptions;
}

export const consoleApi: FastifyPluginAsyncZod<{ deps: ConsoleDeps }> = async (app, { deps }) => {
  const { accounts, config } = deps;
  // Sign-in attempts per client address: mail-link requests and follows, refused partner tokens.
  const signInAttempts = createAuthFailureLimiter({
    limit: config.signInLimits.perIp,
    windowSeconds: config.signInLimits.windowSeconds,
    code: 'SIGN_IN_RATE_LIMITED',
    what: 'sign-in',
  });
  await app.register(ssoRoutes, { accounts, config, log: deps.log, signInAttempts });
  await app.register(consoleRoutes, {
    accounts,
    apiKeys: deps.organizations.apiKeys,
    domains: deps.domains,
    goalTypes: deps.goalTypes,
    routingTester: deps.routingTester,
    dashboards: deps.stats.dashboards,
    tagStats: deps.stats.tags,
    installs: deps.stats.installs,
    linkStats: deps.stats.links,
    usage: deps.organizations.usage,
    webhookSettings: deps.webhookSettings,
    reports: deps.reports,
    config,
    signInAttempts,
  });
  await app.register(reportUnsubscribeRoutes, { reports: deps.reports });
  await app.register(consoleOrganizationApi, { deps, prefix: '/console/api/organizations/:orgId' });
};
