// Service API: campaigns (/api/v1/service/campaigns): named tracked links with an alias.
// Statistics routes live with the statistics module.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { linkAddress, parseCampaignExpiry } from '../../core/links/link-rules.js';
import type { Campaign, CampaignService } from '../../core/links/campaigns.js';
import { nullableStrings } from '../schemas/common.js';
import { domainNameSchema } from '../schemas/custom-domain.js';
import {
  aliasSchema,
  clearable,
  deepLinkPath,
  expiryField,
  linkTargetSchema,
  linkedAppFields,
  text,
  type LinkRouteSettings,
} from '../schemas/link.js';
import { singleLine } from '../schemas/text.js';
import { trackedLinkRoutes } from './tracked-link.routes.js';
import type { IdempotencyService } from '../../core/links/idempotency.service.js';
import { type CsvColumn, linkExportRoute, sharedLinkColumns } from './link-export.routes.js';
import {
  managedLinkBodyFields,
  managedLinkJson,
  managedLinkRecordFields,
  managedListFilter,
} from '../schemas/link-management.js';
import { security } from './route-docs.js';

const campaignSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    alias: z.string(),
    originalUrl: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    expiresAt: z.string().nullable(),
    iosAppId: z.number().int().nullable(),
    ...nullableStrings('iosAppName', 'iosAppIconUrl'),
    androidAppId: z.number().int().nullable(),
    ...nullableStrings('androidAppName', 'androidAppIconUrl'),
    username: z
      .string()
      .describe(
        "creator: the console member's name (else address), or the name of the Service API key that made it (else its first characters); the organization's name for campaigns made before creators were recorded",
      ),
    ...nullableStrings('utmSource', 'utmMedium'),
    appPath: z.string().nullable().describe("linked app's path: {base}/{appPath}/{alias}"),
    ...nullableStrings('customDomainName', 'iosDeepLinkPath', 'androidDeepLinkPath'),
    clickCount: z.number().int(),
    goalType: z.string().nullable(),
    campaignUrl: z.string().describe('complete campaign link; add ?cid=…&tracker=… to track'),
    ...managedLinkRecordFields,
  })
  .meta({ id: 'Campaign' });

function toCampaignJson(c: Campaign, publicBaseUrl: string, clickCount: number): z.infer<typeof campaignSchema> {
  return {
    id: c.id,
    name: c.name,
    alias: c.alias,
    originalUrl: c.originalUrl,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    expiresAt: c.expiresAt ? c.expiresAt.toISOString() : null,
    iosAppId: c.iosAppId,
    iosAppName: c.iosApp?.name ?? null,
    iosAppIconUrl: c.iosApp?.iconUrl ?? null,
    androidAppId: c.androidAppId,
    androidAppName: c.androidApp?.name ?? null,
    androidAppIconUrl: c.androidApp?.iconUrl ?? null,
    username: c.createdBy,
    utmSource: c.utmSource,
    utmMedium: c.utmMedium,
    appPath: c.iosApp?.path ?? c.androidApp?.path ?? null,
    customDomainName: c.customDomainName,
    iosDeepLinkPath: c.iosDeepLinkPath,
    androidDeepLinkPath: c.androidDeepLinkPath,
    clickCount,
    goalType: c.goalType,
    campaignUrl: linkAddress(publicBaseUrl, c.customDomainName, c.alias),
    ...managedLinkJson(c),
  };
}

export const campaignRoutes: FastifyPluginAsyncZod<
  LinkRouteSettings & { campaigns: CampaignService; idempotency: IdempotencyService }
> = async (app, options) => {
  const { campaigns, publicBaseUrl } = options;
  const tags = ['service: campaigns'];
  const url = linkTargetSchema(options);
  const expiresAt = expiryField(
    parseCampaignExpiry,
    'ISO-8601 such as 2025-12-31T23:59:59Z (seconds optional) or a date YYYY-MM-DD',
  ).describe(
    "ISO-8601, UTC unless it names an offset, seconds optional; a bare YYYY-MM-DD lasts until the end of that day in the organization's time zone (Asia/Seoul unless set). Must be in the future; null clears (update).",
  );
  const extraFields = {
    utmSource: clearable(text(100)),
    utmMedium: clearable(text(100)),
    iosDeepLinkPath: clearable(deepLinkPath),
    androidDeepLinkPath: clearable(deepLinkPath),
  };
  const toJson = (c: Campaign & { clickCount: number }) => toCampaignJson(c, publicBaseUrl, c.clickCount);

  const filter = {
    search: z.string().max(100, 'must be at most 100 characters').optional().describe('matches name and alias'),
    ...managedListFilter,
  };

  trackedLinkRoutes(
    app,
    '/campaigns',
    {
      tags,
      security,
      a: 'a campaign',
      many: 'campaigns',
      slug: 'alias',
      filter,
      item: campaignSchema,
      pageId: 'CampaignPage',
      idempotency: options.idempotency,
      createOperation: 'createCampaign',
      expiry: { field: 'expiresAt', clock: options.clock },
      createBody: z.object({
        name: singleLine(z.string().trim().min(1, 'is required').max(50, 'must be at most 50 characters')),
        alias: aliasSchema.optional(),
        originalUrl: url,
        ...linkedAppFields,
        expiresAt: expiresAt.nullable().optional(),
        goalType: clearable(text(50)),
        customDomainName: clearable(domainNameSchema),
        ...extraFields,
        ...managedLinkBodyFields(url),
      }),
      updateBody: z.object({
        name: singleLine(
          z.string().trim().min(1, 'must not be empty').max(50, 'must be at most 50 characters'),
        ).optional(),
        originalUrl: url.optional(),
        expiresAt: expiresAt.nullable().optional(),
        goalType: clearable(text(50)),
        ...linkedAppFields,
        ...extraFields,
        ...managedLinkBodyFields(url),
      }),
    },
    campaigns,
    toJson,
  );

  const columns: CsvColumn<Campaign & { clickCount: number }>[] = [
    ['campaignUrl', (c) => linkAddress(publicBaseUrl, c.customDomainName, c.alias)],
    ['name', (c) => c.name],
    ['alias', (c) => c.alias],
    ['originalUrl', (c) => c.originalUrl],
    ...sharedLinkColumns(),
    ['createdBy', (c) => c.createdBy],
    ['clickLimit', (c) => c.clickLimit],
    ['note', (c) => c.note],
    ['archived', (c) => String(c.archivedAt !== null)],
  ];
  linkExportRoute(
    app,
    '/campaigns/export',
    { tags, security, many: 'campaigns', filter, fileName: 'campaigns.csv' },
    columns,
    (caller, criteria) => campaigns.export(caller, criteria),
  );
};
