// A redirect request as the redirect sees it, what the core decides for it, and the click event
// it records. Both ways a redirect is answered use these: the Fastify route (every outcome) and
// the fast path in front of Fastify (plain 302s only), so they cannot drift apart.
import type { IncomingHttpHeaders } from 'node:http';
import querystring from 'node:querystring';
import { clickEvent as buildClickEvent } from '../../core/clicks/click-event.js';
import type { CachedLink } from '../../core/redirect/link-resolver.js';
import { decideRedirect, type RedirectDecision } from '../../core/redirect/redirect-decision.js';
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
export function decide(link: CachedLink, facts: ClickFacts, now: number): RedirectDecision {
  const queryStart = facts.url.indexOf('?');
  const parameters = queryStart < 0 ? '' : facts.url.slice(queryStart + 1);
  return decideRedirect(link, now, facts.appPath, facts.method !== 'HEAD', facts.headers['user-agent'], parameters);
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
