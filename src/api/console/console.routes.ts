// The console's way in and its first API: the mail-link sign-in form, following a one-time link,
// the landing page, sign-out (here or everywhere), and /console/api with the session, members and
// the audit log. Every state-changing call must come from this origin and carry the session's
// CSRF token (X-CSRF-Token, or the form field csrfToken); every rule is the core's.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountServices } from '../../core/accounts/index.js';
import type { ActiveSession } from '../../core/accounts/console-sessions.service.js';
import { AUDIT_ACTIONS } from '../../core/accounts/audit-trail.js';
import type { Config } from '../../shared/config.js';
import { isDomainError, notFound } from '../../shared/errors.js';
import { LANGUAGES, ROLES } from '../../shared/roles.js';
import type { AuthFailureLimiter } from '../auth-failures.js';
import { errorBodySchema, idSchema } from '../schemas/common.js';
import { memberSchema, newMemberSchema, toMemberJson } from '../schemas/member.js';
import { cookieJar, cookiesOf, languageOf, SESSION_COOKIE } from './browser-session.js';
import { createConsoleGuard } from './console-guard.js';
import { consoleApiKeyRoutes } from './api-keys.routes.js';
import { consoleDomainRoutes } from './domains.routes.js';
import { consoleSessionRoutes } from './sessions.routes.js';
import { consoleGoalTypeRoutes } from './goal-types.routes.js';
import { consoleRoutingTesterRoutes } from './routing-tester.routes.js';
import type { RoutingTester } from '../../core/routing/routing-tester.js';
import { consoleUsageRoutes } from './usage.routes.js';
import { consoleDashboardRoutes } from './dashboards.routes.js';
import type { GoalTypesService } from '../../core/links/goal-types.js';
import type { UsageService } from '../../core/organizations/usage.service.js';
import { consoleWebhookRoutes } from './webhooks.routes.js';
import { consoleReportRoutes } from './reports.routes.js';
import type { ReportSubscriptions } from '../../core/reports/report-subscriptions.service.js';
import type { DomainsService } from '../../core/domains/domains.service.js';
import type { ApiKeysService } from '../../core/organizations/api-keys.service.js';
import type { WebhookSettings } from '../../core/webhooks/webhook-settings.js';
import { registerFormParser, sameOrigin } from './forms.js';
import { httpStatusOf } from '../error-handler.js';
import { consoleHomePage, messagePage, oidcErrorText, signInPage, ssoErrorPage } from './pages.js';
import { newNonce } from '../security-headers.js';
import { consoleAppPolicy, loadConsoleApp } from './console-app.js';
import { sendPage } from './send-page.js';
import type { Dashboards } from '../../core/stats/dashboards.js';
import type { TagStatsService } from '../../core/stats/tag-stats.js';
import type { InstallStatsService } from '../../core/stats/install-stats.js';
import type { LinkStatsService } from '../../core/stats/link-stats.js';
import { writeErrors as errors, orgParams, security, tags } from './route-docs.js';
import { type ActingMember, actingMember, memberRoutes } from './acting-member.js';
import { consoleRoute } from './console-route.js';

export interface ConsoleRouteDeps {
  accounts: AccountServices;
  apiKeys: ApiKeysService;
  domains: DomainsService;
  goalTypes: GoalTypesService;
  routingTester: RoutingTester;
  dashboards: Dashboards;
  tagStats: TagStatsService;
  installs: InstallStatsService;
  linkStats: LinkStatsService;
  usage: UsageService;
  webhookSettings: WebhookSettings;
  reports: ReportSubscriptions;
  config: Config;
  signInAttempts: AuthFailureLimiter;
  /** Session cookies that name no live session, counted with the other failed authentications. */
  sessionFailures: AuthFailureLimiter;
}

/** The sealed state, nonce and PKCE verifier of a sign-in at the OpenID Connect provider, for its callback only. */
const OIDC_COOKIE = 'sp_oidc';
const OIDC_PATH = '/console/auth/oidc';

/** An ISO-8601 date-time with its zone (Z or an offset), as a Date. */
const isoDateTime = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

export const consoleRoutes: FastifyPluginAsyncZod<ConsoleRouteDeps> = async (
  app,
  {
    accounts,
    apiKeys,
    domains,
    goalTypes,
    routingTester,
    dashboards,
    tagStats,
    installs,
    linkStats,
    usage,
    webhookSettings,
    reports,
    config,
    signInAttempts,
    sessionFailures,
  },
) => {
  const jar = cookieJar(config);
  const oidcProvider = accounts.oidc && config.oidc?.providerName;
  registerFormParser(app);

  const { tokenOf, sessionOf, requireCsrf, admit, csrfOnChange } = createConsoleGuard(
    accounts,
    config.server.publicBaseUrl,
    sessionFailures,
  );

  const signedOut = (request: FastifyRequest, reply: FastifyReply) => {
    jar.clear(reply, SESSION_COOKIE, '/');
    return reply.redirect(`/console/sign-in?lang=${languageOf(request)}`, 303);
  };

  // The app for a signed-in person; without a build, the server-rendered landing page.
  const consoleApp = loadConsoleApp(config.console.dir);
  async function home(request: FastifyRequest, reply: FastifyReply) {
    const session = await sessionOf(request);
    if (!session) return reply.redirect(`/console/sign-in?lang=${languageOf(request)}`, 302);
    const language = languageOf(request);
    if (!consoleApp) {
      const overview = await accounts.console.overview(session);
      return sendPage(reply, 200, (nonce) => consoleHomePage({ language, nonce, overview }));
    }
    const nonce = newNonce();
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', consoleAppPolicy(nonce))
      .send(consoleApp.index({ nonce, language }));
  }
  const pageQuery = { schema: { hide: true, querystring: z.object({ lang: z.string().optional() }) } };
  app.get('/console', pageQuery, home);
  // The app's own paths (/console/members…); unknown API paths stay JSON 404s.
  app.get('/console/*', pageQuery, async (request, reply) => {
    if (request.url.startsWith('/console/api/'))
      throw notFound('ROUTE_NOT_FOUND', `no route for GET ${request.url.split('?')[0]}`);
    return home(request, reply);
  });
  app.get(
    '/console/assets/:name',
    { schema: { hide: true, params: z.object({ name: z.string().max(200) }) } },
    async (request, reply) => {
      const asset = consoleApp?.asset(request.params.name);
      if (!asset) throw notFound('ROUTE_NOT_FOUND', `no console file ${request.params.name}`);
      // Names carry their content hash: a changed file is a new name.
      return reply
        .header('content-type', asset.type)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(asset.body);
    },
  );

  app.get(
    '/console/sign-in',
    { schema: { hide: true, querystring: z.object({ lang: z.string().optional() }) } },
    async (request, reply) =>
      sendPage(reply, 200, (nonce) => signInPage({ language: languageOf(request), nonce, oidcProvider })),
  );

  app.post(
    '/console/sign-in',
    {
      schema: {
        hide: true,
        querystring: z.object({ lang: z.string().optional() }),
        body: z.object({ email: z.string().max(254) }),
      },
    },
    async (request, reply) => {
      const language = languageOf(request);
      try {
        sameOrigin(request, config.server.publicBaseUrl);
        signInAttempts.check(request);
        signInAttempts.fail(request);
        const sent = await accounts.signIn.requestLink(request.body.email);
        return sendPage(reply, 200, (nonce) => signInPage({ language, nonce, sent }));
      } catch (err) {
        if (!isDomainError(err)) throw err;
        const status = err.kind === 'limited' ? 429 : err.kind === 'forbidden' ? 403 : 400;
        if (err.retryAfterSeconds) reply.header('retry-after', String(err.retryAfterSeconds));
        return sendPage(reply, status, (nonce) => signInPage({ language, nonce, error: err.message, oidcProvider }));
      }
    },
  );

  app.post(
    '/console/api/sign-in/email',
    {
      schema: {
        tags,
        summary: 'Mail a one-time sign-in link (answers the same whether or not the address has an account)',
        body: z.object({ email: z.string().max(254) }),
        response: {
          202: z.object({ minutes: z.number().int() }),
          400: errorBodySchema,
          403: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      sameOrigin(request, config.server.publicBaseUrl);
      signInAttempts.check(request);
      signInAttempts.fail(request);
      return reply.code(202).send(await accounts.signIn.requestLink(request.body.email));
    },
  );

  app.get(
    '/console/auth/link',
    {
      schema: {
        hide: true,
        querystring: z.object({ token: z.string().max(200).optional(), lang: z.string().optional() }),
      },
    },
    async (request, reply) => {
      signInAttempts.check(request);
      let session: Awaited<ReturnType<AccountServices['signIn']['follow']>>;
      try {
        session = await accounts.signIn.follow(request.query.token ?? '', {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
          currentToken: tokenOf(request),
        });
      } catch (err) {
        // A partner link that can no longer be made (the account was linked elsewhere meanwhile): a page, not JSON.
        if (!isDomainError(err)) throw err;
        const loginUrl = typeof err.details?.loginUrl === 'string' ? err.details.loginUrl : null;
        return sendPage(reply, httpStatusOf(err), (nonce) =>
          ssoErrorPage({ language: languageOf(request), nonce, message: err.message, english: undefined, loginUrl }),
        );
      }
      if (!session) {
        signInAttempts.fail(request);
        return sendPage(reply, 410, (nonce) =>
          messagePage({ language: languageOf(request), nonce, title: 'linkInvalid' }),
        );
      }
      jar.set(reply, SESSION_COOKIE, session.token, { path: '/', expires: session.expiresAt });
      return reply.redirect('/console/', 302);
    },
  );

  // Sign-in through the company's OpenID Connect provider: off (404) unless it is configured.
  const oidcSignIn = () => {
    if (!accounts.oidc) throw notFound('ROUTE_NOT_FOUND', 'OpenID Connect sign-in is not configured');
    return accounts.oidc;
  };
  const oidcRefused = (request: FastifyRequest, reply: FastifyReply, err: unknown) => {
    if (!isDomainError(err)) throw err;
    const language = languageOf(request);
    // Why, for the operator: the page tells the person less.
    if (err.kind === 'unavailable') request.log.warn({ err, code: err.code }, 'OpenID Connect sign-in failed');
    else {
      signInAttempts.fail(request);
      request.log.info({ code: err.code, reason: err.message }, 'OpenID Connect sign-in refused');
    }
    const error = oidcErrorText(language, err.code, err.message);
    return sendPage(reply, httpStatusOf(err), (nonce) => signInPage({ language, nonce, error, oidcProvider }));
  };

  app.get(OIDC_PATH, { schema: { hide: true } }, async (request, reply) => {
    const oidc = oidcSignIn();
    signInAttempts.check(request);
    let started: Awaited<ReturnType<typeof oidc.start>>;
    try {
      started = await oidc.start();
    } catch (err) {
      return oidcRefused(request, reply, err);
    }
    jar.set(reply, OIDC_COOKIE, started.pending, { path: OIDC_PATH, expires: started.expiresAt });
    return reply.redirect(started.url, 302);
  });

  app.get(`${OIDC_PATH}/callback`, { schema: { hide: true } }, async (request, reply) => {
    const oidc = oidcSignIn();
    signInAttempts.check(request);
    // One use: whatever happens, the pending sign-in is spent.
    jar.clear(reply, OIDC_COOKIE, OIDC_PATH);
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    let session: Awaited<ReturnType<typeof oidc.complete>>;
    try {
      session = await oidc.complete(query, cookiesOf(request).get(OIDC_COOKIE), {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        currentToken: tokenOf(request),
      });
    } catch (err) {
      return oidcRefused(request, reply, err);
    }
    jar.set(reply, SESSION_COOKIE, session.token, { path: '/', expires: session.expiresAt });
    return reply.redirect('/console/', 302);
  });

  // Sign-out from the landing page's forms.
  for (const [path, everywhere] of [
    ['/console/sign-out', false],
    ['/console/sign-out-everywhere', true],
  ] as const) {
    app.post(
      path,
      { schema: { hide: true, body: z.object({ csrfToken: z.string().optional() }).optional() } },
      async (request, reply) => {
        const session = await sessionOf(request);
        if (!session) return signedOut(request, reply);
        requireCsrf(request);
        if (everywhere) await accounts.sessions.endEverywhere(session.user.id, request.ip);
        else await accounts.sessions.end(session, request.ip);
        return signedOut(request, reply);
      },
    );
  }

  // The JSON API: a session always and membership of the organization a path names, checked before
  // the request's input; the CSRF rule on every state change.
  await app.register(
    async (plain) => {
      const api = plain.withTypeProvider<ZodTypeProvider>();
      api.addHook('onRequest', admit);
      api.addHook('preValidation', async (request) => csrfOnChange(request));
      await api.register(consoleApiKeyRoutes, { accounts, apiKeys });
      await api.register(consoleSessionRoutes, { accounts, config });
      await api.register(consoleWebhookRoutes, { accounts, webhookSettings });
      await api.register(consoleDomainRoutes, { accounts, domains });
      await api.register(consoleGoalTypeRoutes, { accounts, goalTypes });
      await api.register(consoleRoutingTesterRoutes, { accounts, routingTester, config });
      await api.register(consoleUsageRoutes, { accounts, usage });
      await api.register(consoleDashboardRoutes, { accounts, dashboards, installs, links: linkStats, tagStats });
      await api.register(consoleReportRoutes, { accounts, reports });
      const sessionOfRequest = (request: FastifyRequest): ActiveSession => request.consoleSession!;
      const acting = actingMember(accounts);
      const memberRoute = memberRoutes(api, accounts);
      /** Who changes the organization's members, as the core's member rules take them. */
      const managerOf = ({ caller, actor }: ActingMember) => ({ actor, role: caller.member.role });

      api.get(
        '/session',
        {
          schema: {
            tags,
            security,
            summary:
              'The signed-in user, their organizations with role and permissions, and the CSRF token for state-changing calls',
            response: {
              200: z.object({
                user: z.object({
                  id: z.number().int(),
                  email: z.string(),
                  name: z.string().nullable(),
                  language: z.enum(LANGUAGES),
                }),
                memberships: z.array(
                  z.object({
                    organizationId: z.number().int(),
                    organizationName: z.string(),
                    plan: z.string(),
                    role: z.enum(ROLES),
                    permissions: z.array(z.string()),
                  }),
                ),
                csrfToken: z.string(),
                expiresAt: z.string(),
              }),
              401: errorBodySchema,
            },
          },
        },
        async (request) => {
          const o = await accounts.console.overview(sessionOfRequest(request));
          return {
            user: { id: o.user.id, email: o.user.email, name: o.user.name, language: o.user.language },
            memberships: o.memberships.map((m) => ({
              organizationId: m.organizationId,
              organizationName: m.organizationName,
              plan: m.plan,
              role: m.role,
              permissions: m.permissions,
            })),
            csrfToken: o.csrfToken,
            expiresAt: o.expiresAt.toISOString(),
          };
        },
      );

      consoleRoute(
        api,
        'POST',
        '/sign-out',
        { summary: 'End this session', status: 204, errors },
        async (request, reply) => {
          await accounts.sessions.end(sessionOfRequest(request), request.ip);
          jar.clear(reply, SESSION_COOKIE, '/');
        },
      );

      api.post(
        '/sign-out-everywhere',
        {
          schema: {
            tags,
            security,
            summary: 'End every session of this user, on every device',
            response: { 200: z.object({ ended: z.number().int() }), ...errors },
          },
        },
        async (request, reply) => {
          const ended = await accounts.sessions.endEverywhere(sessionOfRequest(request).user.id, request.ip);
          jar.clear(reply, SESSION_COOKIE, '/');
          return { ended };
        },
      );

      consoleRoute(
        api,
        'PUT',
        '/me/language',
        {
          summary: 'Remember the console and mail language',
          body: z.object({ language: z.enum(LANGUAGES) }),
          status: 204,
          errors,
        },
        async (request) => accounts.signIn.setLanguage(sessionOfRequest(request).user.id, request.body.language),
      );

      memberRoute(
        'GET',
        '/organizations/:orgId/members',
        { summary: "The organization's members", params: orgParams, response: z.array(memberSchema), errors },
        async (member) =>
          (await accounts.members.list(member.caller.organization.id, managerOf(member))).map(toMemberJson),
      );

      api.post(
        '/organizations/:orgId/members',
        {
          schema: {
            tags,
            security,
            summary: 'Add a member (admins and owners; only owners add owners)',
            params: orgParams,
            body: newMemberSchema,
            response: { 201: memberSchema, 200: memberSchema, ...errors },
          },
        },
        async (request, reply) => {
          const manager = await acting(request, request.params.orgId);
          const { member, created } = await accounts.members.add(
            manager.caller.organization.id,
            request.body,
            managerOf(manager),
          );
          return reply.code(created ? 201 : 200).send(toMemberJson(member));
        },
      );

      const memberParams = orgParams.extend({ userId: idSchema });

      memberRoute(
        'PUT',
        '/organizations/:orgId/members/:userId',
        {
          summary: "Change a member's role",
          params: memberParams,
          body: z.object({ role: z.enum(ROLES) }),
          status: 204,
          errors,
        },
        async (manager, request) =>
          accounts.members.changeRole(
            manager.caller.organization.id,
            request.params.userId,
            request.body.role,
            managerOf(manager),
          ),
      );

      memberRoute(
        'DELETE',
        '/organizations/:orgId/members/:userId',
        { summary: 'Remove a member', params: memberParams, status: 204, errors },
        async (manager, request) =>
          accounts.members.remove(manager.caller.organization.id, request.params.userId, managerOf(manager)),
      );

      api.get(
        '/organizations/:orgId/audit-log',
        {
          schema: {
            tags,
            security,
            summary: 'Security-relevant actions in the organization, newest first (admins and owners)',
            description:
              'Filters combine (all must hold) and are applied before paging: `action` is one exact action ' +
              '(one of the listed values; anything else is 400 VALIDATION_FAILED), `actorUserId` the acting user, ' +
              '`from` (inclusive) and `to` (exclusive) ISO-8601 date-times with a zone (Z or an offset). ' +
              'Page on with `before` = the last id of the previous page. `actor` is the acting user as they are ' +
              'now, null when no user acted (the operator, a partner, the service) or the account is gone.',
            params: orgParams,
            querystring: z
              .object({
                limit: z.coerce.number().int().min(1).max(200).default(50),
                before: idSchema.optional(),
                action: z.enum(AUDIT_ACTIONS).optional(),
                actorUserId: idSchema.optional(),
                from: isoDateTime.optional(),
                to: isoDateTime.optional(),
              })
              .refine((q) => !q.from || !q.to || q.from < q.to, { message: 'from must be before to', path: ['to'] }),
            response: {
              200: z.array(
                z.object({
                  id: z.number().int(),
                  action: z.string(),
                  actorType: z.enum(['operator', 'user', 'partner', 'api_key', 'system']),
                  actorUserId: z.number().int().nullable(),
                  actor: z.object({ email: z.string(), name: z.string().nullable() }).nullable(),
                  target: z.string().nullable(),
                  details: z.record(z.string(), z.unknown()),
                  createdAt: z.string(),
                }),
              ),
              ...errors,
            },
          },
        },
        async (request) => {
          const { caller } = await acting(request, request.params.orgId);
          const { limit, before, action, actorUserId, from, to } = request.query;
          const entries = await accounts.console.auditLog(caller, {
            limit,
            beforeId: before,
            action,
            actorUserId,
            from,
            to,
          });
          return entries.map((a) => ({
            id: a.id,
            action: a.action,
            actorType: a.actorType,
            actorUserId: a.actorUserId,
            actor: a.actor,
            target: a.target,
            details: a.details,
            createdAt: a.createdAt.toISOString(),
          }));
        },
      );
    },
    { prefix: '/console/api' },
  );
};
