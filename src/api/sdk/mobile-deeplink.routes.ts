// Mobile SDK API, deep-link resolution (/api/v1/sdk/mobile/deeplink/…): an app opened with a token
// (match), a first launch after install (resolve-fingerprint: deferred deep linking), and links the
// app was opened with by address (resolve-shorturl, resolve-campaign). Every attempt, matched or
// not, is recorded as a deeplink_resolution event; first launches as app_install.
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MATCHED_SIGNALS, MISS_REASONS } from '../../core/deeplinks/deferred-match.js';
import type { DeepLinkResolveService } from '../../core/deeplinks/resolve.js';
import {
  campaignRef,
  deepLinkPathOf,
  goalTypeOf,
  linkRef,
  originalUrlOf,
  urlRef,
} from '../../core/deeplinks/targets.js';
import { commonErrorResponses, errorBodySchema } from '../schemas/common.js';
import { linkAddress } from '../../core/links/link-rules.js';
import { campaignRefSchema, urlRefSchema } from './link-ref-schemas.js';
import { mobileCaller } from './mobile-sdk-auth.js';

const tags = ['mobile SDK: deep links'];
const SLUG = /^[A-Za-z0-9_-]{1,50}$/;
const slugSchema = z.string().regex(SLUG, 'must be a short code or alias (letters, digits, - and _)');
const errors = { ...commonErrorResponses, 410: errorBodySchema };

const linkPayload = {
  deepLinkPath: z.string().nullable().describe("the deep-link path for the calling app's platform"),
  linkType: z.enum(['url', 'campaign']),
  goalType: z.string().nullable(),
};

/** What the connection says about the device: where it called from and its user agent. */
const clientOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

export const mobileDeepLinkRoutes: FastifyPluginAsyncZod<{
  resolve: DeepLinkResolveService;
  publicBaseUrl: string;
}> = async (app, { resolve, publicBaseUrl }) => {
  // ------------------------------------------------------------------------------------------
  app.get(
    '/deeplink/match',
    {
      schema: {
        tags,
        summary: 'The link of a deep-link token the app was opened with',
        description:
          'Marks the token opened and consumes it (no first launch can match it later); repeats answer the same link until it expires.',
        querystring: z.object({ token: z.string().trim().min(1).max(100) }),
        response: {
          200: z.object({
            scheme: z.string().nullable(),
            originalUrl: z.string(),
            url: urlRefSchema.describe(
              "the link's id and code: the short URL's, or for a campaign token the campaign's id and alias",
            ),
            campaign: campaignRefSchema.optional().describe('campaign tokens only'),
            token: z.string(),
            ...linkPayload,
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const caller = mobileCaller(request);
      const { token: stored, link } = await resolve.match(caller, request.query.token, clientOf(request));
      return {
        scheme: caller.app.scheme,
        originalUrl: originalUrlOf(link),
        url: linkRef(link),
        ...(link.linkType === 'campaign' ? { campaign: campaignRef(link)! } : {}),
        token: stored.token,
        deepLinkPath: deepLinkPathOf(link, caller.app.platform),
        linkType: link.linkType,
        goalType: goalTypeOf(link),
      };
    },
  );

  // ------------------------------------------------------------------------------------------
  const ipSchema = z
    .string()
    .trim()
    .max(64)
    .refine((v) => isIP(v) !== 0, 'must be an IPv4 or IPv6 address');
  app.get(
    '/deeplink/resolve-fingerprint',
    {
      schema: {
        tags,
        summary: 'Deferred deep link: the click a first launch after install comes from',
        description:
          "Deterministic first (referrer: the Play Install Referrer string; clipboardToken: the landing page's code the iOS app read " +
          'from the pasteboard; token: a token from the clipboard or a URL), ' +
          "then probabilistic over the app's open tokens (score 0..100, threshold in the README). A match is consumed once. " +
          'Every call counts as a first launch (app_install, attributed or organic).',
        querystring: z.object({
          userAgent: z.string().min(1).max(1000),
          ipAddress: ipSchema,
          resolution: z.string().max(30).optional().describe('<width>x<height>, points or pixels'),
          osVersion: z.string().max(30).optional(),
          deviceModel: z
            .string()
            .max(100)
            .optional()
            .describe('Build.MODEL on Android, which Chrome reports as its Sec-CH-UA-Model client hint (extension)'),
          timeZone: z.string().max(64).optional().describe('IANA zone of the device (extension)'),
          language: z.string().max(64).optional().describe('device language tag, such as ko-KR (extension)'),
          referrer: z.string().max(2000).optional().describe('Play Install Referrer string (extension)'),
          clipboardToken: z
            .string()
            .max(100)
            .optional()
            .describe(
              "iOS: the pasteboard's string at first launch, sp: and 12 characters, when the app turned clipboardMatch on (extension)",
            ),
          token: z
            .string()
            .max(2000)
            .optional()
            .describe('a token or a URL with signpost_token, from the clipboard or a link (extension)'),
          sessionId: z
            .string()
            .max(200)
            .optional()
            .describe("the app's install session id, kept on the install record (extension)"),
        }),
        response: {
          200: z.union([
            z.object({
              matched: z.literal(true),
              matchType: z
                .enum(['referrer', 'clipboard', 'fingerprint'])
                .describe(
                  "referrer: a token the app held (Install Referrer, or token from the clipboard or a URL); clipboard (extension: the contract names referrer and fingerprint): the landing page's code (clipboardToken); fingerprint: device signals",
                ),
              confidence: z
                .number()
                .int()
                .min(0)
                .max(100)
                .describe('100 for referrer and clipboard; the fingerprint score otherwise'),
              signals: z
                .array(z.enum(MATCHED_SIGNALS))
                .describe(
                  'what agreed: referrer, clipboard or token for a held token; else ip (same address), ipNetwork (same /24 or IPv6 /64), os, osVersion (same release or patch), deviceModel, resolution, language, timeZone',
                ),
              token: z.string(),
              originalUrl: z.string(),
              url: urlRefSchema.nullable(),
              campaign: campaignRefSchema.nullable(),
              ...linkPayload,
            }),
            z.object({
              matched: z.literal(false),
              reason: z
                .enum(MISS_REASONS)
                .describe(
                  'no_candidate: no open click from a device like this one in the window; below_threshold: the best click scored under the threshold; ' +
                    'already_consumed: the click that fits was matched or opened before; expired: the click that fits (or the token held) has expired, or its link was deleted',
                ),
              bestScore: z
                .number()
                .int()
                .min(0)
                .max(100)
                .optional()
                .describe("below_threshold only: the best click's score"),
            }),
          ]),
          ...errors,
        },
      },
    },
    async (request) => {
      const caller = mobileCaller(request);
      const { sessionId, ...report } = request.query;
      const outcome = await resolve.resolveFirstLaunch(caller, { ...report, requestIp: request.ip, sessionId });
      if (!outcome.matched)
        return {
          matched: false as const,
          reason: outcome.reason,
          ...(outcome.bestScore === null ? {} : { bestScore: outcome.bestScore }),
        };
      const { link } = outcome;
      return {
        matched: true as const,
        matchType: outcome.matchType,
        confidence: outcome.confidence,
        signals: outcome.signals,
        token: outcome.token,
        originalUrl: originalUrlOf(link),
        url: urlRef(link),
        campaign: campaignRef(link),
        deepLinkPath: deepLinkPathOf(link, caller.app.platform),
        linkType: link.linkType,
        goalType: goalTypeOf(link),
      };
    },
  );

  // ------------------------------------------------------------------------------------------
  const shortUrlResponse = z.object({
    originalUrl: z.string(),
    shortUrl: z.string(),
    mobileTargetUrl: z.string().nullable(),
    iosDeepLinkPath: z.string().nullable(),
    androidDeepLinkPath: z.string().nullable(),
    scheme: z.string().nullable().describe("the calling app's URL scheme"),
    url: urlRefSchema.extend({ title: z.string().nullable(), shortUrl: z.string(), expiresAt: z.string().nullable() }),
    ...linkPayload,
  });

  async function resolveShortUrl(request: FastifyRequest, code: string, appPath?: string) {
    const caller = mobileCaller(request);
    const { link, url: u } = await resolve.shortUrl(caller, { code, appPath }, clientOf(request));
    const shortUrl = linkAddress(publicBaseUrl, u.customDomainName, u.shortCode);
    return {
      originalUrl: u.originalUrl,
      shortUrl,
      mobileTargetUrl: u.mobileTargetUrl,
      iosDeepLinkPath: u.iosDeepLinkPath,
      androidDeepLinkPath: u.androidDeepLinkPath,
      scheme: caller.app.scheme,
      url: { id: u.id, alias: u.shortCode, title: u.title, shortUrl, expiresAt: u.expiresAt?.toISOString() ?? null },
      deepLinkPath: deepLinkPathOf(link, caller.app.platform),
      linkType: 'url' as const,
      goalType: u.goalType,
    };
  }

  const shortUrlSchema = {
    tags,
    summary: 'The short URL the app was opened with (short code, or app path and short code)',
    response: { 200: shortUrlResponse, ...errors },
  };
  app.get(
    '/deeplink/resolve-shorturl/:code',
    { schema: { ...shortUrlSchema, params: z.object({ code: slugSchema }) } },
    (request) => resolveShortUrl(request, request.params.code),
  );
  app.get(
    '/deeplink/resolve-shorturl/:appPath/:code',
    { schema: { ...shortUrlSchema, params: z.object({ appPath: slugSchema, code: slugSchema }) } },
    (request) => resolveShortUrl(request, request.params.code, request.params.appPath),
  );

  const campaignResponse = z.object({
    originalUrl: z.string(),
    campaign: campaignRefSchema,
    customerId: z
      .string()
      .nullable()
      .describe(
        'the cid of the click the app was opened from: the one it passes, else that of the click its token or its device signals match; null when none',
      ),
    customerIdSource: z
      .enum(['query', 'token', 'fingerprint'])
      .nullable()
      .describe('extension: where customerId came from'),
    campaignUrl: z.string(),
    scheme: z.string().nullable(),
    ...linkPayload,
  });
  const campaignQuery = z.object({
    cid: z.string().max(100).optional().describe('the cid of the address the app was opened with'),
    customId: z.string().max(100).optional().describe('the same as cid'),
    token: z
      .string()
      .max(2000)
      .optional()
      .describe('extension: the signpost_token the app was opened with, or the URL carrying it'),
    userAgent: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe("extension: the device's browser user agent (default: the request's)"),
    ipAddress: ipSchema.optional().describe("extension: the device's address (default: the request's)"),
    resolution: z.string().max(30).optional(),
    osVersion: z.string().max(30).optional(),
    deviceModel: z.string().max(100).optional(),
    timeZone: z.string().max(64).optional(),
    language: z.string().max(64).optional(),
  });

  async function resolveCampaign(
    request: FastifyRequest,
    alias: string,
    query: z.infer<typeof campaignQuery>,
    appPath?: string,
  ) {
    const caller = mobileCaller(request);
    const { cid, customId, token, userAgent, ipAddress, ...device } = query;
    const client = clientOf(request);
    const hints = {
      cid: cid ?? customId,
      token,
      device: {
        ...device,
        userAgent: userAgent ?? client.userAgent ?? '',
        ipAddress: ipAddress ?? request.ip,
        requestIp: request.ip,
      },
    };
    const {
      link,
      campaign: c,
      customerId,
      customerIdSource,
    } = await resolve.campaign(caller, { code: alias, appPath }, client, hints);
    return {
      originalUrl: c.originalUrl,
      campaign: campaignRef(link)!,
      customerId,
      customerIdSource,
      campaignUrl: linkAddress(publicBaseUrl, c.customDomainName, c.alias),
      scheme: caller.app.scheme,
      deepLinkPath: deepLinkPathOf(link, caller.app.platform),
      linkType: 'campaign' as const,
      goalType: c.goalType,
    };
  }

  const campaignSchema = {
    tags,
    summary: 'The campaign the app was opened with (alias)',
    querystring: campaignQuery,
    response: { 200: campaignResponse, ...errors },
  };
  app.get(
    '/deeplink/resolve-campaign/:alias',
    { schema: { ...campaignSchema, params: z.object({ alias: slugSchema }) } },
    (request) => resolveCampaign(request, request.params.alias, request.query),
  );
  app.get(
    '/deeplink/resolve-campaign/:appPath/:alias',
    { schema: { ...campaignSchema, params: z.object({ appPath: slugSchema, alias: slugSchema }) } },
    (request) => resolveCampaign(request, request.params.alias, request.query, request.params.appPath),
  );
};
