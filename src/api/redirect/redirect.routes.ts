// The redirect: GET (and HEAD) /{slug} and /{appPath}/{slug} on the public host and on custom
// domains. The product's heartbeat, so it stays lean: one cache look-up (synchronous on a hit),
// a click envelope handed to the publisher without waiting, and the answer. Everything else
// (user-agent parsing, geo, bot detection beyond preview fetchers) happens in the consumer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientAddress } from '../client-address.js';
import { ASKED_CLIENT_HINTS } from '../../core/deeplinks/device-signals.js';
import type { DeepLinkServices } from '../../core/deeplinks/index.js';
import { newDeepLinkToken } from '../../core/deeplinks/landing.service.js';
import type { ClickTokens } from '../../core/clicks/click-token.js';
import type { EventPublisher } from '../../core/event-publisher.js';
import { withClickToken } from '../../core/redirect/destination.js';
import { isReservedSlug } from '../../core/links/link-rules.js';
import { landingPage } from './landing-page.js';
import type { CachedLink, LinkResolver, Resolution } from '../../core/redirect/link-resolver.js';
import { clickEvent, clickIdOf, type ClickFacts, type ClickQuery, decide, landingClick } from './click-facts.js';
import {
  adInterstitialPage,
  expiredPage,
  limitReachedPage,
  notFoundPage,
  passwordPage,
  sharePreviewPage,
  unavailablePage,
} from './pages.js';
import type { ClickLimits } from '../../core/redirect/click-limits.js';
import {
  checkLinkPassword,
  isUnlocked,
  UNLOCK_SECONDS,
  unlockCookieName,
  unlockProof,
} from '../../core/redirect/link-unlock.js';
import type { ClickGate } from '../../core/redirect/redirect-decision.js';
import type { AuthFailureLimiters } from '../auth-failures.js';
import { sendError } from '../error-handler.js';
import { cookieJar, cookiesOf } from '../console/browser-session.js';
import { registerFormParser } from '../console/forms.js';
import { isDomainError } from '../../shared/errors.js';
import { negotiateLanguage, PAGE_LANGUAGES, type PageLanguage } from '../../shared/language.js';
import { operatorHostRule } from '../operator-host.js';
import type { FastRedirectAnswered } from '../request-log.js';
import { newNonce, pagePolicy, redirectSecurityHeaders, type PagePolicyOptions } from '../security-headers.js';
import type { Config } from '../../shared/config.js';
import type { Logger } from '../../shared/logger.js';
import type { Metrics } from '../../shared/metrics.js';
import { webSdkPath } from '../../web-sdk/version.js';

const SLUG = /^[A-Za-z0-9_-]{1,50}$/;
const HTML = 'text/html; charset=utf-8';

interface Params {
  appPath?: string;
  slug: string;
}

/** A redirect's caching: browsers may not reuse it, or the next click would go uncounted. */
const REDIRECT_CACHE_CONTROL = 'private, max-age=0';

/**
 * Answers the common click (GET of a cached link by a person, nothing but a 302 to send) before
 * Fastify sees the request: routing, request and reply objects, hooks and a child logger cost
 * about a quarter of a redirect. True when it answered; false leaves the request to Fastify,
 * which then decides the same way (click-facts.ts) and answers everything else.
 */
export type FastRedirect = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface FastRedirectOptions {
  address: ClientAddress;
  /** The request id Fastify would give (the caller's X-Request-Id when sane). */
  requestId: (incoming: unknown) => string;
  /** Single-segment paths Fastify serves itself (/metrics, /health…): never taken for links. */
  isOwnPath: (path: string) => boolean;
  /** Its latency and sampled access-log line. */
  answered: FastRedirectAnswered;
}

/** The pages' language off customers' domains when the browser names none of ours: the service's home market. */
const PLATFORM_LANGUAGE: PageLanguage = 'ko';

/** The redirect's route patterns. */
export const REDIRECT_ROUTES = ['/:slug', '/:appPath/:slug'] as const;

/** Answers the link at a one-segment path that a route of the service took on a host where it does not serve. */
export type ServeSlug = (
  request: FastifyRequest,
  reply: FastifyReply,
  slug: string,
) => FastifyReply | Promise<FastifyReply>;

export interface RedirectDeps {
  /** Cached slug → link resolution. */
  redirect: LinkResolver;
  /** Clicks are recorded without waiting. */
  events: Pick<EventPublisher, 'record'>;
  /** A phone's click on a link with an app: its deep-link token and landing page. */
  deepLinks: Pick<DeepLinkServices, 'landing'>;
  /** Links with a click limit: whether a click may pass, counted in memory. */
  clickLimits: Pick<ClickLimits, 'pass'>;
  /** Links with conversion tracking: the click id appended to the destination, made in memory. */
  clickTokens: Pick<ClickTokens, 'make'>;
  /** Wrong passwords of protected links, per address and link. */
  authFailures: Pick<AuthFailureLimiters, 'linkPassword'>;
  config: Config;
  metrics: Metrics;
  log: Logger;
}

export function registerRedirectRoutes(
  app: FastifyInstance,
  deps: RedirectDeps,
  fast: FastRedirectOptions,
): { fastRedirect: FastRedirect; serveSlug: ServeSlug } {
  const { redirect: resolver, events, config, metrics } = deps;
  const outcomeNames = [
    'redirect',
    'not_found',
    'expired',
    'limit_reached',
    'password',
    'preview',
    'ad_page',
    'unavailable',
    'landing',
  ];
  metrics.define('redirects_total', 'counter', 'Redirect requests by outcome', { labels: { outcome: outcomeNames } });
  const outcomes = Object.fromEntries(
    outcomeNames.map((outcome) => [outcome, metrics.counter('redirects_total', { outcome })]),
  );

  const isOperatorHost = operatorHostRule(config);
  const { publicBaseUrl } = config.server;
  const sdkUrl = `${publicBaseUrl}${webSdkPath()}`;

  /**
   * An HTML page under its own Content-Security-Policy, its inline code allowed by a fresh nonce,
   * in the visitor's language.
   */
  function sendPage(
    reply: FastifyReply,
    status: number,
    language: PageLanguage,
    render: (nonce: string, language: PageLanguage) => string,
    outcome: string | undefined,
    policy: Omit<PagePolicyOptions, 'nonce'> = {},
  ): FastifyReply {
    if (outcome !== undefined) outcomes[outcome]?.inc();
    const nonce = newNonce();
    return reply
      .code(status)
      .header('cache-control', 'no-store')
      .header('content-language', language)
      .header('content-security-policy', pagePolicy({ ...policy, nonce }))
      .type(HTML)
      .send(render(nonce, language));
  }

  /** The first of our languages the visitor's browser asks for, else the link owner's. */
  const visitorLanguage = (request: FastifyRequest, owner: PageLanguage): PageLanguage =>
    negotiateLanguage(request.headers['accept-language'], PAGE_LANGUAGES) ?? owner;

  /** The 404 page: in the language of the custom domain's owner when the browser names none of ours. */
  async function sendNotFound(
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: string | undefined,
  ): Promise<FastifyReply> {
    const domain = await resolver.domainAt(request.hostname);
    return sendPage(reply, 404, visitorLanguage(request, domain?.language ?? PLATFORM_LANGUAGE), notFoundPage, outcome);
  }
  const landingPolicy = { connect: [new URL(publicBaseUrl).origin], httpsImages: true };
  const cookies = cookieJar(config);
  const lockedGate: ClickGate = { unlocked: false, limits: deps.clickLimits };

  /** The gate of a click through Fastify: a protected link is unlocked by the browser's proof. */
  function gateOf(request: FastifyRequest, link: CachedLink, now: number): ClickGate {
    if (link.passwordHash === null) return lockedGate;
    const proof = cookiesOf(request).get(unlockCookieName(link));
    return { unlocked: isUnlocked(link, proof, now), limits: deps.clickLimits };
  }

  function sendPasswordPage(
    reply: FastifyReply,
    status: number,
    language: PageLanguage,
    link: CachedLink,
    problem: 'wrong' | 'too-many' | undefined,
  ): FastifyReply {
    return sendPage(
      reply,
      status,
      language,
      (nonce) => passwordPage({ title: link.title, problem, nonce, language }),
      'password',
      { forms: true, formRedirects: true },
    );
  }
  const adPolicy = { operatorAd: config.redirect.adPageHtml.trim() !== '' };

  function answer(
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    resolution: Resolution,
  ): FastifyReply | Promise<FastifyReply> {
    if (resolution === undefined || resolution === 'unusable-domain') return sendNotFound(request, reply, 'not_found');
    const link = resolution;
    const facts: ClickFacts = {
      method: request.method,
      url: request.url,
      hostname: request.hostname,
      ip: request.ip,
      headers: request.headers,
      appPath: request.params.appPath,
    };
    const now = Date.now();
    const decision = decide(link, facts, now, gateOf(request, link, now));
    // A plain redirect shows no page: no language to choose.
    const language = decision.kind === 'redirect' ? link.language : visitorLanguage(request, link.language);
    if (decision.kind === 'not_found') return sendPage(reply, 404, language, notFoundPage, 'not_found');
    if (decision.kind === 'expired') return sendPage(reply, 410, language, expiredPage, 'expired');
    if (decision.kind === 'limit_reached') return sendPage(reply, 410, language, limitReachedPage, 'limit_reached');
    if (decision.kind === 'password') return sendPasswordPage(reply, 200, language, link, undefined);
    // A landing page's click carries its deep-link token, and a web click of a link with conversion
    // tracking its click id: the conversions the token brings are this click's.
    const token = decision.kind === 'landing' ? newDeepLinkToken() : clickIdOf(link, decision, deps.clickTokens);
    if (decision.record) events.record(clickEvent(link, facts, decision.kind === 'preview', decision.routed, token));
    switch (decision.kind) {
      case 'preview': {
        const url = `${publicBaseUrl}${request.url.split('?')[0]}`;
        // A protected link's card shows its title and nothing of where it goes.
        const shown = decision.protected
          ? { destination: url, title: link.title ?? url, description: null, imageUrl: null }
          : {
              destination: decision.destination,
              title: link.ogTitle ?? link.title ?? url,
              description: link.ogDescription,
              imageUrl: link.ogImageUrl,
            };
        return sendPage(
          reply,
          200,
          language,
          (nonce) => sharePreviewPage({ url, ...shown, nonce, language }),
          'preview',
        );
      }
      case 'landing':
        // The page carries a deep-link token; without one (not written in time), the plain redirect.
        return deps.deepLinks.landing
          .prepare(landingClick(link, facts, decision, request.query as ClickQuery, token!), request.log)
          .then((landing) =>
            landing
              ? // Chromium then sends the Android model and version with the page's own calls and the next clicks.
                sendPage(
                  reply.header('accept-ch', ASKED_CLIENT_HINTS),
                  200,
                  language,
                  (nonce) => landingPage({ ...landing, apiBase: publicBaseUrl, sdkUrl, locale: language }, nonce),
                  'landing',
                  landingPolicy,
                )
              : redirectTo(reply, decision.fallback),
          );
      case 'ad_page':
        return sendPage(
          reply,
          200,
          language,
          (nonce) =>
            adInterstitialPage({
              destination: token ? withClickToken(decision.destination, token) : decision.destination,
              seconds: config.redirect.adPageSeconds,
              adSlotHtml: config.redirect.adPageHtml,
              title: link.title,
              nonce,
              language,
            }),
          'ad_page',
          adPolicy,
        );
      case 'redirect':
        return redirectTo(reply, token ? withClickToken(decision.location, token) : decision.location);
    }
  }

  function redirectTo(reply: FastifyReply, location: string): FastifyReply {
    outcomes.redirect!.inc();
    return reply.code(302).header('location', location).header('cache-control', REDIRECT_CACHE_CONTROL).send();
  }

  function handle(
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
  ): FastifyReply | Promise<FastifyReply> {
    const { appPath, slug } = request.params;
    // Malformed slugs and app paths that are paths of the service are not links: the JSON 404 of the
    // API, except at one segment on a customer's domain, where every miss is the 404 page.
    if (!SLUG.test(slug) || (appPath !== undefined && (!SLUG.test(appPath) || isReservedSlug(appPath)))) {
      if (appPath === undefined && !isOperatorHost(request.hostname)) return sendNotFound(request, reply, 'not_found');
      return reply.callNotFound() as unknown as FastifyReply;
    }
    return serveSlug(request, reply, slug);
  }

  /**
   * The link at `slug` on the request's host. On the service's own host a path of the service that
   * is no link there is the API's JSON 404; on any other host (a customer's domain) every miss is
   * the 404 page, /docs and /console as much as /nope: the visitor came for a link.
   */
  function serveSlug(request: FastifyRequest, reply: FastifyReply, slug: string): FastifyReply | Promise<FastifyReply> {
    const answerOrNotFound = (resolved: Resolution) =>
      resolved === undefined && isReservedSlug(slug) && isOperatorHost(request.hostname)
        ? (reply.callNotFound() as unknown as FastifyReply)
        : answer(request as FastifyRequest<{ Params: Params }>, reply, resolved);
    let resolution: Resolution | Promise<Resolution>;
    try {
      resolution = resolver.resolve(request.hostname, slug);
    } catch (err) {
      request.log.error({ err }, 'link look-up failed');
      return sendPage(reply, 503, visitorLanguage(request, PLATFORM_LANGUAGE), unavailablePage, 'unavailable');
    }
    if (!(resolution instanceof Promise)) return answerOrNotFound(resolution);
    return resolution.then(answerOrNotFound, (err: unknown) => {
      request.log.error({ err }, 'link look-up failed');
      return sendPage(
        reply.header('retry-after', '5'),
        503,
        visitorLanguage(request, PLATFORM_LANGUAGE),
        unavailablePage,
        'unavailable',
      );
    });
  }

  // The bare root. On the service's own host: the console. On a custom domain: the customer's
  // fallback address, or the 404 page (never anything of the operator's); likewise on a host
  // that is neither.
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const domain = await resolver.domainAt(request.hostname);
    if (domain === undefined && isOperatorHost(request.hostname)) return reply.redirect('/console/', 302);
    if (domain?.usable && domain.fallbackUrl) {
      return reply
        .code(302)
        .header('location', domain.fallbackUrl)
        .header('cache-control', REDIRECT_CACHE_CONTROL)
        .send();
    }
    return sendPage(
      reply,
      404,
      visitorLanguage(request, domain?.language ?? PLATFORM_LANGUAGE),
      notFoundPage,
      undefined,
    );
  });

  // The click parameters are cleaned where they are read (click-facts.ts, deep-link-landing.ts).
  const options = { schema: { hide: true }, config: { cleansOwnQuery: true } };
  for (const route of REDIRECT_ROUTES) app.get<{ Params: Params }>(route, options, handle);

  /**
   * The password form's post, to the link's own address. The right password unlocks the link in
   * this browser for a day (a cookie) and sends the visitor on, counting the click; a wrong one is
   * the form again (401), and too many wrong ones from one address lock that address out of the
   * link for a while (429). Only a protected link takes a post.
   */
  async function unlock(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<FastifyReply> {
    const { appPath, slug } = request.params;
    if (!SLUG.test(slug) || (appPath !== undefined && !SLUG.test(appPath)))
      return sendNotFound(request, reply, undefined);
    let resolution: Resolution;
    try {
      resolution = await resolver.resolve(request.hostname, slug);
    } catch (err) {
      request.log.error({ err }, 'link look-up failed');
      const language = visitorLanguage(request, PLATFORM_LANGUAGE);
      return sendPage(reply.header('retry-after', '5'), 503, language, unavailablePage, 'unavailable');
    }
    if (resolution === undefined || resolution === 'unusable-domain') return sendNotFound(request, reply, 'not_found');
    const link = resolution;
    if (link.passwordHash === null) {
      return sendError(reply.header('allow', 'GET, HEAD'), 405, 'METHOD_NOT_ALLOWED', 'this link takes no form');
    }
    const language = visitorLanguage(request, link.language);
    const scope = `${link.kind}:${link.id}`;
    try {
      deps.authFailures.linkPassword.check(request, scope);
    } catch (err) {
      if (!isDomainError(err)) throw err;
      const wait = String(err.retryAfterSeconds ?? 60);
      return sendPasswordPage(reply.header('retry-after', wait), 429, language, link, 'too-many');
    }
    const body = request.body as { password?: unknown } | undefined;
    const password = typeof body?.password === 'string' ? body.password : '';
    if (password.length > 256 || !(await checkLinkPassword(link, password))) {
      deps.authFailures.linkPassword.fail(request, scope);
      return sendPasswordPage(reply, 401, language, link, 'wrong');
    }
    const now = Date.now();
    cookies.set(reply, unlockCookieName(link), unlockProof(link, now), {
      path: '/',
      expires: new Date(now + UNLOCK_SECONDS * 1000),
    });
    const facts: ClickFacts = {
      method: 'POST',
      url: request.url,
      hostname: request.hostname,
      ip: request.ip,
      headers: request.headers,
      appPath,
    };
    const decision = decide(link, facts, now, { unlocked: true, limits: deps.clickLimits });
    switch (decision.kind) {
      case 'not_found':
        return sendPage(reply, 404, language, notFoundPage, 'not_found');
      case 'expired':
        return sendPage(reply, 410, language, expiredPage, 'expired');
      case 'limit_reached':
        return sendPage(reply, 410, language, limitReachedPage, 'limit_reached');
      case 'password':
        return sendPasswordPage(reply, 200, language, link, undefined);
      default: {
        // Sent on to where the click would have gone; a phone with the app gets the link's mobile destination.
        const token = clickIdOf(link, decision, deps.clickTokens);
        if (decision.record)
          events.record(clickEvent(link, facts, decision.kind === 'preview', decision.routed, token));
        const location =
          decision.kind === 'redirect'
            ? decision.location
            : decision.kind === 'landing'
              ? decision.fallback
              : decision.destination;
        return redirectTo(reply, token ? withClickToken(location, token) : location);
      }
    }
  }
  void app.register(async (forms) => {
    registerFormParser(forms);
    for (const route of REDIRECT_ROUTES) forms.post<{ Params: Params }>(route, options, unlock);
  });

  const redirected = outcomes.redirect!;
  const securityHeaders = redirectSecurityHeaders(fast.address);
  metrics.define(
    'redirects_fast_path_total',
    'counter',
    'Redirects answered in front of the router (also in redirects_total)',
  );
  const answeredInFront = metrics.counter('redirects_fast_path_total', {});
  function answerInFront(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET') return false;
    const startedAt = performance.now();
    const url = req.url ?? '';
    const queryStart = url.indexOf('?');
    const path = queryStart < 0 ? url : url.slice(0, queryStart);
    // Only /{slug} spelled plainly: anything encoded, nested or trailing goes through the router.
    const slug = path.slice(1);
    if (path[0] !== '/' || !SLUG.test(slug) || isReservedSlug(slug) || fast.isOwnPath(path)) return false;
    const hostname = fast.address.hostname(req);
    const resolution = resolver.resolve(hostname, slug);
    // A cache miss (the router waits for it) or no such link: Fastify answers.
    if (resolution instanceof Promise || resolution === undefined || resolution === 'unusable-domain') return false;
    const link = resolution;
    // A protected or limited link: its cookie or its count decide, through the router.
    if (link.passwordHash !== null || link.clickLimit !== null) return false;
    const facts: ClickFacts = {
      method: 'GET',
      url,
      hostname,
      ip: fast.address.ip(req),
      headers: req.headers,
      appPath: undefined,
    };
    const decision = decide(link, facts, Date.now(), lockedGate);
    if (decision.kind !== 'redirect') return false;
    // A link with conversion tracking: the click's id rides along to the destination (one boolean otherwise).
    const token = link.conversionTracking ? clickIdOf(link, decision, deps.clickTokens) : undefined;
    // Headers first: if Node refuses one, nothing was recorded and Fastify can still answer.
    const requestId = fast.requestId(req.headers['x-request-id']);
    res.writeHead(302, {
      location: token ? withClickToken(decision.location, token) : decision.location,
      'cache-control': REDIRECT_CACHE_CONTROL,
      'x-request-id': requestId,
      'content-length': '0',
      ...securityHeaders(req, hostname),
    });
    if (decision.record) events.record(clickEvent(link, facts, false, decision.routed, token));
    redirected.inc();
    answeredInFront.inc();
    res.end();
    fast.answered(req, path, requestId, startedAt);
    return true;
  }

  function fastRedirect(req: IncomingMessage, res: ServerResponse): boolean {
    try {
      return answerInFront(req, res);
    } catch (err) {
      // Never an uncaught exception in the server's request listener: Fastify takes over.
      deps.log.warn({ err }, 'redirect fast path failed; answering through the router');
      return res.headersSent;
    }
  }

  return { fastRedirect, serveSlug };
}
