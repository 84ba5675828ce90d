// The addresses a deep-link landing page tries, all decided on the server: the app's own scheme
// with the token, Android's intent:// form with its browser fallback, the store (Android's with
// the Install Referrer token) and the web fallback. Pure, so every edge is unit-tested.

const TOKEN_PARAM = 'signpost_token';

/** `path` with `name=value` added to its query, before any fragment. */
function withParam(path: string, name: string, value: string): string {
  const hash = path.indexOf('#');
  const base = hash < 0 ? path : path.slice(0, hash);
  const fragment = hash < 0 ? '' : path.slice(hash);
  const joiner = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${joiner}${name}=${encodeURIComponent(value)}${fragment}`;
}

/** `myapp`, `myapp:` or `myapp://` → `myapp`. */
const schemeName = (scheme: string) => scheme.replace(/:(\/\/)?$/, '');

/** The in-app path without a leading slash: `myapp://product/42`, not `myapp:///product/42`. */
const inAppPath = (deepLinkPath: string | null) => (deepLinkPath ?? '').replace(/^\/+/, '');

/** `{scheme}{deepLinkPath}` with `signpost_token`; null when the app has no scheme. */
export function appUrlFor(scheme: string | null, deepLinkPath: string | null, token: string): string | null {
  if (!scheme) return null;
  return withParam(`${schemeName(scheme)}://${inAppPath(deepLinkPath)}`, TOKEN_PARAM, token);
}

/**
 * Chrome's `intent://` form: opens the package at the scheme's path when installed, otherwise
 * navigates to the browser fallback (the store with the referrer, or the web fallback).
 */
export function intentUrlFor(options: {
  scheme: string | null;
  packageName: string;
  deepLinkPath: string | null;
  token: string;
  browserFallbackUrl: string;
}): string | null {
  if (!options.scheme) return null;
  const target = withParam(inAppPath(options.deepLinkPath), TOKEN_PARAM, options.token).replace(/#.*$/, '');
  return (
    `intent://${target}#Intent;scheme=${schemeName(options.scheme)};package=${options.packageName};` +
    `S.browser_fallback_url=${encodeURIComponent(options.browserFallbackUrl)};end`
  );
}

/**
 * The store page. Google Play hands the `referrer` parameter to the installed app (Install
 * Referrer API), so Android's carries `signpost_token=TOKEN` there, URL-encoded, added to a
 * referrer the store URL may already have; the rest of its query is kept as it is.
 */
export function storeUrlFor(storeUrl: string | null, platform: 'IOS' | 'ANDROID', token: string): string | null {
  if (!storeUrl) return null;
  if (platform !== 'ANDROID') return storeUrl;
  let url: URL;
  try {
    url = new URL(storeUrl);
  } catch {
    return storeUrl;
  }
  const existing = url.searchParams.get('referrer');
  if (existing === null) return withParam(storeUrl, 'referrer', `${TOKEN_PARAM}=${token}`);
  const referrer = new URLSearchParams(existing);
  referrer.set(TOKEN_PARAM, token);
  url.searchParams.set('referrer', referrer.toString());
  return url.toString();
}

/** The token an Install Referrer string carries (`signpost_token=…`, possibly URL-encoded once more). */
export function tokenFromReferrer(referrer: string | null | undefined): string | null {
  if (!referrer) return null;
  let text = referrer.trim();
  for (let round = 0; round < 3; round++) {
    const params = new URLSearchParams(
      text.startsWith('?') ? text.slice(1) : text.includes('?') ? text.slice(text.indexOf('?') + 1) : text,
    );
    const direct = params.get(TOKEN_PARAM);
    if (direct) return TOKEN_PATTERN.test(direct) ? direct : null;
    const nested = params.get('referrer');
    if (nested) {
      text = nested;
      continue;
    }
    // `signpost_token%3DABC`: encoded once more than a query string.
    let decoded: string;
    try {
      decoded = decodeURIComponent(text);
    } catch {
      return null;
    }
    if (decoded === text) return null;
    text = decoded;
  }
  return null;
}

/** Tokens are 24 base62 characters. */
export const TOKEN_PATTERN = /^[0-9A-Za-z]{24}$/;
