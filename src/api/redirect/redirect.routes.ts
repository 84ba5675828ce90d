// The redirect: GET (and HEAD) /{slug} and /{appPath}/{slug} on the public host and on custom
// domains. The product's heartbeat, so it stays lean: one cache look-up (synchronous on a hit),
// a click envelope handed to the publisher without waiting, and the answer. Everything else
// (user-agent parsing, geo, bot detection beyond preview fetchers) happens in the consumer.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { uuidv7 } from '../../shared/ids.js';
import { classifyAgent, mobilePlatformOf } from '../../shared/user-agents.js';
import type { AppDeps } from '../deps.js';
import { isReservedSlug } from '../service/link-rules.js';
import { createDeepLinkLanding } from './deep-link-landing.js';
import { withClickParameters } from './destination.js';
import { landingPage } from './landing-page.js';
import type { CachedLink, LinkResolver, Resolution } from './link-resolver.js';
import { adInterstitialPage, expiredPage, notFoundPage, sharePreviewPage, unavailablePage } from './pages.js';

const SLUG = /^[A-Za-z0-9_-]{1,50}$/;
const HTML = 'text/html; charset=utf-8';

interface Params {
  appPath?: string;
  slug: string;
}

type Query = Record<string, string | string[] | undefined>;

/** A query parameter's first value. Module-level: no closure made per click. */
function firstOf(query: Query, name: string): string {
  const v = query[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

export function registerRedirectRoutes(app: FastifyInstance, deps: AppDeps & { links: LinkResolver }): void {
  const { links, events, config, metrics } = deps;
  metrics.define('redirects_total', 'counter', 'Redirect requests by outcome');
  const outcomes = Object.fromEntries(
    ['redirect', 'not_found', 'expired', 'preview', 'ad_page', 'unavailable', 'landing'].map((outcome) => [outcome, metrics.counter('redirects_total', { outcome })]),
  );

  const deepLinkLanding = createDeepLinkLanding({ deepLinks: deps.deepLinks, publicBaseUrl: config.publicBaseUrl });

  function sendPage(reply: FastifyReply, status: number, html: string, outcome: string): FastifyReply {
    outcomes[outcome]?.inc();
    return reply.code(status).header('cache-control', 'no-store').type(HTML).send(html);
  }

  function recordClick(request: FastifyRequest, link: CachedLink, bot: boolean): void {
    const query = request.query as Query;
    const h = request.headers;
    const campaign = link.kind === 'campaign';
    events.record({
      eventId: uuidv7(),
      type: 'click',
      occurredAt: Date.now(),
      organizationId: link.organizationId,
      data: {
        linkType: link.kind,
        linkId: link.id,
        host: request.hostname,
        cid: campaign ? firstOf(query, 'cid') : '',
        tracker: campaign ? firstOf(query, 'tracker') : '',
        referrer: h.referer ?? '',
        userAgent: h['user-agent'] ?? '',
        ip: request.ip,
        acceptLanguage: (h['accept-language'] ?? '').slice(0, 100),
        utmSource: firstOf(query, 'utm_source'),
        utmMedium: firstOf(query, 'utm_medium'),
        utmCampaign: firstOf(query, 'utm_campaign'),
        utmTerm: firstOf(query, 'utm_term'),
        utmContent: firstOf(query, 'utm_content'),
        bot,
      },
    });
  }

  function answer(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, resolution: Resolution): FastifyReply | Promise<FastifyReply> {
    if (resolution === undefined || resolution === 'unusable-domain') return sendPage(reply, 404, notFoundPage(), 'not_found');
    const link = resolution;
    const { appPath } = request.params;
    if (appPath !== undefined && appPath !== link.ios?.path && appPath !== link.android?.path) {
      return sendPage(reply, 404, notFoundPage(), 'not_found');
    }
    if (link.expiresAt !== null && link.expiresAt <= Date.now()) return sendPage(reply, 410, expiredPage(), 'expired');

    const counted = request.method !== 'HEAD';
    const userAgent = request.headers['user-agent'];
    const queryStart = request.url.indexOf('?');
    const destination = queryStart < 0 ? link.destination : withClickParameters(link.destination, request.url.slice(queryStart + 1));

    const agent = classifyAgent(userAgent);
    if (agent === 'unfurler') {
      if (counted) recordClick(request, link, true);
      const url = `${config.publicBaseUrl}${request.url.split('?')[0]}`;
      return sendPage(reply, 200, sharePreviewPage({
        url,
        destination,
        title: link.ogTitle ?? link.title ?? url,
        description: link.ogDescription,
        imageUrl: link.ogImageUrl,
      }), 'preview');
    }
    if (counted) recordClick(request, link, false);
    // A phone with an app for its platform: the deep-link landing page (it is the click, counted
    // above); the ad interstitial is for the web. Without its token, the plain mobile redirect.
    // Crawlers with phone user agents (Googlebot smartphone) get no token: nobody will open an app.
    const platform = mobilePlatformOf(userAgent);
    if (counted && agent === 'person' && platform && (platform === 'IOS' ? link.ios : link.android)) {
      const fallback = link.mobileTargetUrl ?? destination;
      return deepLinkLanding.prepare(request, link, platform, fallback).then((input) =>
        input ? sendPage(reply, 200, landingPage(input), 'landing') : redirectTo(reply, fallback));
    }
    if (link.showAdPage) {
      return sendPage(reply, 200, adInterstitialPage({ destination, seconds: config.adPageSeconds, adSlotHtml: config.adPageHtml, title: link.title }), 'ad_page');
    }
    // Phones go to the link's mobile fallback when it has one.
    return redirectTo(reply, link.mobileTargetUrl && platform ? link.mobileTargetUrl : destination);
  }

  function redirectTo(reply: FastifyReply, location: string): FastifyReply {
    outcomes.redirect!.inc();
    return reply.code(302).header('location', location).header('cache-control', 'private, max-age=0').send();
  }

  function handle(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): FastifyReply | Promise<FastifyReply> {
    const { appPath, slug } = request.params;
    // Paths of the service itself and malformed slugs are not links: the JSON 404 of the API.
    if (isReservedSlug(appPath ?? slug) || !SLUG.test(slug) || (appPath !== undefined && !SLUG.test(appPath))) {
      return reply.callNotFound() as unknown as FastifyReply;
    }
    let resolution: Resolution | Promise<Resolution>;
    try {
      resolution = links.resolve(request.hostname, slug);
    } catch (err) {
      request.log.error({ err }, 'link look-up failed');
      return sendPage(reply, 503, unavailablePage(), 'unavailable');
    }
    if (!(resolution instanceof Promise)) return answer(request, reply, resolution);
    return resolution.then(
      (resolved) => answer(request, reply, resolved),
      (err: unknown) => {
        request.log.error({ err }, 'link look-up failed');
        return sendPage(reply.header('retry-after', '5'), 503, unavailablePage(), 'unavailable');
      },
    );
  }

  app.get<{ Params: Params }>('/:slug', { schema: { hide: true } }, handle);
  app.get<{ Params: Params }>('/:appPath/:slug', { schema: { hide: true } }, handle);
}
