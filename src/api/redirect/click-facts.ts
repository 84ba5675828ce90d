// A redirect request as the redirect sees it, what the core decides for it, and the click event
// it records. Both ways a redirect is answered use these: the Fastify route (every outcome) and
// the fast path in front of Fastify (plain 302s only), so they cannot drift apart.
import type { IncomingHttpHeaders } from 'node:http';
import querystring from 'node:querystring';
import { clickEvent as buildClickEvent } from '../../core/clicks/click-event.js';
import type { ClickTokens } from '../../core/clicks/click-token.js';
import type { LandingClick } from '../../core/deeplinks/landing.service.js';
import type { CachedLink } from '../../core/redirect/link-resolver.js';
import type { Routed } from '../../core/routing/routing-rules.js';
import { type ClickGate, decideRedirect, type RedirectDecision } from '../../core/redirect/redirect-decision.js';
import { cleanLine } from '../schemas/text.js';

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

/** The core's decision for this request (HEAD answers like GET but is no click). */
export function decide(link: CachedLink, facts: ClickFacts, now: number, gate: ClickGate): RedirectDecision {
  const queryStart = facts.url.indexOf('?');
  const parameters = queryStart < 0 ? '' : facts.url.slice(queryStart + 1);
  return decideRedirect(
    link,
    now,
    facts.appPath,
    facts.method !== 'HEAD',
    facts.headers['user-agent'],
    parameters,
    gate,
    facts.ip,
    facts.headers['accept-language'],
    facts.headers.referer,
  );
}

/**
 * The click id of a counted click sent on to a web destination (a plain redirect or the ad page)
 * by a link with conversion tracking; undefined otherwise. Made in memory: nothing is waited for.
 */
export function clickIdOf(link: CachedLink, decision: RedirectDecision, tokens: Pick<ClickTokens, 'make'>) {
  if (!link.conversionTracking) return undefined;
  return (decision.kind === 'redirect' || decision.kind === 'ad_page') && decision.record
    ? tokens.make(link)
    : undefined;
}

export type ClickQuery = querystring.ParsedUrlQuery;

/** A click parameter as stored: whatever the link was opened with, cleaned rather than refused. */
const firstValue = (query: ClickQuery | undefined, name: string): string => {
  const v = query?.[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};
const firstOf = (query: ClickQuery | undefined, name: string): string => cleanLine(firstValue(query, name));

/**
 * The click event of a counted request (bot: a preview fetcher), with the parameters the link was
 * opened with and, on a link with rules or variants, where its routing sent it.
 */
export function clickEvent(link: CachedLink, facts: ClickFacts, bot: boolean, routed?: Routed, deepLinkToken?: string) {
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
    routed,
    deepLinkToken,
  });
}

/**
 * A phone's click on a link with an app, for the deep-link token: the request's signals, and a
 * campaign's parameters from the query Fastify parsed. Cleaned, not refused: the click must land,
 * and the token row must be storable (a NUL made the write fail, which turned landing pages off
 * for every link for a while).
 */
export function landingClick(
  link: CachedLink,
  facts: ClickFacts,
  decision: Extract<RedirectDecision, { kind: 'landing' }>,
  query: ClickQuery,
  token: string,
): LandingClick {
  const h = facts.headers;
  const campaign = link.kind === 'campaign';
  const parameter = (name: string) => (campaign ? cleanLine(firstValue(query, name).slice(0, 100)) || null : null);
  return {
    token,
    link,
    platform: decision.platform,
    fallbackUrl: decision.fallback,
    ip: facts.ip,
    userAgent: h['user-agent'] ?? '',
    acceptLanguage: h['accept-language'],
    clientHints: { model: h['sec-ch-ua-model'], platformVersion: h['sec-ch-ua-platform-version'] },
    cid: parameter('cid'),
    tracker: parameter('tracker'),
  };
}
