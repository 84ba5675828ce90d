// Service API: campaigns (/api/v1/service/campaigns): named tracked links with an alias.
// Statistics routes live with the statistics module.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { conflict, notFound } from '../../shared/errors.js';
import { randomBase62, uuidv7 } from '../../shared/ids.js';
import type { Campaign } from '../../oltp/campaigns.repo.js';
import type { AppDeps } from '../deps.js';
import { commonErrorResponses, errorBodySchema, idParams } from '../schemas/common.js';
import { domainNameSchema } from '../schemas/custom-domain.js';
import { pagedResponse, pageQuery, queryDateTime, toPaged } from '../schemas/paging.js';
import { singleLine } from '../schemas/text.js';
import {
  aliasSchema,
  clearable,
  deepLinkPath,
  futureDateField,
  generateShortCode,
  httpsUrlSchema,
  isReservedSlug,
  linkAddress,
  parseIsoDateTime,
  text,
} from './link-rules.js';
import { checkLinkedApps, usableCustomDomain } from './link-targets.js';

export const campaignSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    alias: z.string(),
    originalUrl: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    expiresAt: z.string().nullable(),
    iosAppId: z.number().int().nullable(),
    iosAppName: z.string().nullable(),
    iosAppIconUrl: z.string().nullable(),
    androidAppId: z.number().int().nullable(),
    androidAppName: z.string().nullable(),
    androidAppIconUrl: z.string().nullable(),
    username: z.string().describe("creator: the organization's name"),
    utmSource: z.string().nullable(),
    utmMedium: z.string().nullable(),
    appPath: z.string().nullable().describe("linked app's path: {base}/{appPath}/{alias}"),
    customDomainName: z.string().nullable(),
    iosDeepLinkPath: z.string().nullable(),
    androidDeepLinkPath: z.string().nullable(),
    clickCount: z.number().int(),
    goalType: z.string().nullable(),
    campaignUrl: z.string().describe('complete campaign link; add ?cid=…&tracker=… to track'),
  })
  .meta({ id: 'Campaign' });

export function toCampaignJson(c: Campaign, publicBaseUrl: string, clickCount: number): z.infer<typeof campaignSchema> {
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
  };
}

/** A readable alias from the name (`Summer Sale 2025` → `summer-sale-2025`), else a random code. */
export function aliasFromName(name: string): string {
  // NFKD splits `é` into `e` + a combining accent; the accent goes, not the word (`cafe`, not `caf-e`).
  const slug = name.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
  return slug.length >= 3 && !isReservedSlug(slug) ? slug : generateShortCode();
}

export const campaignRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const { campaigns } = deps.repos;
  const { publicBaseUrl, production } = deps.config;
  const tags = ['service: campaigns'];
  const security = [{ apiKey: [] }];
  const url = httpsUrlSchema({ production, allowPrivate: deps.config.linkAllowPrivateTargets });
  const expiresAt = futureDateField(parseIsoDateTime, 'ISO-8601 such as 2025-12-31T23:59:59Z (seconds optional)', deps.clock);
  const extraFields = {
    utmSource: clearable(text(100)),
    utmMedium: clearable(text(100)),
    iosDeepLinkPath: clearable(deepLinkPath),
    androidDeepLinkPath: clearable(deepLinkPath),
  };
  /** Records with their clickCount, one ClickHouse query for however many. */
  const withCounts = async (orgId: number, items: Campaign[]) => {
    const counts = await deps.clickCounts.forLinks(orgId, 'campaign', items.map((c) => c.id));
    return items.map((c) => toCampaignJson(c, publicBaseUrl, counts.get(c.id) ?? 0));
  };
  const toJson = async (c: Campaign) => (await withCounts(c.organizationId, [c]))[0]!;
  /** A `campaign_change` event on the bus (webhooks: campaign.created/updated/deleted). */
  const changed = (action: 'created' | 'updated' | 'deleted', c: Campaign) => deps.events.record({
    eventId: uuidv7(), type: 'campaign_change', occurredAt: Date.now(), organizationId: c.organizationId,
    data: { action, campaign: { id: c.id, name: c.name, alias: c.alias } },
  });
  const requireCampaign = async (orgId: number, id: number) => {
    const found = await campaigns.get(orgId, id);
    if (!found) throw notFound('CAMPAIGN_NOT_FOUND', `campaign ${id} does not exist`);
    return found;
  };

  app.post('/campaigns', {
    schema: {
      tags, security, summary: 'Create a campaign',
      body: z.object({
        name: singleLine(z.string().trim().min(1, 'is required').max(50, 'must be at most 50 characters')),
        alias: aliasSchema.optional(),
        originalUrl: url,
        iosAppId: z.number().int().positive().nullable().optional(),
        androidAppId: z.number().int().positive().nullable().optional(),
        expiresAt: expiresAt.nullable().optional(),
        goalType: clearable(text(50)),
        customDomainName: clearable(domainNameSchema),
        ...extraFields,
      }),
      response: { 201: campaignSchema, ...commonErrorResponses, 409: errorBodySchema },
    },
  }, async (request, reply) => {
    const { organization } = request.serviceAuth!;
    const b = request.body;
    await checkLinkedApps(deps, organization.id, b);
    const customDomain = await usableCustomDomain(deps, organization.id, b.customDomainName);
    const generated = b.alias === undefined;
    const base = b.alias ?? aliasFromName(b.name);
    const created = await campaigns.create({
      organizationId: organization.id,
      fields: {
        name: b.name,
        originalUrl: b.originalUrl,
        expiresAt: b.expiresAt ?? null,
        iosAppId: b.iosAppId ?? null,
        androidAppId: b.androidAppId ?? null,
        utmSource: b.utmSource ?? null,
        utmMedium: b.utmMedium ?? null,
        iosDeepLinkPath: b.iosDeepLinkPath ?? null,
        androidDeepLinkPath: b.androidDeepLinkPath ?? null,
        goalType: b.goalType ?? null,
      },
      createdBy: organization.name,
      customDomain,
      alias: base,
      // A generated alias that is taken gets a short random suffix instead.
      nextAlias: generated ? () => `${base.slice(0, 44)}-${randomBase62(5).toLowerCase()}` : undefined,
    });
    if (!created) throw conflict('ALIAS_TAKEN', `alias: ${base} is already in use on this domain`, { field: 'alias' });
    changed('created', created);
    // A new campaign has no clicks yet: no need to ask ClickHouse.
    return reply.code(201).send(toCampaignJson(created, publicBaseUrl, 0));
  });

  app.get('/campaigns', {
    schema: {
      tags, security, summary: 'List campaigns, newest first',
      querystring: z.object({
        ...pageQuery,
        search: z.string().max(100, 'must be at most 100 characters').optional().describe('matches name and alias'),
        createdAfter: queryDateTime.optional(),
        createdBefore: queryDateTime.optional(),
      }),
      response: { 200: pagedResponse(campaignSchema, 'CampaignPage'), ...commonErrorResponses },
    },
  }, async (request) => {
    const { page, size, ...filter } = request.query;
    const orgId = request.serviceAuth!.organization.id;
    const { items, total } = await campaigns.list(orgId, filter, { page, size });
    return toPaged(await withCounts(orgId, items), total, { page, size });
  });

  app.get('/campaigns/:id', {
    schema: { tags, security, summary: 'Read a campaign', params: idParams, response: { 200: campaignSchema, ...commonErrorResponses } },
  }, async (request) => await toJson(await requireCampaign(request.serviceAuth!.organization.id, request.params.id)));

  app.put('/campaigns/:id', {
    schema: {
      tags, security, summary: 'Update a campaign (fields left out keep their value; null clears)',
      params: idParams,
      body: z.object({
        name: singleLine(z.string().trim().min(1, 'must not be empty').max(50, 'must be at most 50 characters')).optional(),
        originalUrl: url.optional(),
        expiresAt: expiresAt.nullable().optional(),
        goalType: clearable(text(50)),
        iosAppId: z.number().int().positive().nullable().optional(),
        androidAppId: z.number().int().positive().nullable().optional(),
        ...extraFields,
      }),
      response: { 200: campaignSchema, ...commonErrorResponses },
    },
  }, async (request) => {
    const orgId = request.serviceAuth!.organization.id;
    await requireCampaign(orgId, request.params.id);
    await checkLinkedApps(deps, orgId, request.body);
    const updated = await campaigns.update(orgId, request.params.id, request.body);
    if (!updated) throw notFound('CAMPAIGN_NOT_FOUND', `campaign ${request.params.id} does not exist`);
    changed('updated', updated);
    return await toJson(updated);
  });

  app.delete('/campaigns/:id', {
    schema: { tags, security, summary: 'Delete a campaign; its alias stops resolving', params: idParams, response: { 204: z.null(), ...commonErrorResponses } },
  }, async (request, reply) => {
    const orgId = request.serviceAuth!.organization.id;
    const existing = await campaigns.get(orgId, request.params.id);
    if (!existing || !(await campaigns.delete(orgId, request.params.id))) {
      throw notFound('CAMPAIGN_NOT_FOUND', `campaign ${request.params.id} does not exist`);
    }
    changed('deleted', existing);
    return reply.code(204).send(null);
  });
};
