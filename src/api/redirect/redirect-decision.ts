// What a click on a resolved link gets, decided from the request's facts alone, and the click
// event it records. Both ways a redirect is answered use these: the Fastify route (every outcome)
// and the fast path in front of Fastify (plain 302s only), so they cannot drift apart.
import type { IncomingHttpHeaders } from 'node:http';
import querystring from 'node:querystring';
import { clickEvent as buildClickEvent } from '../../core/clicks/click-event.js';
import { classifyAgent, mobilePlatformOf, type MobilePlatform } from '../../shared/user-agents.js';
import { withClickParameters } from './destination.js';
import { cleanLine } from '../schemas/text.js';
import type { CachedLink } from './link-resolver.js';

/** The request as the redirect sees it. */
export interface ClickFacts {
  method: string;
  /** Path and query as received. */
  url: string;
  hostname: string;
  ip: string;
  headers: IncomingHttpHeaders;
  /** The first path segment of /{appPath}/{slug}. */
  appPath: string | undefined;
}

export type RedirectDecision =
  | { kind: 'not_found' }
  | { kind: 'expired' }
  /** A share-preview fetcher: the preview page, recorded as bot traffic. */
  | { kind: 'preview'; destination: string; record: boolean }
  /** A phone with the link's app for its platform: the deep-link landing page (or `fallback`). */
  | { kind: 'landing'; platform: MobilePlatform; fallback: string; record: true }
  | { kind: 'ad_page'; destination: string; record: boolean }
  | { kind: 'redirect'; location: string; record: boolean };

export function decideRedirect(link: CachedLink, facts: ClickFacts, now: number): RedirectDecision {
  const { appPath } = facts;
  if (appPath !== undefined && appPath !== link.ios?.path && appPath !== link.android?.path) return { kind: 'not_found' };
  if (link.expiresAt !== null && link.expiresAt <= now) return { kind: 'expired' };

  // HEAD answers like GET but is no click.
  const record = facts.method !== 'HEAD';
  const userAgent = facts.headers['user-agent'];
  const queryStart = facts.url.indexOf('?');
  const destination = queryStart < 0 ? link.destination : withClickParameters(link.destination, facts.url.slice(queryStart + 1));

  const agent = classifyAgent(userAgent);
  if (agent === 'unfurler') return { kind: 'preview', destination, record };
  // A phone with an app for its platform: the deep-link landing page; the ad interstitial is for
  // the web. Crawlers with phone user agents (Googlebot smartphone) get no landing: nobody will
  // open an app.
  const platform = mobilePlatformOf(userAgent);
  if (record && agent === 'person' && platform && (platform === 'IOS' ? link.ios : link.android)) {
    return { kind: 'landing', platform, fallback: link.mobileTargetUrl ?? destination, record };
  }
  if (link.showAdPage) return { kind: 'ad_page', destination, record };
  // Phones go to the link's mobile fallback when it has one.
  return { kind: 'redirect', location: link.mobileTargetUrl && platform ? link.mobileTargetUrl : destination, record };
}

type Query = querystring.ParsedUrlQuery;

/** A click parameter as stored: whatever the link was opened with, cleaned rather than refused. */
const firstOf = (query: Query | undefined, name: string): string => {
  const v = query?.[name];
  return cleanLine((Array.isArray(v) ? v[0] : v) ?? '');
};

/** The click event of a counted request (bot: a preview fetcher), with the parameters the link was opened with. */
export function clickEvent(link: CachedLink, facts: ClickFacts, bot: boolean) {
  const h = facts.headers;
  const queryStart = facts.url.indexOf('?');
  const query = queryStart < 0 ? undefined : querystring.parse(facts.url.slice(queryStart + 1));
  const campaign = link.kind === 'campaign';
  return buildClickEvent({
    link,
    host: facts.hostname,
    ip: facts.ip,
    userAgent: h['user-agent'],
    referrer: h.referer,
    acceptLanguage: h['accept-language'],
    cid: campaign ? firstOf(query, 'cid') : undefined,
    tracker: campaign ? firstOf(query, 'tracker') : undefined,
    utmSource: firstOf(query, 'utm_source'),
    utmMedium: firstOf(query, 'utm_medium'),
    utmCampaign: firstOf(query, 'utm_campaign'),
    utmTerm: firstOf(query, 'utm_term'),
    utmContent: firstOf(query, 'utm_content'),
    bot,
    source: 'redirect',
  });
}
