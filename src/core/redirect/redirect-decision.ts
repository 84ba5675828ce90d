// What a click on a resolved link gets, decided from the request's facts alone. Both ways a
// redirect is answered use it: the Fastify route (every outcome) and the fast path in front of
// Fastify (plain 302s only), so they cannot drift apart.
import { classifyAgent, mobilePlatformOf, type MobilePlatform } from '../../shared/user-agents.js';
import { withClickParameters } from './destination.js';
import type { CachedLink } from './link-resolver.js';

export type RedirectDecision =
  | { kind: 'not_found' }
  | { kind: 'expired' }
  /** A share-preview fetcher: the preview page, recorded as bot traffic. */
  | { kind: 'preview'; destination: string; record: boolean }
  /** A phone with the link's app for its platform: the deep-link landing page (or `fallback`). */
  | { kind: 'landing'; platform: MobilePlatform; fallback: string; record: true }
  | { kind: 'ad_page'; destination: string; record: boolean }
  | { kind: 'redirect'; location: string; record: boolean };

/**
 * What a click gets at `now`. `appPath` is the first segment of /{appPath}/{slug}; `record` is
 * false for a look that is no click (HEAD); `parameters` is what the click carried after the `?`
 * ('' for nothing). Plain arguments, not an object: this runs on every click.
 */
export function decideRedirect(
  link: CachedLink,
  now: number,
  appPath: string | undefined,
  record: boolean,
  userAgent: string | undefined,
  parameters: string,
): RedirectDecision {
  if (appPath !== undefined && appPath !== link.ios?.path && appPath !== link.android?.path)
    return { kind: 'not_found' };
  if (link.expiresAt !== null && link.expiresAt <= now) return { kind: 'expired' };

  const destination = withClickParameters(link.destination, parameters);

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
