// The console context: partner single sign-on (/sso), the console's pages and its own API
// (/console, /console/api) with mail-link sign-in, and one organization's resources under
// /console/api/organizations/{orgId}. Sign-in attempts are limited per client address across them;
// session cookies that name no live session too, with the other failed authentications.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GoalTypesService } from '../../core/links/goal-types.js';
import type { RoutingTester } from '../../core/routing/routing-tester.js';
import type { OrganizationServices } from '../../core/organizations/index.js';
import type { ReportSubscriptions } from '../../core/reports/report-subscriptions.service.js';
import type { StatsService } from '../../core/stats/index.js';
import type { WebhookSettings } from '../../core/webhooks/webhook-settings.js';
import type { Config } from '../../shared/config.js';
import type { Logger } from '../../shared/logger.js';
import { type AuthFailureLimiters, createAuthFailureLimiter } from '../auth-failures.js';
import { cookieJar, SESSION_COOKIE } from './browser-session.js';
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
  /** Failed authentications per client address: here, wrong session cookies. */
  authFailures: Pick<AuthFailureLimiters, 'consoleSession'>;
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
  // A session cookie that named no live session is cleared by the answer, unless the answer sets a
  // new session (a sign-in).
  const jar = cookieJar(config);
  app.addHook('onSend', async (request, reply) => {
    if (!request.wrongSessionCookie) return;
    const set = reply.getHeader('set-cookie');
    const cookies = set === undefined ? [] : Array.isArray(set) ? set : [String(set)];
    if (!cookies.some((c) => c.startsWith(`${SESSION_COOKIE}=`))) jar.clear(reply, SESSION_COOKIE, '/');
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
    sessionFailures: deps.authFailures.consoleSession,
  });
  await app.register(reportUnsubscribeRoutes, { reports: deps.reports });
  const sessionFailures = deps.authFailures.consoleSession;
  await app.register(consoleOrganizationApi, { deps, sessionFailures, prefix: '/console/api/organizations/:orgId' });
};
