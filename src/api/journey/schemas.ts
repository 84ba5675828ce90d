// zod schemas of the user-journey API: the bodies and answers we designed for it, with
// descriptions and examples for the OpenAPI document.
import { z } from 'zod';
import { JOURNEY_PLATFORMS, WEB_FUNNEL_STAGES } from '../../core/journey/activity.js';
import type { JourneySession } from '../../core/journey/sessions.service.js';
import { errorBodySchema, nullableStrings } from '../schemas/common.js';
import { freeFormObject, singleLine } from '../schemas/text.js';

export const journeyErrorResponses = {
  400: errorBodySchema.describe('invalid field (the message names it), or X-App-ID missing (APP_ID_MISSING)'),
  401: errorBodySchema.describe('unknown app id or wrong mobile app API key (APP_CREDENTIALS_INVALID)'),
  403: errorBodySchema.describe('the user-journey add-on is off for the organization (ADD_ON_REQUIRED)'),
  404: errorBodySchema,
  429: errorBodySchema.describe(
    "the request budget is used up (RATE_LIMITED, Retry-After): the app's own with X-Mobile-App-API-Key, else the client address's for the app",
  ),
} as const;

export const platformSchema = z.enum(JOURNEY_PLATFORMS).describe('WEB, IOS or ANDROID');
export const stageSchema = z
  .enum(WEB_FUNNEL_STAGES)
  .describe(
    'the web funnel stage, in order: CLICKED, DEEP_LINK_RESOLVED, CONTENT_VIEWED, ACTION_TAKEN, GOAL_COMPLETED',
  );

export const sessionIdSchema = singleLine(
  z.string().trim().min(1, 'is required').max(64, 'must be at most 64 characters'),
).describe('a sessionId returned by session/create');
export const externalUserIdSchema = singleLine(
  z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
).describe("the customer's own member id");

/** Optional text: trimmed, empty means absent. */
export const optionalText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v === null || v === undefined || v.trim() === '' ? null : v.trim()));

const linkIdSchema = z
  .number()
  .int('must be an integer')
  .positive('must be a positive id')
  .max(Number.MAX_SAFE_INTEGER);
export const optionalLinkId = linkIdSchema.nullish().transform((v) => v ?? null);

/** Event time from the client: an ISO-8601 instant, or Unix milliseconds. */
export const clientTimeSchema = z
  .union([z.string().max(40), z.number().int().nonnegative()])
  .nullish()
  .transform((value, ctx) => {
    if (value === null || value === undefined) return null;
    const date =
      typeof value === 'number'
        ? new Date(value)
        : new Date(/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`);
    if (Number.isNaN(date.getTime()) || (typeof value === 'string' && !/^\d{4}-\d{2}-\d{2}T/.test(value))) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be an ISO-8601 date-time such as 2026-11-22T09:30:00Z, or Unix milliseconds',
      });
      return z.NEVER;
    }
    return date;
  })
  .describe(
    'when it happened (ISO-8601 or Unix ms); default: when the server receives it. A time in the future is taken as now; more than 30 days ago is refused',
  );

export const clientEventIdSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a UUID')
  .transform((v) => v.toLowerCase())
  .optional()
  .describe('a UUID the client makes for this event; sending it again (a retry) records the event once');

/** Depth, key count and size are bounded (FREE_FORM_BOUNDS) before anything stringifies it. */
const propertiesSchema = freeFormObject()
  .default({})
  .describe(
    'any JSON object (at most 8 levels deep, 1,000 keys and items, 16 KiB of JSON); do not put personal data here',
  );

/** What the client says of anything it records: free-form properties, when it happened, and its id for retries. */
export const clientRecordFields = {
  properties: propertiesSchema,
  occurredAt: clientTimeSchema,
  eventId: clientEventIdSchema,
};

const sessionLinkSchema = z
  .object({
    type: z.enum(['url', 'campaign']),
    id: z.number().int().describe('short URL id or campaign id'),
    code: z.string().nullable().describe('short code or campaign alias'),
    registeredAt: z.string(),
  })
  .meta({
    id: 'JourneySessionLink',
    description: 'the short link or campaign the session came from (the latest registered)',
  });

export const sessionSchema = z
  .object({
    sessionId: z.string().describe('UUID; the handle every other session call takes'),
    appId: z.number().int().nullable().describe('the app (X-App-ID) that created the session'),
    platform: platformSchema,
    startedAt: z.string().describe('ISO-8601 UTC'),
    updatedAt: z.string(),
    externalUserId: z.string().nullable().describe('set at create or by link-user; later events carry it'),
    ...nullableStrings('userLinkedAt', 'deepLinkToken', 'utmSource', 'utmMedium', 'utmCampaign', 'referrer'),
    landingUrl: z.string().nullable(),
    link: sessionLinkSchema.nullable(),
  })
  .meta({
    id: 'JourneySession',
    description: 'A user-journey session: one visit on one platform.',
    examples: [
      {
        sessionId: '0193a1f2-7c4e-7b21-9a55-1f6d2c3b4a59',
        appId: 12,
        platform: 'WEB',
        startedAt: '2026-11-22T09:30:00.000Z',
        updatedAt: '2026-11-22T09:31:12.000Z',
        externalUserId: 'member-1024',
        userLinkedAt: '2026-11-22T09:31:12.000Z',
        deepLinkToken: null,
        utmSource: 'kakao',
        utmMedium: 'social',
        utmCampaign: 'winter-sale',
        referrer: 'https://m.search.naver.com/',
        landingUrl: 'https://shop.example.com/items/42',
        link: { type: 'campaign', id: 7, code: 'winter', registeredAt: '2026-11-22T09:30:01.000Z' },
      },
    ],
  });

export function toSessionJson(s: JourneySession): z.infer<typeof sessionSchema> {
  return {
    sessionId: s.id,
    appId: s.appId,
    platform: s.platform,
    startedAt: s.startedAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    externalUserId: s.externalUserId,
    userLinkedAt: s.userLinkedAt?.toISOString() ?? null,
    deepLinkToken: s.deepLinkToken,
    utmSource: s.utmSource,
    utmMedium: s.utmMedium,
    utmCampaign: s.utmCampaign,
    referrer: s.referrer,
    landingUrl: s.landingUrl,
    link: s.link && {
      type: s.link.type,
      id: s.link.id,
      code: s.link.code,
      registeredAt: s.link.registeredAt.toISOString(),
    },
  };
}

export const sessionParams = z.object({ sessionId: singleLine(z.string().max(64)) });
