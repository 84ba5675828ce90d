// Mobile SDK API, tracking (/api/v1/sdk/mobile/…): funnel stages (idempotent per session, stage
// and timestamp), clicks the app reports itself (recorded like the redirect's clicks), and the
// push-service identity attached to a link. Only the caller's organization's links are visible.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { normalizeIp } from '../../shared/ip.js';
import { MOBILE_FUNNEL_STAGES } from '../../ingest/deep-link-events.js';
import { clickEvent } from '../../core/clicks/click-event.js';
import { gone, invalid, notFound } from '../../shared/errors.js';
import type { AppDeps } from '../deps.js';
import { commonErrorResponses, errorBodySchema, idSchema } from '../schemas/common.js';
import { singleLine, withinJsonBounds } from '../schemas/text.js';
import { campaignRef, campaignRefSchema, expiresAtOf, loadLink, type TargetLink } from './deep-link-targets.js';
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

export const mobileTrackingRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const { records, recorder, tokens } = deps.deepLinks;

  async function findByCode(organizationId: number, code: string, linkType: 'url' | 'campaign'): Promise<TargetLink> {
    const ref = await records.findLinkByCode(organizationId, code, linkType);
    const link = ref && (await loadLink(deps, organizationId, ref));
    if (!link) {
      throw linkType === 'url'
        ? notFound('SHORT_URL_NOT_FOUND', `no short URL ${code} in your organization`)
        : notFound('CAMPAIGN_NOT_FOUND', `no campaign ${code} in your organization`);
    }
    return link;
  }

  // ------------------------------------------------------------------------------------------
  app.post('/deeplink/funnel/track', {
    schema: {
      tags: ['mobile SDK: tracking'],
      summary: 'Record a funnel stage (idempotent per sessionId, stage and timestamp)',
      description: 'A repeat of the same sessionId, stage and timestamp answers recorded: false and records nothing. Without a timestamp a stage counts once per session.',
      body: z.object({
        sessionId: z.string().trim().min(1).max(200),
        stage: z.enum(MOBILE_FUNNEL_STAGES),
        timestamp: z.string().max(40).optional(),
        goalType: z.string().max(50).optional(),
        goalValue: z.union([z.string().max(50), z.number()]).optional(),
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
          timestamp: z.string().describe('the stage\'s time, ISO-8601 UTC'),
          linkType: z.enum(['url', 'campaign']).nullable(),
          linkId: z.number().int().nullable(),
        }),
        ...errors,
      },
    },
  }, async (request) => {
    const { app: caller, organization } = mobileCaller(request);
    const b = request.body;
    const now = Date.now();
    let occurredAt = now;
    if (b.timestamp !== undefined) {
      occurredAt = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(b.timestamp) ? b.timestamp : `${b.timestamp}Z`);
      if (Number.isNaN(occurredAt)) throw invalid('VALIDATION_FAILED', 'body.timestamp: must be an ISO-8601 date-time');
      if (occurredAt > now + MAX_FUTURE_MS) throw invalid('VALIDATION_FAILED', 'body.timestamp: is in the future');
    }
    let goalValue: number | null = null;
    if (b.goalValue !== undefined && b.goalValue !== '') {
      goalValue = typeof b.goalValue === 'number' ? b.goalValue : Number(b.goalValue);
      if (!Number.isFinite(goalValue)) throw invalid('VALIDATION_FAILED', 'body.goalValue: must be a number');
    }
    if (b.urlId !== undefined && b.campaignId !== undefined) throw invalid('VALIDATION_FAILED', 'body: give urlId or campaignId, not both');
    let link: { linkType: 'url' | 'campaign'; linkId: number } | null = null;
    if (b.urlId !== undefined || b.campaignId !== undefined) {
      const ref = b.urlId !== undefined ? { linkType: 'url' as const, id: b.urlId } : { linkType: 'campaign' as const, id: b.campaignId! };
      if (!(await loadLink(deps, organization.id, ref))) {
        throw ref.linkType === 'url'
          ? notFound('SHORT_URL_NOT_FOUND', `short URL ${ref.id} does not exist`)
          : notFound('CAMPAIGN_NOT_FOUND', `campaign ${ref.id} does not exist`);
      }
      link = { linkType: ref.linkType, linkId: ref.id };
    } else {
      // A session that is a deep-link token of this organization belongs to the token's link.
      const token = b.sessionId.length <= 100 ? await tokens.get(b.sessionId) : undefined;
      if (token && token.organizationId === organization.id) link = { linkType: token.linkType, linkId: token.linkId };
    }
    const timestamp = new Date(occurredAt).toISOString();
    const recorded = await records.markFunnelStage(organization.id, b.sessionId, b.stage, b.timestamp === undefined ? '' : timestamp);
    if (recorded) {
      const currency = /^purchase_([A-Za-z]{3})$/.exec(b.goalType ?? '')?.[1]?.toUpperCase() ?? null;
      recorder.funnel(organization.id, {
        appId: caller.id,
        platform: b.platform ?? caller.platform,
        sessionId: b.sessionId,
        stage: b.stage,
        linkType: link?.linkType ?? null,
        linkId: link?.linkId ?? null,
        goalType: b.goalType ?? null,
        goalValue,
        currency,
        deviceType: b.deviceType ?? null,
        externalUserId: b.externalUserId ?? null,
        source: 'sdk',
      }, occurredAt);
    }
    return { status: 'success' as const, recorded, sessionId: b.sessionId, stage: b.stage, timestamp, linkType: link?.linkType ?? null, linkId: link?.linkId ?? null };
  });

  // ------------------------------------------------------------------------------------------
  /** A click the app reports, recorded like the redirect's (the same `click` event and table). */
  async function recordClick(request: FastifyRequest, link: TargetLink, extra: { cid: string; tracker: string; deviceInfo: z.infer<typeof deviceInfoSchema> | undefined }) {
    const expiresAt = expiresAtOf(link);
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw gone('LINK_EXPIRED', 'the link has expired');
    const clickId = await records.nextClickId();
    const f = link.linkType === 'url' ? link.url : link.campaign;
    deps.events.record(clickEvent({
      link: { kind: link.linkType, id: f.id, organizationId: f.organizationId },
      host: request.hostname,
      ip: normalizeIp(request.ip),
      userAgent: extra.deviceInfo?.userAgent ?? request.headers['user-agent'],
      referrer: undefined,
      acceptLanguage: request.headers['accept-language'],
      cid: extra.cid,
      tracker: extra.tracker,
      bot: false,
      source: 'mobile_sdk',
      clickId,
    }));
    return clickId;
  }

  app.post('/clicks/url', {
    schema: {
      tags: ['mobile SDK: tracking'],
      summary: 'Record a click on a short URL inside the app',
      body: z.object({ shortCode: slugSchema, deviceInfo: deviceInfoSchema.optional() }),
      response: { 200: z.object({ clickId: z.number().int(), originalUrl: z.string(), mobileTargetUrl: z.string().nullable() }), ...errors },
    },
  }, async (request) => {
    const { organization } = mobileCaller(request);
    const link = await findByCode(organization.id, request.body.shortCode, 'url');
    if (link.linkType !== 'url') throw new Error('unreachable');
    const clickId = await recordClick(request, link, { cid: '', tracker: '', deviceInfo: request.body.deviceInfo });
    return { clickId, originalUrl: link.url.originalUrl, mobileTargetUrl: link.url.mobileTargetUrl };
  });

  app.post('/clicks/campaign', {
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
  }, async (request) => {
    const { organization } = mobileCaller(request);
    const b = request.body;
    const link = await findByCode(organization.id, b.campaignAlias, 'campaign');
    if (link.linkType !== 'campaign') throw new Error('unreachable');
    const clickId = await recordClick(request, link, { cid: b.customId ?? '', tracker: b.trackerAlias ?? '', deviceInfo: b.deviceInfo });
    return { clickId, originalUrl: link.campaign.originalUrl, campaign: campaignRef(link)!, customId: b.customId ?? null, trackerAlias: b.trackerAlias ?? null };
  });

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

  async function associate(request: FastifyRequest, code: string, type: 'url' | 'campaign', body: { tokenidx: string; identify: string }, appPath?: string) {
    const { organization } = mobileCaller(request);
    const link = await findByCode(organization.id, code, type);
    const f = link.linkType === 'url' ? link.url : link.campaign;
    if (appPath !== undefined) {
      const apps = await deps.repos.mobileApps.getMany(organization.id, [f.iosAppId, f.androidAppId].filter((id): id is number => id !== null));
      if (![...apps.values()].some((a) => a.path === appPath)) {
        throw notFound(type === 'url' ? 'SHORT_URL_NOT_FOUND' : 'CAMPAIGN_NOT_FOUND', `no link ${appPath}/${code} in your organization`);
      }
    }
    const saved = await records.upsertAssociation({ organizationId: organization.id, link: { linkType: link.linkType, id: f.id }, ...body });
    return {
      status: 'success' as const,
      action: saved.created ? ('created' as const) : ('updated' as const),
      linkType: link.linkType,
      linkId: f.id,
      tokenidx: body.tokenidx,
      identify: body.identify,
      updatedAt: saved.updatedAt.toISOString(),
    };
  }

  app.post('/links/:shortCode/associations', { schema: { ...associationSchema, params: z.object({ shortCode: slugSchema }) } }, (request) =>
    associate(request, request.params.shortCode, request.query.type, request.body));
  app.post('/links/:appPath/:shortCode/associations', {
    schema: { ...associationSchema, params: z.object({ appPath: slugSchema, shortCode: slugSchema }) },
  }, (request) => associate(request, request.params.shortCode, request.query.type, request.body, request.params.appPath));
};
