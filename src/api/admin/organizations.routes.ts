// Operator routes for organizations, their Service API keys, plan, add-ons and IP allow-list.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OrganizationsService } from '../../core/organizations/organizations.service.js';
import { PAGE_LANGUAGES } from '../../shared/language.js';
import type { ApiKeyEntry } from '../../core/organizations/api-keys.service.js';
import { apiKeyAccessFields, apiKeyOptionsBody, toApiKeyAccessJson, toApiKeyOptions } from '../schemas/api-key.js';
import { idSchema } from '../schemas/common.js';
import { ipAllowlistBody } from '../schemas/ip-allowlist.js';
import { organizationSchema, planSchema, timeZoneSchema, toOrganizationJson } from '../schemas/organization.js';
import { pageQuery } from '../schemas/paging.js';
import { operatorAnswer, operatorErrors as errors, operatorDelete, operatorPage, orgParams } from './operator-doc.js';

/** A Service API key as a list shows it: never the secret, only its first characters. */
const apiKeyEntrySchema = z
  .object({
    id: z.number().int(),
    name: z.string().nullable(),
    prefix: z.string().describe('the first characters of the key, to tell keys apart'),
    createdAt: z.string(),
    ...apiKeyAccessFields,
  })
  .meta({ id: 'ApiKeyEntry' });
const toApiKeyJson = (k: ApiKeyEntry) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  ...toApiKeyAccessJson(k),
});

export const adminOrganizationRoutes: FastifyPluginAsyncZod<{ organizations: OrganizationsService }> = async (
  app,
  { organizations },
) => {
  operatorAnswer(
    app,
    'POST',
    '/organizations',
    {
      summary: 'Create an organization and its first Service API key',
      body: z.object({
        name: z.string().trim().min(1).max(200),
        plan: planSchema.default('FREE'),
        timeZone: timeZoneSchema.optional().describe('default Asia/Seoul'),
      }),
      status: 201,
      response: organizationSchema.extend({ apiKey: z.string().describe('shown this once') }),
      errors,
    },
    async (_params, body) => {
      const { organization, apiKey } = await organizations.create(body);
      return { ...toOrganizationJson(organization), apiKey: apiKey.apiKey };
    },
  );

  operatorPage(
    app,
    '/organizations',
    {
      summary: 'List organizations, newest first',
      querystring: z.object({
        ...pageQuery,
        search: z.string().trim().max(100).optional().describe('part of the name'),
        plan: planSchema.optional(),
      }),
      item: organizationSchema,
      pageId: 'OrganizationPage',
      errors,
    },
    ({ page, size, ...filter }) => organizations.list(filter, { page, size }),
    toOrganizationJson,
  );

  operatorPage(
    app,
    '/organizations/:orgId/api-keys',
    {
      summary: "List an organization's live Service API keys (never the keys themselves)",
      params: orgParams,
      querystring: z.object(pageQuery),
      item: apiKeyEntrySchema,
      pageId: 'ApiKeyEntryPage',
      errors,
    },
    (page, { orgId }) => organizations.apiKeys(orgId, page),
    toApiKeyJson,
  );

  operatorAnswer(
    app,
    'GET',
    '/organizations/:orgId/api-keys/:keyId',
    {
      summary: 'Read a live Service API key (never the key itself)',
      params: orgParams.extend({ keyId: idSchema }),
      response: apiKeyEntrySchema,
      errors,
    },
    async ({ orgId, keyId }) => toApiKeyJson(await organizations.apiKey(orgId, keyId)),
  );

  operatorAnswer(
    app,
    'GET',
    '/organizations/:orgId',
    { summary: 'Read an organization', params: orgParams, response: organizationSchema, errors },
    async ({ orgId }) => toOrganizationJson(await organizations.get(orgId)),
  );

  operatorAnswer(
    app,
    'POST',
    '/organizations/:orgId/api-keys',
    {
      summary: 'Issue another Service API key, optionally read-only or expiring',
      params: orgParams,
      // No body at all (null to fastify): a key with full access and no expiry, as before.
      body: apiKeyOptionsBody.nullish(),
      status: 201,
      response: z.object({ id: z.number().int(), apiKey: z.string() }),
      errors,
    },
    ({ orgId }, body) => organizations.issueApiKey(orgId, toApiKeyOptions(body)),
  );

  operatorDelete(
    app,
    '/organizations/:orgId/api-keys/:keyId',
    { summary: 'Delete a Service API key; it fails at once', params: orgParams.extend({ keyId: idSchema }), errors },
    ({ orgId, keyId }) => organizations.revokeApiKey(orgId, keyId),
  );

  /** PUT /organizations/:orgId/`path`: one setting changed by `set`, answered with the organization as it is now. */
  const setting = <B extends z.ZodType>(
    path: string,
    summary: string,
    body: B,
    set: (orgId: number, body: z.output<B>) => Promise<Parameters<typeof toOrganizationJson>[0]>,
  ) =>
    operatorAnswer(
      app,
      'PUT',
      `/organizations/:orgId/${path}`,
      { summary, params: orgParams, body, response: organizationSchema, errors },
      async ({ orgId }, value) => toOrganizationJson(await set(orgId, value)),
    );

  setting(
    'plan',
    'Change plan and, optionally, the monthly quota (null: the plan default)',
    z.object({ plan: planSchema, monthlyQuota: z.number().int().min(0).max(1e12).nullable().optional() }),
    (orgId, { plan, monthlyQuota }) => organizations.setPlan(orgId, plan, monthlyQuota),
  );
  setting(
    'add-ons',
    'Grant or withdraw add-ons (ENTERPRISE includes both)',
    z.object({ userJourney: z.boolean().optional(), revenueAnalytics: z.boolean().optional() }),
    organizations.setAddOns,
  );
  setting(
    'language',
    "Set the language of the organization's visitor pages when the browser asks for none we speak",
    z.object({ defaultLanguage: z.enum(PAGE_LANGUAGES) }),
    (orgId, { defaultLanguage }) => organizations.setDefaultLanguage(orgId, defaultLanguage),
  );
  setting(
    'time-zone',
    "Set the organization's time zone (where a link expiry given as a bare date ends)",
    z.object({ timeZone: timeZoneSchema }),
    (orgId, { timeZone }) => organizations.setTimeZone(orgId, timeZone),
  );

  operatorAnswer(
    app,
    'PUT',
    '/organizations/:orgId/ip-allowlist',
    {
      summary: 'Replace the Service API IP allow-list; an empty list allows all',
      params: orgParams,
      body: ipAllowlistBody,
      response: z.object({ ips: z.array(z.string()) }),
      errors,
    },
    async ({ orgId }, { ips }) => ({ ips: await organizations.setIpAllowlist(orgId, ips) }),
  );
};
