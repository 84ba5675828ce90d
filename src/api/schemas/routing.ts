// The routing fields of short URLs and campaigns alike (contract: "Routing rules and A/B tests"):
// `routingRules` and `variants` as a body gives them (each refused value named by its path, such as
// `routingRules.0.conditions.countries.1` or `variants`) and as a record shows them.
import { z } from 'zod';
import {
  BROWSERS,
  DEVICE_TYPES,
  isCountryCode,
  isHostName,
  isLanguageSubtag,
  isRegionCode,
  MAX_LISTED_VALUES,
  MAX_ROUTING_RULES,
  MAX_VARIANTS,
  MIN_VARIANTS,
  OPERATING_SYSTEMS,
  TOTAL_WEIGHT,
} from '../../core/routing/index.js';

/** One of `values`, in any case (stored as given; rules compare case-insensitively). */
const oneOf = (values: readonly string[]) => {
  const lower = new Set(values.map((v) => v.toLowerCase()));
  return z.string().refine((v) => lower.has(v.toLowerCase()), { message: `must be one of ${values.join(', ')}` });
};

/** A non-empty list of at most `max` values. */
const list = <T extends z.ZodType>(item: T, max: number) =>
  z.array(item).min(1, 'must hold at least one value').max(max, `must hold at most ${max} values`);

const instant = z.iso
  .datetime({ offset: true, message: 'must be an ISO-8601 instant such as 2026-01-01T00:00:00Z' })
  .describe('ISO-8601 instant with Z or an offset');

const conditionsSchema = z
  .strictObject(
    {
      countries: list(
        z.string().refine(isCountryCode, { message: 'must be an ISO 3166-1 alpha-2 country code such as KR' }),
        250,
      )
        .optional()
        .describe('ISO 3166-1 alpha-2 codes of the client address'),
      regions: list(
        z.string().refine(isRegionCode, { message: 'must be an ISO 3166-2 subdivision code such as KR-11 or US-CA' }),
        MAX_LISTED_VALUES,
      )
        .optional()
        .describe(
          'ISO 3166-2 codes of the client address (KR-11, US-CA); needs a GEOIP_DB with subdivision codes (GeoLite2 City), else refused',
        ),
      cities: list(
        z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
        MAX_LISTED_VALUES,
      )
        .optional()
        .describe('English city names of the client address (Seoul); needs a City GEOIP_DB, else refused'),
      deviceTypes: list(oneOf(DEVICE_TYPES), DEVICE_TYPES.length)
        .optional()
        .describe(`of the user agent: ${DEVICE_TYPES.join(', ')}`),
      os: list(oneOf(OPERATING_SYSTEMS), OPERATING_SYSTEMS.length)
        .optional()
        .describe(`of the user agent: ${OPERATING_SYSTEMS.join(', ')}`),
      browsers: list(oneOf(BROWSERS), BROWSERS.length)
        .optional()
        .describe(`browser family of the user agent: ${BROWSERS.join(', ')}`),
      referrers: list(
        z.string().refine(isHostName, {
          message: 'must be a lower-case host name such as t.co, without scheme, port or path',
        }),
        MAX_LISTED_VALUES,
      )
        .optional()
        .describe(
          'host of the Referer header: each host matches itself and its subdomains (twitter.com: mobile.twitter.com)',
        ),
      languages: list(
        z.string().refine(isLanguageSubtag, { message: 'must be a primary language subtag such as ko or en' }),
        100,
      )
        .optional()
        .describe('primary subtag of the first Accept-Language entry'),
      after: instant.optional().describe('the click is at or after this instant'),
      before: instant.optional().describe('the click is before this instant'),
      query: z
        .record(z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters'), z.string().max(500))
        .refine((q) => Object.keys(q).length <= 20, { message: 'must hold at most 20 parameters' })
        .optional()
        .describe('parameter name → value the click must carry'),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? `unknown condition: ${issue.keys.join(', ')}` : undefined,
    },
  )
  .refine((c) => c.after === undefined || c.before === undefined || Date.parse(c.after) < Date.parse(c.before), {
    message: 'after must be before before',
    path: ['before'],
  })
  .describe('every condition present must hold; a list holds when one of its values does (case-insensitive)');

/** The body fields; `destination` is the deployment's destination URL schema (that of originalUrl). */
export function routingBodyFields(destination: z.ZodType<string>) {
  const rule = z
    .strictObject({ conditions: conditionsSchema, url: destination })
    .describe('a click meeting every condition goes to url (with the link UTM parameters)');
  const variant = z
    .strictObject({
      url: destination,
      weight: z.number().int('must be a whole number').min(0, 'must be at least 0').max(TOTAL_WEIGHT),
    })
    .describe('weights are whole numbers summing to 100');
  return {
    routingRules: z
      .array(rule)
      .max(MAX_ROUTING_RULES, `must hold at most ${MAX_ROUTING_RULES} rules`)
      .nullable()
      .optional()
      .describe('ordered: the first rule a click meets wins; [] or null removes them (update)'),
    variants: z
      .array(variant)
      .refine((v) => v.length === 0 || (v.length >= MIN_VARIANTS && v.length <= MAX_VARIANTS), {
        message: `must hold ${MIN_VARIANTS} to ${MAX_VARIANTS} variants (or none)`,
      })
      .refine((v) => v.length === 0 || v.reduce((sum, x) => sum + x.weight, 0) === TOTAL_WEIGHT, {
        message: `weights must sum to ${TOTAL_WEIGHT}`,
      })
      .nullable()
      .optional()
      .describe(
        'A/B test: a click no rule caught goes to one variant, by weight; the same visitor (address and user agent) always to the same one. [] or null removes them (update)',
      ),
  };
}

const conditionsRecord = z
  .object({
    countries: z.array(z.string()).optional(),
    regions: z.array(z.string()).optional(),
    cities: z.array(z.string()).optional(),
    deviceTypes: z.array(z.string()).optional(),
    os: z.array(z.string()).optional(),
    browsers: z.array(z.string()).optional(),
    referrers: z.array(z.string()).optional(),
    languages: z.array(z.string()).optional(),
    after: z.string().optional(),
    before: z.string().optional(),
    query: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'RoutingConditions' });

export const routingRecordFields = {
  routingRules: z.array(z.object({ conditions: conditionsRecord, url: z.string() })).describe('in order; [] when none'),
  variants: z.array(z.object({ url: z.string(), weight: z.number().int() })).describe('[] when none'),
};
