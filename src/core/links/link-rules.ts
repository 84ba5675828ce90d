// The rules a short URL or campaign must keep, shared by both: the paths no link may take,
// generated short codes and aliases, the expiry formats, and a link's complete address.
import { randomBase62 } from '../../shared/ids.js';

/**
 * First path segments the service itself answers; a short code or alias there would be shadowed
 * or would shadow us. Compared case-insensitively.
 */
const RESERVED_SLUGS = new Set([
  'api', 'sso', 'docs', 'healthz', 'readyz', 'metrics', 'openapi.json', '.well-known', 'well-known',
  'sdk', 'console', 'admin', 'static', 'assets', 'public', 'favicon.ico', 'robots.txt', 'sitemap.xml',
  'login', 'logout', 'signup', 'dashboard', 'app', 'apps', 'www', 'deeplink', 'qr', 'health', 'status',
]);

export const isReservedSlug = (slug: string) => RESERVED_SLUGS.has(slug.toLowerCase());

const SHORT_CODE_LENGTH = 7;

/** 7 base62 characters: 3.5e12 codes, unguessable enough that enumeration finds nothing useful. */
export function generateShortCode(length = SHORT_CODE_LENGTH): string {
  for (;;) {
    const code = randomBase62(length);
    if (!isReservedSlug(code)) return code;
  }
}

/** A readable alias from the name (`Summer Sale 2025` → `summer-sale-2025`), else a random code. */
export function aliasFromName(name: string): string {
  // NFKD splits `é` into `e` + a combining accent; the accent goes, not the word (`cafe`, not `caf-e`).
  const slug = name.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
  return slug.length >= 3 && !isReservedSlug(slug) ? slug : generateShortCode();
}

/** Local date-time pieces matched strictly: 2025-13-40 is refused, not rolled over. */
function utcFromParts(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): Date | undefined {
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  const same =
    date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d &&
    date.getUTCHours() === h && date.getUTCMinutes() === mi && date.getUTCSeconds() === s;
  return same ? date : undefined;
}

/**
 * Short URL expirationDate: `YYYY-MM-DD HH:mm:ss` or `YYYY-MM-DD`, always UTC. A bare date means
 * its first instant, not the end of that day.
 */
export function parseExpirationDate(value: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?$/.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  return utcFromParts(Number(y), Number(mo), Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0));
}

/** Campaign expiresAt: ISO-8601, seconds optional, UTC unless an offset is given. */
export function parseIsoDateTime(value: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const base = utcFromParts(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s ?? 0));
  if (!base) return undefined;
  let ms = base.getTime() + (frac ? Math.round(Number(`0.${frac}`) * 1000) : 0);
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const [hours, minutes] = [Number(digits.slice(0, 2)), Number(digits.slice(2, 4))];
    // An offset is at most 23:59 (+09:99 or +24:00 is no offset at all).
    if (hours > 23 || minutes > 59) return undefined;
    ms -= sign * (hours * 60 + minutes) * 60_000;
  }
  return new Date(ms);
}

/** Complete address of a short code or alias: on its custom domain, else on the public base URL. */
export function linkAddress(publicBaseUrl: string, customDomainName: string | null, slug: string): string {
  return customDomainName ? `https://${customDomainName}/${slug}` : `${publicBaseUrl}/${slug}`;
}
