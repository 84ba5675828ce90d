// Mobile SDK API, deep-link resolution (/api/v1/sdk/mobile/deeplink/…): an app opened with a token
// (match), a first launch after install (resolve-fingerprint: deferred deep linking), and links the
// app was opened with by address (resolve-shorturl, resolve-campaign). Every attempt, matched or
// not, is recorded as a deeplink_resolution event; first launches as app_install.
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { agentSignals } from '../../deeplink/device-signals.js';
import { normalizeIp } from '../../shared/ip.js';
import { deviceKey } from '../../deeplink/records.js';
import type { MobileApp } from '../../oltp/mobile-apps.repo.js';
import { gone, notFound, type DomainError } from '../../shared/errors.js';
import type { AppDeps } from '../deps.js';
import { commonErrorResponses, errorBodySchema } from '../schemas/common.js';
import { linkAddress } from '../../core/links/link-rules.js';
import {
  campaignRef,
  campaignRefSchema,
  deepLinkPathOf,
  expiresAtOf,
  goalTypeOf,
  linkId,
  loadLink,
  originalUrlOf,
  urlRef,
  urlRefSchema,
  type TargetLink,
} from './deep-link-targets.js';
import { mobileCaller } from './mobile-sdk-auth.js';

const tags = ['mobile SDK: deep links'];
const SLUG = /^[A-Za-z0-9_-]{1,50}$/;
const slugSchema = z.string().regex(SLUG, 'must be a short code or alias (letters, digits, - and _)');
const errors = { ...commonErrorResponses, 410: errorBodySchema };

const linkPayload = {
  deepLinkPath: z.string().nullable().describe('the deep-link path for the calling app\'s platform'),
  linkType: z.enum(['url', 'campaign']),
  goalType: z.string().nullable(),
};

export const mobileDeepLinkRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const { tokens, records, matcher, recorder } = deps.deepLinks;

  const userKeyOf = (request: FastifyRequest, a: MobileApp, ip?: string) =>
    deviceKey([a.id, ip ?? normalizeIp(request.ip), request.headers['user-agent']]);

  const linkKeys = (link: TargetLink) => ({ linkType: link.linkType, linkId: linkId(link) });

  // ------------------------------------------------------------------------------------------
  app.get('/deeplink/match', {
    schema: {
      tags, summary: 'The link of a deep-link token the app was opened with',
      description: 'Marks the token opened and consumes it (no first launch can match it later); repeats answer the same link until it expires.',
      querystring: z.object({ token: z.string().trim().min(1).max(100) }),
      response: {
        200: z.object({
          scheme: z.string().nullable(),
          originalUrl: z.string(),
          url: urlRefSchema.nullable().describe('null for a campaign token'),
          campaign: campaignRefSchema.optional().describe('campaign tokens only'),
          token: z.string(),
          ...linkPayload,
        }),
        ...errors,
      },
    },
  }, async (request) => {
    const { app: caller, organization } = mobileCaller(request);
    const stored = await tokens.get(request.query.token);
    const miss = (reason: string) => {
      recorder.resolution(organization.id, {
        appId: caller.id, platform: caller.platform, method: 'token', matched: false, matchType: null, confidence: 0,
        failureReason: reason, linkType: null, linkId: null, reengagement: true, userKey: userKeyOf(request, caller),
      });
      return notFound('DEEP_LINK_TOKEN_NOT_FOUND', 'the deep-link token is unknown or has expired');
    };
    if (!stored || stored.organizationId !== organization.id) throw miss('unknown_token');
    if (stored.expiresAt.getTime() <= Date.now()) throw miss('expired_token');
    const opened = await tokens.open(organization.id, stored.token);
    if (!opened) throw miss('expired_token');
    const link = await loadLink(deps, organization.id, { linkType: stored.linkType, id: stored.linkId });
    if (!link) throw miss('link_deleted');
    recorder.resolution(organization.id, {
      appId: caller.id, platform: caller.platform, method: 'token', matched: true, matchType: 'token', confidence: 100,
      failureReason: null, ...linkKeys(link), reengagement: true, userKey: userKeyOf(request, caller),
    });
    if (opened.first) {
      for (const stage of ['APP_OPENED', 'DEEP_LINK_RESOLVED'] as const) {
        recorder.funnel(organization.id, { appId: caller.id, platform: caller.platform, sessionId: stored.token, stage, ...linkKeys(link), source: 'server' });
      }
    }
    return {
      scheme: caller.scheme,
      originalUrl: originalUrlOf(link),
      url: urlRef(link),
      ...(link.linkType === 'campaign' ? { campaign: campaignRef(link)! } : {}),
      token: stored.token,
      deepLinkPath: deepLinkPathOf(link, caller.platform),
      linkType: link.linkType,
      goalType: goalTypeOf(link),
    };
  });

  // ------------------------------------------------------------------------------------------
  const ipSchema = z.string().trim().max(64).refine((v) => isIP(v) !== 0, 'must be an IPv4 or IPv6 address');
  app.get('/deeplink/resolve-fingerprint', {
    schema: {
      tags, summary: 'Deferred deep link: the click a first launch after install comes from',
      description:
        'Deterministic first (referrer: the Play Install Referrer string; token: a token from the clipboard or a URL), ' +
        'then probabilistic over the app\'s open tokens (score 0..100, threshold in the README). A match is consumed once. ' +
        'Every call counts as a first launch (app_install, attributed or organic).',
      querystring: z.object({
        userAgent: z.string().min(1).max(1000),
        ipAddress: ipSchema,
        resolution: z.string().max(30).optional().describe('<width>x<height>, points or pixels'),
        osVersion: z.string().max(30).optional(),
        deviceModel: z.string().max(100).optional().describe('Build.MODEL on Android (extension)'),
        timeZone: z.string().max(64).optional().describe('IANA zone of the device (extension)'),
        language: z.string().max(64).optional().describe('device language tag, such as ko-KR (extension)'),
        referrer: z.string().max(2000).optional().describe('Play Install Referrer string (extension)'),
        token: z.string().max(2000).optional().describe('a token or a URL with signpost_token, from the clipboard or a link (extension)'),
        sessionId: z.string().max(200).optional().describe('the app\'s install session id, kept on the install record (extension)'),
      }),
      response: {
        200: z.union([
          z.object({
            matched: z.literal(true),
            matchType: z.enum(['referrer', 'fingerprint']),
            confidence: z.number().int().min(0).max(100),
            token: z.string(),
            originalUrl: z.string(),
            url: urlRefSchema.nullable(),
            campaign: campaignRefSchema.nullable(),
            ...linkPayload,
          }),
          z.object({ matched: z.literal(false) }),
        ]),
        ...errors,
      },
    },
  }, async (request) => {
    const { app: caller, organization } = mobileCaller(request);
    const q = request.query;
    const outcome = await matcher.resolve({
      appId: caller.id,
      platform: caller.platform,
      userAgent: q.userAgent,
      ipAddress: q.ipAddress,
      requestIp: request.ip,
      resolution: q.resolution,
      osVersion: q.osVersion,
      deviceModel: q.deviceModel,
      timeZone: q.timeZone,
      language: q.language,
      referrer: q.referrer,
      token: q.token,
    });
    const link = outcome.matched ? await loadLink(deps, organization.id, { linkType: outcome.token.linkType, id: outcome.token.linkId }) : undefined;
    const agent = agentSignals(q.userAgent);
    const userKey = deviceKey([caller.id, normalizeIp(q.ipAddress), q.userAgent, q.resolution]);
    const keys = link ? linkKeys(link) : { linkType: null, linkId: null };
    recorder.resolution(organization.id, {
      appId: caller.id, platform: caller.platform, method: outcome.method,
      matched: outcome.matched && link !== undefined,
      matchType: outcome.matched ? outcome.matchType : null,
      confidence: outcome.matched ? outcome.confidence : outcome.bestScore,
      failureReason: outcome.matched ? (link ? null : 'link_deleted') : outcome.failureReason,
      ...keys, reengagement: false, userKey,
    });
    const attributed = outcome.matched && link !== undefined;
    recorder.install(organization.id, {
      appId: caller.id, platform: caller.platform, ...keys,
      matchType: attributed ? outcome.matchType : 'organic',
      confidence: attributed ? outcome.confidence : 0,
      ip: normalizeIp(q.ipAddress),
      osVersion: q.osVersion ?? agent.osVersion,
      sessionId: attributed ? outcome.token.token : (q.sessionId ?? null),
    });
    if (!outcome.matched || !link) return { matched: false as const };
    for (const stage of ['APP_INSTALLED', 'APP_OPENED', 'DEEP_LINK_RESOLVED'] as const) {
      recorder.funnel(organization.id, { appId: caller.id, platform: caller.platform, sessionId: outcome.token.token, stage, ...keys, source: 'server' });
    }
    return {
      matched: true as const,
      matchType: outcome.matchType,
      confidence: outcome.confidence,
      token: outcome.token.token,
      originalUrl: originalUrlOf(link),
      url: urlRef(link),
      campaign: campaignRef(link),
      deepLinkPath: deepLinkPathOf(link, caller.platform),
      linkType: link.linkType,
      goalType: goalTypeOf(link),
    };
  });

  // ------------------------------------------------------------------------------------------
  /**
   * The organization's short URL or campaign by its code, optionally under one of its apps' path
   * (the address /{appPath}/{code}); 404 for another organization's, 410 once expired.
   */
  async function linkByAddress(request: FastifyRequest, linkType: 'url' | 'campaign', code: string, appPath: string | undefined): Promise<TargetLink> {
    const { app: caller, organization } = mobileCaller(request);
    const method = linkType === 'url' ? 'shorturl' : 'campaign';
    const fail = (reason: string, error: DomainError) => {
      recorder.resolution(organization.id, {
        appId: caller.id, platform: caller.platform, method, matched: false, matchType: null, confidence: 0,
        failureReason: reason, linkType: null, linkId: null, reengagement: true, userKey: userKeyOf(request, caller),
      });
      return error;
    };
    const what = linkType === 'url' ? 'short URL' : 'campaign';
    const missing = () => fail('unknown_code', notFound(linkType === 'url' ? 'SHORT_URL_NOT_FOUND' : 'CAMPAIGN_NOT_FOUND', `no ${what} ${code} in your organization`));
    const ref = await records.findLinkByCode(organization.id, code, linkType);
    const link = ref && (await loadLink(deps, organization.id, ref));
    if (!link) throw missing();
    if (appPath !== undefined) {
      const f = link.linkType === 'url' ? link.url : link.campaign;
      const apps = await deps.repos.mobileApps.getMany(organization.id, [f.iosAppId, f.androidAppId].filter((id): id is number => id !== null));
      if (![...apps.values()].some((a) => a.path === appPath)) throw missing();
    }
    const expiresAt = expiresAtOf(link);
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      throw fail('link_expired', gone('LINK_EXPIRED', `the ${what} ${code} has expired`));
    }
    recorder.resolution(organization.id, {
      appId: caller.id, platform: caller.platform, method, matched: true, matchType: 'direct', confidence: 100,
      failureReason: null, ...linkKeys(link), reengagement: true, userKey: userKeyOf(request, caller),
    });
    return link;
  }

  const shortUrlResponse = z.object({
    originalUrl: z.string(),
    shortUrl: z.string(),
    mobileTargetUrl: z.string().nullable(),
    iosDeepLinkPath: z.string().nullable(),
    androidDeepLinkPath: z.string().nullable(),
    scheme: z.string().nullable().describe('the calling app\'s URL scheme'),
    url: urlRefSchema.extend({ title: z.string().nullable(), shortUrl: z.string(), expiresAt: z.string().nullable() }),
    ...linkPayload,
  });

  async function resolveShortUrl(request: FastifyRequest, code: string, appPath?: string) {
    const { app: caller } = mobileCaller(request);
    const link = await linkByAddress(request, 'url', code, appPath);
    if (link.linkType !== 'url') throw new Error('unreachable');
    const u = link.url;
    const shortUrl = linkAddress(deps.config.publicBaseUrl, u.customDomainName, u.shortCode);
    return {
      originalUrl: u.originalUrl,
      shortUrl,
      mobileTargetUrl: u.mobileTargetUrl,
      iosDeepLinkPath: u.iosDeepLinkPath,
      androidDeepLinkPath: u.androidDeepLinkPath,
      scheme: caller.scheme,
      url: { id: u.id, alias: u.shortCode, title: u.title, shortUrl, expiresAt: u.expiresAt?.toISOString() ?? null },
      deepLinkPath: deepLinkPathOf(link, caller.platform),
      linkType: 'url' as const,
      goalType: u.goalType,
    };
  }

  const shortUrlSchema = { tags, summary: 'The short URL the app was opened with (short code, or app path and short code)', response: { 200: shortUrlResponse, ...errors } };
  app.get('/deeplink/resolve-shorturl/:code', { schema: { ...shortUrlSchema, params: z.object({ code: slugSchema }) } }, (request) =>
    resolveShortUrl(request, request.params.code));
  app.get('/deeplink/resolve-shorturl/:appPath/:code', { schema: { ...shortUrlSchema, params: z.object({ appPath: slugSchema, code: slugSchema }) } }, (request) =>
    resolveShortUrl(request, request.params.code, request.params.appPath));

  const campaignResponse = z.object({
    originalUrl: z.string(),
    campaign: campaignRefSchema,
    customerId: z.string().nullable().describe('the click\'s customId (cid) the app passes on, else null'),
    campaignUrl: z.string(),
    scheme: z.string().nullable(),
    ...linkPayload,
  });
  const campaignQuery = z.object({ cid: z.string().max(100).optional(), customId: z.string().max(100).optional() });

  async function resolveCampaign(request: FastifyRequest, alias: string, query: z.infer<typeof campaignQuery>, appPath?: string) {
    const { app: caller } = mobileCaller(request);
    const link = await linkByAddress(request, 'campaign', alias, appPath);
    if (link.linkType !== 'campaign') throw new Error('unreachable');
    const c = link.campaign;
    return {
      originalUrl: c.originalUrl,
      campaign: campaignRef(link)!,
      customerId: query.cid ?? query.customId ?? null,
      campaignUrl: linkAddress(deps.config.publicBaseUrl, c.customDomainName, c.alias),
      scheme: caller.scheme,
      deepLinkPath: deepLinkPathOf(link, caller.platform),
      linkType: 'campaign' as const,
      goalType: c.goalType,
    };
  }

  const campaignSchema = { tags, summary: 'The campaign the app was opened with (alias)', querystring: campaignQuery, response: { 200: campaignResponse, ...errors } };
  app.get('/deeplink/resolve-campaign/:alias', { schema: { ...campaignSchema, params: z.object({ alias: slugSchema }) } }, (request) =>
    resolveCampaign(request, request.params.alias, request.query));
  app.get('/deeplink/resolve-campaign/:appPath/:alias', { schema: { ...campaignSchema, params: z.object({ appPath: slugSchema, alias: slugSchema }) } }, (request) =>
    resolveCampaign(request, request.params.alias, request.query, request.params.appPath));
};
