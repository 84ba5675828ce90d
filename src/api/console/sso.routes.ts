// GET /sso/callback: a partner's browser redirect with its signed token, and the terms consent a
// new user passes through. A failure answers the spec's Korean message as a page with a link back
// to the partner's login (JSON when the client accepts only JSON), and is logged with its reason,
// never the token.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountServices } from '../../core/accounts/index.js';
import { isSsoFailure, SSO_FAILURES_EN } from '../../core/accounts/sso-errors.js';
import type { Config } from '../../shared/config.js';
import { isDomainError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import type { AuthFailureLimiter } from '../auth-failures.js';
import { errorBodySchema } from '../schemas/common.js';
import { errorBody, httpHeadersOf, httpStatusOf } from '../error-handler.js';
import {
  CONSENT_COOKIE,
  cookieJar,
  cookiesOf,
  isLoopbackDevelopment,
  languageOf,
  requestOrigin,
  SESSION_COOKIE,
  wantsJson,
} from './browser-session.js';
import { DEFAULT_TERMS, checkMailPage, consentPage, messagePage, ssoErrorPage } from './pages.js';
import { sendPage } from './send-page.js';
import { registerFormParser, sameOrigin } from './forms.js';

export interface SsoRouteDeps {
  accounts: AccountServices;
  config: Config;
  log: Logger;
  signInAttempts: AuthFailureLimiter;
}

export const ssoRoutes: FastifyPluginAsyncZod<SsoRouteDeps> = async (
  app,
  { accounts, config, log: rootLog, signInAttempts },
) => {
  const log = rootLog.child({ module: 'sso' });
  const jar = cookieJar(config);
  const development = isLoopbackDevelopment(config.server.publicBaseUrl);
  registerFormParser(app);

  /** Answers a failure as the spec's message: a page, or the error body for a JSON-only client. */
  function fail(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
    if (!isDomainError(err)) throw err;
    const status = httpStatusOf(err);
    const details = err.details ?? {};
    log.warn(
      { code: err.code, reason: details.reason, status, clientId: (request.query as { client_id?: string }).client_id },
      'single sign-on refused',
    );
    reply.headers(httpHeadersOf(err));
    if (wantsJson(request)) return reply.code(status).send(errorBody(status, err.code, err.message));
    const loginUrl = typeof details.loginUrl === 'string' ? details.loginUrl : null;
    const english = isSsoFailure(err.code) ? SSO_FAILURES_EN[err.code] : undefined;
    return sendPage(reply, status, (nonce) =>
      ssoErrorPage({ language: languageOf(request), nonce, message: err.message, english, loginUrl }),
    );
  }

  app.get(
    '/sso/callback',
    {
      schema: {
        tags: ['single sign-on'],
        summary: "A partner's sign-in: the browser arrives with the partner's HS256 token",
        description:
          'Succeeds with a 302 into the console, or to the terms consent or a "check your mail" page. ' +
          'A reused jti or a missing email for a new user is 400; an expired or over-long token, a bad signature, an unknown client_id or a client_id mismatch is 401; ' +
          'plain HTTP or a disallowed origin is 403. Errors answer an HTML page with the Korean message (JSON when the request accepts only JSON).',
        querystring: z.object({
          token: z.string().max(8192).optional(),
          client_id: z.string().max(200).optional(),
          lang: z.string().optional(),
        }),
        produces: ['text/html'],
        response: {
          200: z.string().describe('An HTML page: the terms consent or "check your mail"'),
          302: z.null().describe('Signed in: on to the console'),
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      try {
        signInAttempts.check(request);
        const current = cookiesOf(request).get(SESSION_COOKIE);
        const outcome = await accounts.sso.callback({
          token: request.query.token,
          clientId: request.query.client_id,
          origin: requestOrigin(request),
          secure: request.protocol === 'https' || development,
          language: languageOf(request),
          client: { ip: request.ip, userAgent: request.headers['user-agent'], currentToken: current },
        });
        switch (outcome.kind) {
          case 'signed_in':
            jar.set(reply, SESSION_COOKIE, outcome.session.token, { path: '/', expires: outcome.session.expiresAt });
            return reply.redirect('/console/', 302);
          case 'consent':
            jar.set(reply, CONSENT_COOKIE, outcome.consentToken, { path: '/sso' });
            return reply.redirect(`/sso/consent?lang=${languageOf(request)}`, 302);
          case 'verification_sent':
            return sendPage(reply, 200, (nonce) =>
              checkMailPage({ language: languageOf(request), nonce, to: outcome.to, minutes: outcome.minutes }),
            );
        }
      } catch (err) {
        // Only refused tokens count toward the address's limit: many good sign-ins may share one address.
        if (isDomainError(err) && err.kind !== 'limited') signInAttempts.fail(request);
        return fail(request, reply, err);
      }
    },
  );

  app.get(
    '/sso/consent',
    { schema: { hide: true, querystring: z.object({ lang: z.string().optional() }) } },
    async (request, reply) => {
      try {
        const view = await accounts.sso.consent(cookiesOf(request).get(CONSENT_COOKIE) ?? '');
        const language = languageOf(request);
        const terms = config.signupTerms[language] ?? DEFAULT_TERMS[language];
        return sendPage(reply, 200, (nonce) =>
          consentPage({
            language,
            nonce,
            serviceName: view.serviceName,
            email: view.email,
            terms,
            termsUrl: config.signupTerms.url,
          }),
        );
      } catch (err) {
        return fail(request, reply, err);
      }
    },
  );

  app.post(
    '/sso/consent',
    {
      schema: {
        hide: true,
        querystring: z.object({ lang: z.string().optional() }),
        body: z.object({ decision: z.enum(['accept', 'decline']), accept: z.literal('yes').optional() }),
      },
    },
    async (request, reply) => {
      try {
        sameOrigin(request, config.server.publicBaseUrl);
        const token = cookiesOf(request).get(CONSENT_COOKIE) ?? '';
        const language = languageOf(request);
        if (request.body.decision === 'decline' || request.body.accept !== 'yes') {
          jar.clear(reply, CONSENT_COOKIE, '/sso');
          return sendPage(reply, 200, (nonce) => messagePage({ language, nonce, title: 'declined' }));
        }
        const sent = await accounts.sso.acceptConsent(token, language);
        jar.clear(reply, CONSENT_COOKIE, '/sso');
        return sendPage(reply, 200, (nonce) => checkMailPage({ language, nonce, to: sent.to, minutes: sent.minutes }));
      } catch (err) {
        return fail(request, reply, err);
      }
    },
  );
};
