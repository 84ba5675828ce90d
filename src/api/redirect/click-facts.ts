// A redirect request as the redirect sees it, what the core decides for it, and the click event
// it records. Both ways a redirect is answered use these: the Fastify route (every outcome) and
// the fast path in front of Fastify (plain 302s only), so they cannot drift apart.
import type { IncomingHttpHeaders } from 'node:http';
import querystring from 'node:querystring';
import type { EventEnvelope } from '../../ingest/envelope.js';
import { uuidv7 } from '../../shared/ids.js';
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

/** The click envelope of a counted request (bot: a preview fetcher). */
export function clickEvent(link: CachedLink, facts: ClickFacts, bot: boolean): EventEnvelope {
  const h = facts.headers;
  const queryStart = facts.url.indexOf('?');
  const query = queryStart < 0 ? undefined : querystring.parse(facts.url.slice(queryStart + 1));
  const campaign = link.kind === 'campaign';
  return {
    eventId: uuidv7(),
    type: 'click',
    occurredAt: Date.now(),
    organizationId: link.organizationId,
    data: {
      linkType: link.kind,
      linkId: link.id,
      host: facts.hostname,
      cid: campaign ? firstOf(query, 'cid') : '',
      tracker: campaign ? firstOf(query, 'tracker') : '',
      referrer: h.referer ?? '',
      userAgent: h['user-agent'] ?? '',
      ip: facts.ip,
      acceptLanguage: (h['accept-language'] ?? '').slice(0, 100),
      utmSource: firstOf(query, 'utm_source'),
      utmMedium: firstOf(query, 'utm_medium'),
      utmCampaign: firstOf(query, 'utm_campaign'),
      utmTerm: firstOf(query, 'utm_term'),
      utmContent: firstOf(query, 'utm_content'),
      bot,
    },
  };
}
