// The zod fields a short URL or campaign body is made of: destinations, aliases, expiry dates,
// in-app paths, clearable text. The rules behind them (reserved paths, date forms) are the core's.
import { z } from 'zod';
import type { Caller } from '../../core/caller.js';
import { CUSTOM_DOMAIN_PATHS, SERVICE_HOST_PATHS, expiryInstant, type Expiry } from '../../core/links/link-rules.js';
import { invalidBodyField } from '../../core/field-error.js';
import { hostRefusal } from '../../shared/public-address.js';

export const aliasSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(50, 'must be at most 50 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, - and _')
  .describe(
    `letters, digits, - and _. Refused where the service itself answers: ${SERVICE_HOST_PATHS.join(', ')} on the service's host; ${CUSTOM_DOMAIN_PATHS.join(', ')} on a custom domain (case-insensitive)`,
  );

/** What the short URL and campaign routes' fields depend on in the deployment. */
export interface LinkRouteSettings {
  publicBaseUrl: string;
  /** Destinations: localhost is refused in production. */
  production: boolean;
  /** Destinations may name private addresses (a private deployment). */
  linkAllowPrivateTargets: boolean;
  clock: () => Date;
}

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

/** A link's destination as the deployment allows it: `production` and LINK_ALLOW_PRIVATE_TARGETS decide. */
export const linkTargetSchema = (settings: { production: boolean; linkAllowPrivateTargets: boolean }) =>
  httpsUrlSchema({ production: settings.production, allowPrivate: settings.linkAllowPrivateTargets });

/** A zod field reading an expiry in one of the accepted text forms (see expiryFor for the instant). */
export function expiryField(parse: (v: string) => Expiry | undefined, forms: string) {
  return z.string().transform((value, ctx) => {
    const expiry = parse(value);
    if (!expiry) {
      ctx.addIssue({ code: 'custom', message: `must be ${forms}` });
      return z.NEVER;
    }
    return expiry;
  });
}

/**
 * The instant a body's expiry means for the caller: a bare date is the end of that day in the
 * organization's time zone. Refused unless it is in the future; null (clear) and absent pass.
 */
export function expiryFor(
  caller: Caller,
  field: string,
  expiry: Expiry | null | undefined,
  now: () => Date,
): Date | null | undefined {
  if (!expiry) return expiry;
  const at = expiryInstant(expiry, caller.organization.timeZone);
  if (at.getTime() <= now().getTime()) throw invalidBodyField(field, 'must be in the future');
  return at;
}

/**
 * A body with its expiry, given under `field`, read as the core's `expiresAt` (expiryFor): left out
 * when the body leaves it out, so an update keeps the expiry it had.
 */
export function withExpiresAt<B extends object, K extends keyof B & string>(
  caller: Caller,
  field: K,
  body: B,
  now: () => Date,
): Omit<B, K> & { expiresAt?: Date | null } {
  const { [field]: expiry, ...rest } = body;
  const at = expiryFor(caller, field, expiry as Expiry | null | undefined, now);
  return { ...rest, ...(at === undefined ? {} : { expiresAt: at }) };
}

/** Trimmed text with a length limit whose message names the limit. */
export const text = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

/** Optional and nullable (null clears on update); an empty string counts as null. */
export const clearable = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? null : v), schema.nullable().optional());

/** A deep-link path inside the app: `product/42` or `/product/42?ref=x`, no scheme, no spaces. */
export const deepLinkPath = text(500).regex(/^[^\s:]*$/, 'must be an in-app path such as product/42 (no scheme)');

/** The apps a link opens on phones: each the organization's app of that platform; null unlinks. */
export const linkedAppFields = {
  iosAppId: z.number().int().positive().nullable().optional(),
  androidAppId: z.number().int().positive().nullable().optional(),
};
