// Service API: short URLs (/api/v1/service/urls): create, list, read, update, delete, QR code.
// Statistics routes live with the statistics module.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { z } from 'zod';
import { conflict, forbidden, notFound } from '../../shared/errors.js';
import { PLAN_LIMITS } from '../../shared/plans.js';
import type { ShortUrl, ShortUrlFields } from '../../oltp/short-urls.repo.js';
import type { AppDeps } from '../deps.js';
import { commonErrorResponses, errorBodySchema, idParams } from '../schemas/common.js';
import { pagedResponse, pageQuery, queryBoolean, queryDateTime, toPaged } from '../schemas/paging.js';
import {
  aliasSchema,
  clearable,
  deepLinkPath,
  futureDateField,
  generateShortCode,
  httpsUrlSchema,
  linkAddress,
  parseExpirationDate,
  text,
} from './link-rules.js';
import { checkLinkedApps, usableCustomDomain } from './link-targets.js';
import { domainNameSchema } from '../schemas/custom-domain.js';

export const shortUrlSchema = z
  .object({
    id: z.number().int(),
    shortUrl: z.string().describe('complete short URL'),
    originalUrl: z.string(),
    title: z.string().nullable(),
    clickCount: z.number().int(),
    createdAt: z.string(),
    expiresAt: z.string().nullable(),
    showAdPage: z.boolean(),
    ogTitle: z.string().nullable(),
    ogDescription: z.string().nullable(),
    ogImageUrl: z.string().nullable(),
    iosAppId: z.number().int().nullable(),
    androidAppId: z.number().int().nullable(),
    utmSource: z.string().nullable(),
    utmMedium: z.string().nullable(),
    utmTerm: z.string().nullable(),
    utmContent: z.string().nullable(),
    customDomainName: z.string().nullable(),
    iosDeepLinkPath: z.string().nullable(),
    androidDeepLinkPath: z.string().nullable(),
    mobileTargetUrl: z.string().nullable(),
    goalType: z.string().nullable(),
    shortCode: z.string().describe('extension: the code in the path'),
    utmCampaign: z.string().nullable().describe('extension'),
    updatedAt: z.string().describe('extension'),
  })
  .meta({ id: 'ShortUrl' });

export type ShortUrlJson = z.infer<typeof shortUrlSchema>;

export function toShortUrlJson(u: ShortUrl, publicBaseUrl: string, clickCount: number): ShortUrlJson {
  return {
    id: u.id,
    shortUrl: linkAddress(publicBaseUrl, u.customDomainName, u.shortCode),
    originalUrl: u.originalUrl,
    title: u.title,
    clickCount,
    createdAt: u.createdAt.toISOString(),
    expiresAt: u.expiresAt ? u.expiresAt.toISOString() : null,
    showAdPage: u.showAdPage,
    ogTitle: u.ogTitle,
    ogDescription: u.ogDescription,
    ogImageUrl: u.ogImageUrl,
    iosAppId: u.iosAppId,
    androidAppId: u.androidAppId,
    utmSource: u.utmSource,
    utmMedium: u.utmMedium,
    utmTerm: u.utmTerm,
    utmContent: u.utmContent,
    customDomainName: u.customDomainName,
    iosDeepLinkPath: u.iosDeepLinkPath,
    androidDeepLinkPath: u.androidDeepLinkPath,
    mobileTargetUrl: u.mobileTargetUrl,
    goalType: u.goalType,
    shortCode: u.shortCode,
    utmCampaign: u.utmCampaign,
    updatedAt: u.updatedAt.toISOString(),
  };
}

export const shortUrlRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const { shortUrls } = deps.repos;
  const { publicBaseUrl, production } = deps.config;
  const tags = ['service: short URLs'];
  const security = [{ apiKey: [] }];
  const url = httpsUrlSchema({ production, allowPrivate: deps.config.linkAllowPrivateTargets });
  const expiration = futureDateField(parseExpirationDate, 'YYYY-MM-DD HH:mm:ss or YYYY-MM-DD (UTC)', deps.clock);

  /** Fields beyond the spec's create body that the record carries and a user wants to set. */
  const extraFields = {
    ogTitle: clearable(text(200)),
    ogDescription: clearable(text(500)),
    ogImageUrl: clearable(url),
    utmSource: clearable(text(100)),
    utmMedium: clearable(text(100)),
    utmCampaign: clearable(text(100)),
    utmTerm: clearable(text(100)),
    utmContent: clearable(text(100)),
    iosDeepLinkPath: clearable(deepLinkPath),
    androidDeepLinkPath: clearable(deepLinkPath),
    mobileTargetUrl: clearable(url),
  };

  /** Records with their clickCount, one ClickHouse query for however many. */
  const withCounts = async (orgId: number, items: ShortUrl[]) => {
    const counts = await deps.clickCounts.forLinks(orgId, 'url', items.map((u) => u.id));
    return items.map((u) => toShortUrlJson(u, publicBaseUrl, counts.get(u.id) ?? 0));
  };
  const toJson = async (u: ShortUrl) => (await withCounts(u.organizationId, [u]))[0]!;
  const requireUrl = async (orgId: number, id: number) => {
    const found = await shortUrls.get(orgId, id);
    if (!found) throw notFound('SHORT_URL_NOT_FOUND', `short URL ${id} does not exist`);
    return found;
  };

  app.post('/urls', {
    schema: {
      tags, security, summary: 'Create a short URL',
      body: z.object({
        url,
        customAlias: aliasSchema.optional(),
        title: clearable(text(200)),
        iosAppId: z.number().int().positive().nullable().optional(),
        androidAppId: z.number().int().positive().nullable().optional(),
        expirationDate: expiration.nullable().optional(),
        showAdPage: z.boolean().default(false),
        goalType: clearable(text(50)),
        customDomainName: clearable(domainNameSchema),
        ...extraFields,
      }),
      response: { 201: shortUrlSchema, ...commonErrorResponses, 409: errorBodySchema },
    },
  }, async (request, reply) => {
    const { organization } = request.serviceAuth!;
    const b = request.body;
    await checkLinkedApps(deps, organization.id, b);
    const customDomain = await usableCustomDomain(deps, organization.id, b.customDomainName);
    const fields: ShortUrlFields = {
      originalUrl: b.url,
      title: b.title ?? null,
      expiresAt: b.expirationDate ?? null,
      showAdPage: b.showAdPage,
      ogTitle: b.ogTitle ?? null,
      ogDescription: b.ogDescription ?? null,
      ogImageUrl: b.ogImageUrl ?? null,
      iosAppId: b.iosAppId ?? null,
      androidAppId: b.androidAppId ?? null,
      utmSource: b.utmSource ?? null,
      utmMedium: b.utmMedium ?? null,
      utmCampaign: b.utmCampaign ?? null,
      utmTerm: b.utmTerm ?? null,
      utmContent: b.utmContent ?? null,
      iosDeepLinkPath: b.iosDeepLinkPath ?? null,
      androidDeepLinkPath: b.androidDeepLinkPath ?? null,
      mobileTargetUrl: b.mobileTargetUrl ?? null,
      goalType: b.goalType ?? null,
    };
    const result = await shortUrls.create({
      organizationId: organization.id,
      fields,
      customDomain,
      code: b.customAlias ?? generateShortCode(),
      ...(b.customAlias ? {} : { nextCode: () => generateShortCode() }),
    });
    if (!result.created) {
      throw conflict('ALIAS_TAKEN', `customAlias: ${b.customAlias} is already in use on this domain`, { field: 'customAlias' });
    }
    // A new link has no clicks yet: no need to ask ClickHouse.
    return reply.code(201).send(toShortUrlJson(result.shortUrl, publicBaseUrl, 0));
  });

  app.get('/urls', {
    schema: {
      tags, security, summary: 'List short URLs, newest first',
      querystring: z.object({
        ...pageQuery,
        keyword: z.string().max(100, 'must be at most 100 characters').optional().describe('matches the URL and the short code'),
        showAdPage: queryBoolean.optional(),
        createdAfter: queryDateTime.optional(),
        createdBefore: queryDateTime.optional(),
      }),
      response: { 200: pagedResponse(shortUrlSchema, 'ShortUrlPage'), ...commonErrorResponses },
    },
  }, async (request) => {
    const { page, size, ...filter } = request.query;
    const orgId = request.serviceAuth!.organization.id;
    const { items, total } = await shortUrls.list(orgId, filter, { page, size });
    return toPaged(await withCounts(orgId, items), total, { page, size });
  });

  app.get('/urls/:id', {
    schema: { tags, security, summary: 'Read a short URL', params: idParams, response: { 200: shortUrlSchema, ...commonErrorResponses } },
  }, async (request) => await toJson(await requireUrl(request.serviceAuth!.organization.id, request.params.id)));

  app.put('/urls/:id', {
    schema: {
      tags, security, summary: 'Update a short URL (fields left out keep their value; null clears)',
      params: idParams,
      body: z.object({
        originalUrl: url.optional(),
        expirationDate: expiration.nullable().optional(),
        showAdPage: z.boolean().optional(),
        goalType: clearable(text(50)),
        title: clearable(text(200)),
        iosAppId: z.number().int().positive().nullable().optional(),
        androidAppId: z.number().int().positive().nullable().optional(),
        ...extraFields,
      }),
      response: { 200: shortUrlSchema, ...commonErrorResponses },
    },
  }, async (request) => {
    const orgId = request.serviceAuth!.organization.id;
    await requireUrl(orgId, request.params.id);
    const { expirationDate, ...rest } = request.body;
    await checkLinkedApps(deps, orgId, rest);
    const updated = await shortUrls.update(orgId, request.params.id, {
      ...rest,
      ...(expirationDate === undefined ? {} : { expiresAt: expirationDate }),
    });
    if (!updated) throw notFound('SHORT_URL_NOT_FOUND', `short URL ${request.params.id} does not exist`);
    return await toJson(updated);
  });

  app.delete('/urls/:id', {
    schema: { tags, security, summary: 'Delete a short URL; its code stops resolving', params: idParams, response: { 204: z.null(), ...commonErrorResponses } },
  }, async (request, reply) => {
    if (!(await shortUrls.delete(request.serviceAuth!.organization.id, request.params.id))) {
      throw notFound('SHORT_URL_NOT_FOUND', `short URL ${request.params.id} does not exist`);
    }
    return reply.code(204).send(null);
  });

  const colour = z.string().regex(/^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'must be a hex colour such as #000000').transform((c) => (c.startsWith('#') ? c : `#${c}`));

  app.get('/urls/:id/qr', {
    schema: {
      tags, security, summary: 'QR code of the short URL (PRO plan and above)',
      description: 'qrCode is Base64 (PNG by default): prefix data:image/png;base64, to embed. Extensions: format=svg, size, margin, colours, errorCorrectionLevel.',
      params: idParams,
      querystring: z.object({
        format: z.enum(['png', 'svg']).default('png'),
        size: z.coerce.number().int().min(64).max(2048).default(300),
        margin: z.coerce.number().int().min(0).max(16).default(2),
        darkColor: colour.default('#000000'),
        lightColor: colour.default('#ffffff'),
        errorCorrectionLevel: z.enum(['L', 'M', 'Q', 'H']).default('M'),
      }),
      response: {
        200: z.object({ qrCode: z.string(), shortUrl: z.string(), format: z.enum(['png', 'svg']).describe('extension') }).meta({ id: 'QrCode' }),
        ...commonErrorResponses,
      },
    },
  }, async (request) => {
    const { organization } = request.serviceAuth!;
    // Another organization's id is a 404 on every plan: the plan check never confirms it exists.
    const u = await requireUrl(organization.id, request.params.id);
    if (!PLAN_LIMITS[organization.plan].qrCodes) {
      throw forbidden('PLAN_UPGRADE_REQUIRED', 'QR codes need the PRO plan or above');
    }
    const shortUrl = linkAddress(publicBaseUrl, u.customDomainName, u.shortCode);
    const q = request.query;
    const options = {
      errorCorrectionLevel: q.errorCorrectionLevel,
      margin: q.margin,
      width: q.size,
      color: { dark: q.darkColor, light: q.lightColor },
    };
    const qrCode = q.format === 'svg'
      ? Buffer.from(await QRCode.toString(shortUrl, { ...options, type: 'svg' })).toString('base64')
      : (await QRCode.toBuffer(shortUrl, { ...options, type: 'png' })).toString('base64');
    return { qrCode, shortUrl, format: q.format };
  });
};
