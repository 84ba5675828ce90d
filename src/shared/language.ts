// Which of the languages we speak a visitor reads best: the Accept-Language list (RFC 9110,
// q-values, `ko-KR` matching `ko`), first choice first. One rule for the pages a link answers with
// and the API's error messages.

/** The languages of the pages a visitor sees. */
export const PAGE_LANGUAGES = ['ko', 'en', 'ja'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/** At most this much of the header is read: a browser sends a handful of tags. */
const MAX_HEADER = 512;

/**
 * The first of `supported` the header accepts, best q-value first (ties in the header's order);
 * undefined when it names none of them, so the caller applies its own default.
 */
export function negotiateLanguage<L extends string>(
  acceptLanguage: string | undefined,
  supported: readonly L[],
): L | undefined {
  if (!acceptLanguage) return undefined;
  let best: L | undefined;
  let bestQ = 0;
  for (const part of acceptLanguage.slice(0, MAX_HEADER).split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    let q = 1;
    for (const param of params) {
      const value = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(param)?.[1];
      if (value !== undefined) q = Number(value);
    }
    if (q <= bestQ) continue;
    const primary = range.split('-', 1)[0];
    const match = supported.find((language) => language === primary);
    if (match !== undefined) {
      best = match;
      bestQ = q;
    }
  }
  return best;
}
