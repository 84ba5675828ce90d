// Service API: short URLs (/api/v1/service/urls): create, list, read, update, delete, QR code.
// Statistics routes live with the statistics module.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linkAddress, parseExpirationDate } from '../../core/links/link-rules.js';
import type { ShortUrl, ShortUrlService } from '../../core/links/short-urls.js';
import { commonErrorResponses, idParams, nullableStrings } from '../schemas/common.js';
import { callerOf } from '../request-caller.js';
import { trackedLinkRoutes } from './tracked-link.routes.js';
import type { IdempotencyService } from '../../core/links/idempotency.service.js';
import { shortUrlBulkRoutes } from './short-url-bulk.routes.js';
import type { Caller } from '../../core/caller.js';
import {
  managedLinkBodyFields,
  managedLinkJson,
  managedLinkRecordFields,
  managedListFilter,
} from '../schemas/link-management.js';
import { domainNameSchema } from '../schemas/custom-domain.js';
import {
  aliasSchema,
  clearable,
  deepLinkPath,
  expiryField,
  linkTargetSchema,
  linkedAppFields,
  text,
  withExpiresAt,
  type LinkRouteSettings,
} from '../schemas/link.js';
import { queryBoolean } from '../schemas/paging.js';
import { security } from './route-docs.js';

const EXPIRATION_DOC =
  "YYYY-MM-DD HH:mm:ss is UTC; a bare YYYY-MM-DD lasts until the end of that day in the organization's time zone (Asia/Seoul unless set). Must be in the future; null clears (update).";

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
    ...nullableStrings('ogTitle', 'ogDescription', 'ogImageUrl'),
    iosAppId: z.number().int().nullable(),
    androidAppId: z.number().int().nullable(),
    ...nullableStrings(
      'utmSource',
      'utmMedium',
      'utmTerm',
      'utmContent',
      'customDomainName',
      'iosDeepLinkPath',
      'androidDeepLinkPath',
      'mobileTargetUrl',
      'goalType',
    ),
    shortCode: z.string().describe('extension: the code in the path'),
    utmCampaign: z.string().nullable().describe('extension'),
    updatedAt: z.string().describe('extension'),
    ...managedLinkRecordFields,
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
    ...managedLinkJson(u),
  };
}

export const shortUrlRoutes: FastifyPluginAsyncZod<
  LinkRouteSettings & { shortUrls: ShortUrlService; idempotency: IdempotencyService }
> = async (app, options) => {
  const { shortUrls, publicBaseUrl } = options;
  const tags = ['service: short URLs'];
  const url = linkTargetSchema(options);
  const expiration = expiryField(parseExpirationDate, 'YYYY-MM-DD HH:mm:ss (UTC) or YYYY-MM-DD').describe(
    EXPIRATION_DOC,
  );

  /** Fields the record carries beyond the basic create body, which a user wants to set too. */
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
  const toJson = (u: ShortUrl & { clickCount: number }) => toShortUrlJson(u, publicBaseUrl, u.clickCount);
  const filter = {
    keyword: z
      .string()
      .max(100, 'must be at most 100 characters')
      .optional()
      .describe('matches the URL and the short code'),
    showAdPage: queryBoolean.optional(),
    ...managedListFilter,
  };
  const createBody = z.object({
    url,
    customAlias: aliasSchema.optional(),
    title: clearable(text(200)),
    ...linkedAppFields,
    expirationDate: expiration.nullable().optional(),
    showAdPage: z.boolean().default(false),
    goalType: clearable(text(50)),
    customDomainName: clearable(domainNameSchema),
    ...extraFields,
    ...managedLinkBodyFields(url),
  });
  /** The core's create input of a create body whose expiry has been read: `url` is the originalUrl. */
  const withOriginalUrl = <T extends { url: string }>({ url: originalUrl, ...rest }: T) => ({ ...rest, originalUrl });
  /** The same of a create body as it came (an expiry date becomes the instant it means for the caller). */
  const newShortUrl = (caller: Caller, body: z.output<typeof createBody>) =>
    withOriginalUrl(withExpiresAt(caller, 'expirationDate', body, options.clock));

  trackedLinkRoutes(
    app,
    '/urls',
    {
      tags,
      security,
      a: 'a short URL',
      many: 'short URLs',
      slug: 'code',
      filter,
      item: shortUrlSchema,
      pageId: 'ShortUrlPage',
      idempotency: options.idempotency,
      createOperation: 'createShortUrl',
      expiry: { field: 'expirationDate', clock: options.clock },
      createBody,
      updateBody: z.object({
        originalUrl: url.optional(),
        expirationDate: expiration.nullable().optional(),
        showAdPage: z.boolean().optional(),
        goalType: clearable(text(50)),
        title: clearable(text(200)),
        ...linkedAppFields,
        ...extraFields,
        ...managedLinkBodyFields(url),
      }),
    },
    {
      ...shortUrls,
      create: (caller, body) => shortUrls.create(caller, withOriginalUrl(body)),
    },
    toJson,
  );

  shortUrlBulkRoutes(app, {
    idempotency: options.idempotency,
    tags,
    security,
    shortUrls,
    item: shortUrlSchema,
    filter,
    createBody,
    newShortUrl,
    toJson,
    expiration,
    clock: options.clock,
  });

  const colour = z
    .string()
    .regex(/^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'must be a hex colour such as #000000')
    .transform((c) => (c.startsWith('#') ? c : `#${c}`));

  app.get(
    '/urls/:id/qr',
    {
      schema: {
        tags,
        security,
        summary: 'QR code of the short URL (PRO plan and above)',
        description:
          'qrCode is Base64 (PNG by default): prefix data:image/png;base64, to embed. Extensions: format=svg, size, margin, colours, errorCorrectionLevel.',
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
          200: z
            .object({ qrCode: z.string(), shortUrl: z.string(), format: z.enum(['png', 'svg']).describe('extension') })
            .meta({ id: 'QrCode' }),
          ...commonErrorResponses,
        },
      },
    },
    async (request) => await shortUrls.qrCode(callerOf(request), request.params.id, request.query),
  );
};
