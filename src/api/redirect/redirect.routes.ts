// The redirect: GET (and HEAD) /{slug} and /{appPath}/{slug} on the public host and on custom
// domains. The product's heartbeat, so it stays lean: one cache look-up (synchronous on a hit),
// a click envelope handed to the publisher without waiting, and the answer. Everything else
// (user-agent parsing, geo, bot detection beyond preview fetchers) happens in the consumer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientAddress } from '../client-address.js';
import type { AppDeps } from '../deps.js';
import { isReservedSlug } from '../../core/links/link-rules.js';
import { createDeepLinkLanding } from './deep-link-landing.js';
import { landingPage } from './landing-page.js';
import type { Resolution } from '../../core/redirect/link-resolver.js';
import { clickEvent, decide, type ClickFacts } from './click-facts.js';
import { adInterstitialPage, expiredPage, notFoundPage, sharePreviewPage, unavailablePage } from './pages.js';
import { newNonce, pagePolicy, redirectSecurityHeaders, type PagePolicyOptions } from '../security-headers.js';

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
}

export function registerRedirectRoutes(
  app: FastifyInstance,
  deps: Pick<AppDeps, 'redirect' | 'events' | 'config' | 'metrics' | 'deepLinks' | 'log'>,
  fast: FastRedirectOptions,
): FastRedirect {
  const { redirect: resolver, events, config, metrics } = deps;
  metrics.define('redirects_total', 'counter', 'Redirect requests by outcome');
  const outcomes = Object.fromEntries(
    ['redirect', 'not_found', 'expired', 'preview', 'ad_page', 'unavailable', 'landing'].map((outcome) => [outcome, metrics.counter('redirects_total', { outcome })]),
  );

  const deepLinkLanding = createDeepLinkLanding({ deepLinks: deps.deepLinks, publicBaseUrl: config.publicBaseUrl });

  /** An HTML page under its own Content-Security-Policy, its inline code allowed by a fresh nonce. */
  function sendPage(
    reply: FastifyReply,
    status: number,
    render: (nonce: string) => string,
    outcome: string,
    policy: Omit<PagePolicyOptions, 'nonce'> = {},
  ): FastifyReply {
    outcomes[outcome]?.inc();
    const nonce = newNonce();
    return reply
      .code(status)
      .header('cache-control', 'no-store')
      .header('content-security-policy', pagePolicy({ ...policy, nonce }))
      .type(HTML)
      .send(render(nonce));
  }
  const landingPolicy = { connect: [new URL(config.publicBaseUrl).origin], httpsImages: true };
  const adPolicy = { operatorAd: config.adPageHtml.trim() !== '' };

  function answer(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, resolution: Resolution): FastifyReply | Promise<FastifyReply> {
    if (resolution === undefined || resolution === 'unusable-domain') return sendPage(reply, 404, notFoundPage, 'not_found');
    const link = resolution;
    const facts: ClickFacts = {
      method: request.method,
      url: request.url,
      hostname: request.hostname,
      ip: request.ip,
      headers: request.headers,
      appPath: request.params.appPath,
    };
    const decision = decide(link, facts, Date.now());
    if (decision.kind === 'not_found') return sendPage(reply, 404, notFoundPage, 'not_found');
    if (decision.kind === 'expired') return sendPage(reply, 410, expiredPage, 'expired');
    if (decision.record) events.record(clickEvent(link, facts, decision.kind === 'preview'));
    switch (decision.kind) {
      case 'preview': {
        const url = `${config.publicBaseUrl}${request.url.split('?')[0]}`;
        return sendPage(reply, 200, (nonce) => sharePreviewPage({
          url,
          destination: decision.destination,
          title: link.ogTitle ?? link.title ?? url,
          description: link.ogDescription,
          imageUrl: link.ogImageUrl,
          nonce,
        }), 'preview');
      }
      case 'landing':
        // The page carries a deep-link token; without one (not written in time), the plain redirect.
        return deepLinkLanding.prepare(request, link, decision.platform, decision.fallback).then((input) =>
          input ? sendPage(reply, 200, (nonce) => landingPage(input, nonce), 'landing', landingPolicy) : redirectTo(reply, decision.fallback));
      case 'ad_page':
        return sendPage(reply, 200, (nonce) => adInterstitialPage({
          destination: decision.destination, seconds: config.adPageSeconds, adSlotHtml: config.adPageHtml, title: link.title, nonce,
        }), 'ad_page', adPolicy);
      case 'redirect':
        return redirectTo(reply, decision.location);
    }
  }

  function redirectTo(reply: FastifyReply, location: string): FastifyReply {
    outcomes.redirect!.inc();
    return reply.code(302).header('location', location).header('cache-control', REDIRECT_CACHE_CONTROL).send();
  }

  function handle(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply | Promise<FastifyReply> {
    const { appPath, slug } = request.params;
    // Paths of the service itself and malformed slugs are not links: the JSON 404 of the API.
    if (isReservedSlug(appPath ?? slug) || !SLUG.test(slug) || (appPath !== undefined && !SLUG.test(appPath))) {
      return reply.callNotFound() as unknown as FastifyReply;
    }
    let resolution: Resolution | Promise<Resolution>;
    try {
      resolution = resolver.resolve(request.hostname, slug);
    } catch (err) {
      request.log.error({ err }, 'link look-up failed');
      return sendPage(reply, 503, unavailablePage, 'unavailable');
    }
    if (!(resolution instanceof Promise)) return answer(request, reply, resolution);
    return resolution.then(
      (resolved) => answer(request, reply, resolved),
      (err: unknown) => {
        request.log.error({ err }, 'link look-up failed');
        return sendPage(reply.header('retry-after', '5'), 503, unavailablePage, 'unavailable');
      },
    );
  }

  // The click parameters are cleaned where they are read (click-facts.ts, deep-link-landing.ts).
  const options = { schema: { hide: true }, config: { cleansOwnQuery: true } };
  app.get<{ Params: Params }>('/:slug', options, handle);
  app.get<{ Params: Params }>('/:appPath/:slug', options, handle);

  const redirected = outcomes.redirect!;
  const securityHeaders = redirectSecurityHeaders(fast.address);
  metrics.define('redirects_fast_path_total', 'counter', 'Redirects answered in front of the router (also in redirects_total)');
  const answeredInFront = metrics.counter('redirects_fast_path_total', {});
  function answerInFront(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET') return false;
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
    const facts: ClickFacts = { method: 'GET', url, hostname, ip: fast.address.ip(req), headers: req.headers, appPath: undefined };
    const decision = decide(link, facts, Date.now());
    if (decision.kind !== 'redirect') return false;
    // Headers first: if Node refuses one, nothing was recorded and Fastify can still answer.
    res.writeHead(302, {
      location: decision.location,
      'cache-control': REDIRECT_CACHE_CONTROL,
      'x-request-id': fast.requestId(req.headers['x-request-id']),
      'content-length': '0',
      ...securityHeaders(req, hostname),
    });
    if (decision.record) events.record(clickEvent(link, facts, false));
    redirected.inc();
    answeredInFront.inc();
    res.end();
    return true;
  }

  return function fastRedirect(req, res) {
    try {
      return answerInFront(req, res);
    } catch (err) {
      // Never an uncaught exception in the server's request listener: Fastify takes over.
      deps.log.warn({ err }, 'redirect fast path failed; answering through the router');
      return res.headersSent;
    }
  };
}
