// The rules a short URL or campaign must keep, shared by both: the paths no link may take,
// generated short codes and aliases, the expiry formats, and a link's complete address.
import { DateTime } from 'luxon';
import { randomBase62 } from '../../shared/ids.js';
import { slugOf } from '../../shared/slug.js';

/**
 * First path segments under which the service answers on its own host (PUBLIC_BASE_URL's): a link
 * there would be shadowed by the route or would look like part of the service. Kept equal to the
 * route table by test/reserved-aliases.test.ts; published in the README and the OpenAPI document.
 */
export const SERVICE_HOST_PATHS = [
  '.well-known',
  'api',
  'console',
  'docs',
  'healthz',
  'metrics',
  'openapi.json',
  'readyz',
  'sdk',
  'sso',
] as const;

/**
 * The same on a customer's custom domain, where the operator's surfaces (console, docs, metrics,
 * sign-in) do not exist: the well-known files, the health probe of load balancers, and the APIs
 * and SDK script, which answer on every host.
 */
export const CUSTOM_DOMAIN_PATHS = ['.well-known', 'api', 'healthz', 'sdk'] as const;

const serviceHostPaths = new Set<string>(SERVICE_HOST_PATHS);
const customDomainPaths = new Set<string>(CUSTOM_DOMAIN_PATHS);

/** Whether a short code or alias would sit on a path of the service; compared case-insensitively. */
export const isReservedSlug = (slug: string, onCustomDomain = false) =>
  (onCustomDomain ? customDomainPaths : serviceHostPaths).has(slug.toLowerCase());

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
  const slug = slugOf(name, 40);
  return slug.length >= 3 && !isReservedSlug(slug) ? slug : generateShortCode();
}

/** Local date-time pieces matched strictly: 2025-13-40 is refused, not rolled over. */
function utcFromParts(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): Date | undefined {
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  const same =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s;
  return same ? date : undefined;
}

/** An expiry as written: an instant, or a bare date that means the end of that day where the organization is. */
export type Expiry = { at: Date } | { day: string };

const BARE_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` as a day, if it is a real one (2025-02-30 is not). */
function bareDay(value: string): Expiry | undefined {
  const m = BARE_DATE.exec(value.trim());
  if (!m || !utcFromParts(Number(m[1]), Number(m[2]), Number(m[3]))) return undefined;
  return { day: m[0] };
}

/** Short URL expirationDate: `YYYY-MM-DD HH:mm:ss` (UTC) or `YYYY-MM-DD` (a day). */
export function parseExpirationDate(value: string): Expiry | undefined {
  const day = bareDay(value);
  if (day) return day;
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  const at = utcFromParts(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s));
  return at && { at };
}

/** Campaign expiresAt: ISO-8601, seconds optional, UTC unless an offset is given; or `YYYY-MM-DD` (a day). */
export function parseCampaignExpiry(value: string): Expiry | undefined {
  const day = bareDay(value);
  if (day) return day;
  const at = parseIsoDateTime(value);
  return at && { at };
}

/** The instant an expiry means: a day lasts until its last millisecond in `timeZone` (DST days included). */
export function expiryInstant(expiry: Expiry, timeZone: string): Date {
  if ('at' in expiry) return expiry.at;
  return DateTime.fromISO(expiry.day, { zone: timeZone }).endOf('day').toJSDate();
}

/** ISO-8601 date-time, seconds optional, UTC unless an offset is given. */
function parseIsoDateTime(value: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
    value.trim(),
  );
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
