// Mobile SDK API, tracking (/api/v1/sdk/mobile/…): funnel stages (idempotent per session, stage
// and timestamp), clicks the app reports itself (recorded like the redirect's clicks), and the
// push-service identity attached to a link. Only the caller's organization's links are visible.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { campaignRef } from '../../core/deeplinks/targets.js';
import type { ClickSource, DeepLinkTrackingService } from '../../core/deeplinks/tracking.service.js';
import { MOBILE_FUNNEL_STAGES } from '../../core/deeplinks/tracking.service.js';
import { invalidBodyField } from '../../core/field-error.js';
import { invalid } from '../../shared/errors.js';
import { commonErrorResponses, errorBodySchema, idSchema } from '../schemas/common.js';
import { singleLine, withinJsonBounds } from '../schemas/text.js';
import { campaignRefSchema } from './link-ref-schemas.js';
import { mobileCaller } from './mobile-sdk-auth.js';

const SLUG = /^[A-Za-z0-9_-]{1,50}$/;
const slugSchema = z.string().regex(SLUG, 'must be a short code or alias (letters, digits, - and _)');
const errors = { ...commonErrorResponses, 410: errorBodySchema };
/** A funnel timestamp may lag (offline apps) but not lead by more than clock skew. */
const MAX_FUTURE_MS = 24 * 3600_000;

const deviceInfoSchema = z
  .object({
    platform: z.string().max(50).optional(),
    os: z.string().max(50).optional(),
    osVersion: z.string().max(50).optional(),
    browser: z.string().max(100).optional(),
    deviceModel: z.string().max(100).optional(),
    userAgent: z.string().max(1000).optional(),
  })
  .catchall(z.unknown())
  .superRefine(withinJsonBounds())
  .describe('platform, os, browser and similar; userAgent, when present, is what the click is parsed from');

/** Where a click the app reports came from, and what the app says of the device. */
const clickSource = (
  request: FastifyRequest,
  deviceInfo: { userAgent?: string | undefined } | undefined,
): ClickSource => ({
  host: request.hostname,
  ip: request.ip,
  userAgent: request.headers['user-agent'],
  acceptLanguage: request.headers['accept-language'],
  deviceInfo,
});

/** A funnel time as the app sends it (ISO-8601, UTC when it names no zone), in Unix ms. */
function parseStageTime(text: string, now: number): number {
  const occurredAt = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text}Z`);
  if (Number.isNaN(occurredAt)) throw invalidBodyField('timestamp', 'must be an ISO-8601 date-time');
  if (occurredAt > now + MAX_FUTURE_MS) throw invalidBodyField('timestamp', 'is in the future');
  return occurredAt;
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** goalValue as apps send it: a number (or a number in a string) is the value; other text is kept as text. */
function readGoalValue(raw: string | number | undefined): { goalValue: number | null; goalText: string | null } {
  if (typeof raw === 'number') return { goalValue: raw, goalText: null };
  const text = raw?.trim() ?? '';
  if (text === '') return { goalValue: null, goalText: null };
  const value = DECIMAL.test(text) ? Number(text) : Number.NaN;
  return Number.isFinite(value) ? { goalValue: value, goalText: null } : { goalValue: null, goalText: text };
}

export const mobileTrackingRoutes: FastifyPluginAsyncZod<{ tracking: DeepLinkTrackingService }> = async (
  app,
  { tracking },
) => {
  // ------------------------------------------------------------------------------------------
  app.post(
    '/deeplink/funnel/track',
    {
      schema: {
        tags: ['mobile SDK: tracking'],
        summary: 'Record a funnel stage (idempotent per sessionId, stage and timestamp)',
        description:
          'A repeat of the same sessionId, stage and timestamp answers recorded: false and records nothing. Without a timestamp a stage counts once per session.',
        body: z.object({
          sessionId: z.string().trim().min(1).max(200),
          stage: z.enum(MOBILE_FUNNEL_STAGES),
          timestamp: z.string().max(40).optional(),
          goalType: z.string().max(50).optional(),
          goalValue: z
            .union([z.string().max(200), z.number().finite()])
            .optional()
            .describe(
              "a String in the spec: a decimal number is the goal's value (revenue for purchases); any other text is kept as the goal's text (goalText in statistics exports), its value none",
            ),
          platform: z.enum(['IOS', 'ANDROID']).optional(),
          deviceType: z.string().max(50).optional(),
          urlId: idSchema.optional(),
          campaignId: idSchema.optional(),
          externalUserId: z.string().max(200).optional(),
        }),
        response: {
          200: z.object({
            status: z.literal('success'),
            recorded: z.boolean().describe('false for a repeat: nothing new was recorded'),
            sessionId: z.string(),
            stage: z.enum(MOBILE_FUNNEL_STAGES),
            timestamp: z.string().describe("the stage's time, ISO-8601 UTC"),
            linkType: z.enum(['url', 'campaign']).nullable(),
            linkId: z.number().int().nullable(),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const b = request.body;
      const occurredAt = b.timestamp === undefined ? undefined : parseStageTime(b.timestamp, Date.now());
      const { goalValue, goalText } = readGoalValue(b.goalValue);
      if (b.urlId !== undefined && b.campaignId !== undefined)
        throw invalid('VALIDATION_FAILED', 'body: give urlId or campaignId, not both');
      const link =
        b.urlId !== undefined
          ? { linkType: 'url' as const, id: b.urlId }
          : b.campaignId !== undefined
            ? { linkType: 'campaign' as const, id: b.campaignId }
            : undefined;
      const {
        recorded,
        timestamp,
        link: linked,
      } = await tracking.trackFunnelStage(mobileCaller(request), {
        sessionId: b.sessionId,
        stage: b.stage,
        occurredAt,
        goalType: b.goalType,
        goalValue,
        goalText,
        platform: b.platform,
        deviceType: b.deviceType,
        link,
        externalUserId: b.externalUserId,
      });
      return {
        status: 'success' as const,
        recorded,
        sessionId: b.sessionId,
        stage: b.stage,
        timestamp,
        linkType: linked?.linkType ?? null,
        linkId: linked?.id ?? null,
      };
    },
  );

  // ------------------------------------------------------------------------------------------
  app.post(
    '/clicks/url',
    {
      schema: {
        tags: ['mobile SDK: tracking'],
        summary: 'Record a click on a short URL inside the app',
        body: z.object({ shortCode: slugSchema, deviceInfo: deviceInfoSchema.optional() }),
        response: {
          200: z.object({ clickId: z.number().int(), originalUrl: z.string(), mobileTargetUrl: z.string().nullable() }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { clickId, url } = await tracking.shortUrlClick(
        mobileCaller(request),
        request.body.shortCode,
        clickSource(request, request.body.deviceInfo),
      );
      return { clickId, originalUrl: url.originalUrl, mobileTargetUrl: url.mobileTargetUrl };
    },
  );

  app.post(
    '/clicks/campaign',
    {
      schema: {
        tags: ['mobile SDK: tracking'],
        summary: 'Record a click on a campaign inside the app',
        body: z.object({
          campaignAlias: slugSchema,
          trackerAlias: singleLine(z.string().max(100)).optional(),
          customId: singleLine(z.string().max(100)).optional(),
          deviceInfo: deviceInfoSchema.optional(),
        }),
        response: {
          200: z.object({
            clickId: z.number().int(),
            originalUrl: z.string(),
            campaign: campaignRefSchema,
            customId: z.string().nullable(),
            trackerAlias: z.string().nullable(),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const b = request.body;
      const { clickId, link, campaign } = await tracking.campaignClick(
        mobileCaller(request),
        b,
        clickSource(request, b.deviceInfo),
      );
      return {
        clickId,
        originalUrl: campaign.originalUrl,
        campaign: campaignRef(link)!,
        customId: b.customId ?? null,
        trackerAlias: b.trackerAlias ?? null,
      };
    },
  );

  // ------------------------------------------------------------------------------------------
  const associationSchema = {
    tags: ['mobile SDK: tracking'],
    summary: 'Attach a push-service identity to a link (upsert per link and tokenidx)',
    querystring: z.object({ type: z.enum(['url', 'campaign']).default('url') }),
    body: z.object({ tokenidx: z.string().trim().min(1).max(200), identify: z.string().trim().min(1).max(200) }),
    response: {
      200: z.object({
        status: z.literal('success'),
        action: z.enum(['created', 'updated']),
        linkType: z.enum(['url', 'campaign']),
        linkId: z.number().int(),
        tokenidx: z.string(),
        identify: z.string(),
        updatedAt: z.string(),
      }),
      ...errors,
    },
  };

  async function associate(
    request: FastifyRequest,
    code: string,
    linkType: 'url' | 'campaign',
    body: { tokenidx: string; identify: string },
    appPath?: string,
  ) {
    const saved = await tracking.associate(mobileCaller(request), { code, linkType, appPath }, body);
    return {
      status: 'success' as const,
      action: saved.created ? ('created' as const) : ('updated' as const),
      linkType: saved.link.linkType,
      linkId: saved.link.id,
      tokenidx: body.tokenidx,
      identify: body.identify,
      updatedAt: saved.updatedAt.toISOString(),
    };
  }

  app.post(
    '/links/:shortCode/associations',
    { schema: { ...associationSchema, params: z.object({ shortCode: slugSchema }) } },
    (request) => associate(request, request.params.shortCode, request.query.type, request.body),
  );
  app.post(
    '/links/:appPath/:shortCode/associations',
    {
      schema: { ...associationSchema, params: z.object({ appPath: slugSchema, shortCode: slugSchema }) },
    },
    (request) => associate(request, request.params.shortCode, request.query.type, request.body, request.params.appPath),
  );
};
