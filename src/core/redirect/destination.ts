// Where a click goes: the link's destination with its UTM parameters merged in (set, never
// duplicated), then the parameters the click itself carried (campaign cid/tracker, a shared
// utm_source…). The part that depends only on the link is computed once, when it is cached.
import type { ResolvedLink } from '../../oltp/link-lookup.repo.js';

/** The link's destination with its configured UTM parameters applied. */
export function baseDestination(link: Pick<ResolvedLink, 'originalUrl' | 'utm'>): string {
  const entries = Object.entries(link.utm).filter(([, v]) => v);
  if (entries.length === 0) return link.originalUrl;
  const url = new URL(link.originalUrl);
  for (const [name, value] of entries) url.searchParams.set(`utm_${name}`, value as string);
  return url.toString();
}

/** `base` with the click's own query parameters added (a click's value wins over the link's). */
export function withClickParameters(base: string, rawQuery: string): string {
  if (!rawQuery) return base;
  const incoming = new URLSearchParams(rawQuery);
  if ([...incoming.keys()].length === 0) return base;
  const url = new URL(base);
  for (const name of new Set(incoming.keys())) {
    url.searchParams.delete(name);
    for (const value of incoming.getAll(name)) url.searchParams.append(name, value);
  }
  return url.toString();
}

/** The parameter a click id rides in: the one the web SDK reads (and the app's deep-link token). */
const CLICK_TOKEN_PARAMETER = 'signpost_token';

/**
 * `location` carrying the click's id (conversion tracking), in place of any `signpost_token` the
 * click brought along: a visitor cannot pass a token of their own through the link.
 */
export function withClickToken(location: string, token: string): string {
  if (location.includes(`${CLICK_TOKEN_PARAMETER}=`)) {
    const url = new URL(location);
    url.searchParams.set(CLICK_TOKEN_PARAMETER, token);
    return url.toString();
  }
  const hash = location.indexOf('#');
  const [head, fragment] = hash < 0 ? [location, ''] : [location.slice(0, hash), location.slice(hash)];
  const separator = !head.includes('?') ? '?' : head.endsWith('?') || head.endsWith('&') ? '' : '&';
  return `${head}${separator}${CLICK_TOKEN_PARAMETER}=${token}${fragment}`;
}
