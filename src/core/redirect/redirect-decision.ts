// What a click on a resolved link gets, decided from the request's facts alone. Both ways a
// redirect is answered use it: the Fastify route (every outcome) and the fast path in front of
// Fastify (plain 302s only), so they cannot drift apart.
import { classifyAgent, mobilePlatformOf, type MobilePlatform } from '../../shared/user-agents.js';
import { withClickParameters } from './destination.js';
import type { CachedLink } from './link-resolver.js';
import type { ClickLimits } from './click-limits.js';
import type { Routed } from '../routing/routing-rules.js';

/** What a click on a protected or limited link also depends on. */
export interface ClickGate {
  /** The visitor gave the link's password lately (its signed cookie). */
  unlocked: boolean;
  limits: Pick<ClickLimits, 'pass'>;
}

export type RedirectDecision =
  | { kind: 'not_found' }
  | { kind: 'expired' }
  /** The link's click limit is reached (and it names no address for that). */
  | { kind: 'limit_reached' }
  /** A protected link: the password form (no click counted). */
  | { kind: 'password' }
  /** A share-preview fetcher: the preview page (of a protected link: nothing of where it goes), recorded as bot traffic. */
  | { kind: 'preview'; destination: string; record: boolean; protected: boolean; routed?: Routed | undefined }
  /** A phone with the link's app for its platform: the deep-link landing page (or `fallback`). */
  | { kind: 'landing'; platform: MobilePlatform; fallback: string; record: true; routed?: Routed | undefined }
  | { kind: 'ad_page'; destination: string; record: boolean; routed?: Routed | undefined }
  /** `routed`: what the link's routing chose (absent for a link without rules or variants). */
  | { kind: 'redirect'; location: string; record: boolean; routed?: Routed | undefined };

/**
 * What a click gets at `now`. `appPath` is the first segment of /{appPath}/{slug}; `record` is
 * false for a look that is no click (HEAD); `parameters` is what the click carried after the `?`
 * ('' for nothing); `ip`, `acceptLanguage` and `referrer` are read only by a link's routing rules. Plain
 * arguments, not an object: this runs on every click.
 */
export function decideRedirect(
  link: CachedLink,
  now: number,
  appPath: string | undefined,
  record: boolean,
  userAgent: string | undefined,
  parameters: string,
  gate: ClickGate,
  ip: string,
  acceptLanguage: string | undefined,
  referrer: string | undefined,
): RedirectDecision {
  if (appPath !== undefined && appPath !== link.ios?.path && appPath !== link.android?.path)
    return { kind: 'not_found' };
  if (link.expiresAt !== null && link.expiresAt <= now)
    return link.expiredUrl ? { kind: 'redirect', location: link.expiredUrl, record: false } : { kind: 'expired' };

  // A link with rules or variants: the first rule the click meets, else its variant, else the
  // original. A link with neither pays nothing for them.
  const routed =
    link.routing === null
      ? undefined
      : link.routing({ ip, userAgent, acceptLanguage, referrer, query: parameters, now });
  const destination = withClickParameters(routed ? routed.location : link.destination, parameters);
  // What the routing chose instead of the original wins over the link's phone destination.
  const chosen = routed !== undefined && routed.route !== 'original';

  const agent = classifyAgent(userAgent);
  const isProtected = link.passwordHash !== null;
  if (agent === 'unfurler') return { kind: 'preview', destination, record, protected: isProtected, routed };
  if (isProtected && !gate.unlocked) return { kind: 'password' };
  // People's clicks count toward a limit; a reached limit stops everyone.
  if (link.clickLimit !== null && !gate.limits.pass(link, record && agent === 'person')) {
    return link.clickLimitUrl
      ? { kind: 'redirect', location: link.clickLimitUrl, record: false }
      : { kind: 'limit_reached' };
  }
  // A phone with an app for its platform: the deep-link landing page; the ad interstitial is for
  // the web. Crawlers with phone user agents (Googlebot smartphone) get no landing: nobody will
  // open an app.
  const platform = mobilePlatformOf(userAgent);
  if (record && agent === 'person' && platform && (platform === 'IOS' ? link.ios : link.android)) {
    return {
      kind: 'landing',
      platform,
      fallback: chosen ? destination : (link.mobileTargetUrl ?? destination),
      record,
      routed,
    };
  }
  if (link.showAdPage) return { kind: 'ad_page', destination, record, routed };
  // Phones go to the link's mobile fallback when it has one (and no rule or variant chose).
  const location = link.mobileTargetUrl && platform && !chosen ? link.mobileTargetUrl : destination;
  return { kind: 'redirect', location, record, routed };
}
