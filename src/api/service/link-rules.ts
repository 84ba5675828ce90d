// The rules a short URL or campaign must keep, shared by both resources: destinations, aliases,
// generated short codes, expiry formats, and the paths no link may take.
import { z } from 'zod';
import { randomBase62 } from '../../shared/ids.js';
import { hostRefusal } from '../../shared/public-address.js';

/**
 * First path segments the service itself answers; a short code or alias there would be shadowed
 * or would shadow us. Compared case-insensitively.
 */
export const RESERVED_SLUGS = new Set([
  'api', 'sso', 'docs', 'healthz', 'readyz', 'metrics', 'openapi.json', '.well-known', 'well-known',
  'sdk', 'console', 'admin', 'static', 'assets', 'public', 'favicon.ico', 'robots.txt', 'sitemap.xml',
  'login', 'logout', 'signup', 'dashboard', 'app', 'apps', 'www', 'deeplink', 'qr', 'health', 'status',
]);

export const isReservedSlug = (slug: string) => RESERVED_SLUGS.has(slug.toLowerCase());

export const SHORT_CODE_LENGTH = 7;

/** 7 base62 characters: 3.5e12 codes, unguessable enough that enumeration finds nothing useful. */
export function generateShortCode(length = SHORT_CODE_LENGTH): string {
  for (;;) {
    const code = randomBase62(length);
    if (!isReservedSlug(code)) return code;
  }
}

export const aliasSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(50, 'must be at most 50 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, - and _')
  .refine((v) => !isReservedSlug(v), 'is a reserved path');

const CREDENTIALS_OR_SPACE = /\s/;

/**
 * A destination a person can safely be sent to: https only, parseable, no spaces or credentials,
 * a real host (a dotted name or an IP). Unless the deployment allows private targets
 * (LINK_ALLOW_PRIVATE_TARGETS), the host may not be a private, loopback, link-local, metadata or
 * otherwise non-public address, in any spelling a browser accepts, nor a local name: a short link
 * must never turn the service's trusted domain into a pointer at someone's internal network.
 */
export function httpsUrlSchema(options: { production: boolean; allowPrivate: boolean; max?: number }) {
  const max = options.max ?? 1000;
  return z
    .string()
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`)
    .superRefine((value, ctx) => {
      const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
      if (!value.toLowerCase().startsWith('https://')) return fail('must start with https://');
      if (CREDENTIALS_OR_SPACE.test(value)) return fail('must not contain spaces');
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return fail('is not a valid URL');
      }
      if (url.username || url.password) return fail('must not contain credentials');
      const host = url.hostname;
      const isIpv4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
      const isIpv6 = host.startsWith('[');
      const refused = options.allowPrivate ? undefined : hostRefusal(host);
      if (refused === 'local-name') return fail(`must not point to a local host name (${host})`);
      if (refused) return fail(`must not point to a ${refused} address (${host})`);
      if (host === 'localhost') {
        if (options.production) return fail('must not point to localhost');
        return;
      }
      if (!isIpv4 && !isIpv6 && !/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z0-9-]{2,}$/i.test(host)) {
        return fail('must have a valid host name');
      }
    });
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
 * Short URL expirationDate: `YYYY-MM-DD HH:mm:ss` or `YYYY-MM-DD` (end of that day is NOT implied:
 * a bare date means its first instant, UTC, as the spec's UTC rule says).
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

/** A zod field turning one of the accepted text forms into a Date in the future. */
export function futureDateField(parse: (v: string) => Date | undefined, forms: string, now: () => Date) {
  return z.string().transform((value, ctx) => {
    const date = parse(value);
    if (!date) {
      ctx.addIssue({ code: 'custom', message: `must be ${forms}` });
      return z.NEVER;
    }
    if (date.getTime() <= now().getTime()) {
      ctx.addIssue({ code: 'custom', message: 'must be in the future' });
      return z.NEVER;
    }
    return date;
  });
}

/** Trimmed text with a length limit whose message names the limit. */
export const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

/** Optional and nullable (null clears on update); an empty string counts as null. */
export const clearable = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? null : v), schema.nullable().optional());

/** A deep-link path inside the app: `product/42` or `/product/42?ref=x`, no scheme, no spaces. */
export const deepLinkPath = text(500).regex(/^[^\s:]*$/, 'must be an in-app path such as product/42 (no scheme)');

/** Complete address of a short code or alias: on its custom domain, else on the public base URL. */
export function linkAddress(publicBaseUrl: string, customDomainName: string | null, slug: string): string {
  return customDomainName ? `https://${customDomainName}/${slug}` : `${publicBaseUrl}/${slug}`;
}
