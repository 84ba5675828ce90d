// Operator routes for organizations, their Service API keys, plan, add-ons and IP allow-list.
import { isIP } from 'node:net';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../shared/errors.js';
import { found } from './found-organization.js';
import type { AppDeps } from '../deps.js';
import { errorBodySchema, idSchema } from '../schemas/common.js';
import { organizationSchema, planSchema, toOrganizationJson } from '../schemas/organization.js';

const orgParams = z.object({ orgId: idSchema });
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const security = [{ adminToken: [] }];
const tags = ['operator'];

/** An address or a CIDR block, IPv4 or IPv6. */
const ipOrCidr = z
  .string()
  .trim()
  .refine((value) => {
    const [address, prefix, extra] = value.split('/');
    if (!address || extra !== undefined) return false;
    const family = isIP(address);
    if (family === 0) return false;
    if (prefix === undefined) return true;
    if (!/^\d{1,3}$/.test(prefix)) return false;
    return Number(prefix) <= (family === 4 ? 32 : 128);
  }, 'must be an IP address or a CIDR block such as 203.0.113.0/24');

export const adminOrganizationRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const { organizations, apiKeys } = deps.repos;

  app.post('/organizations', {
    schema: {
      tags, security, summary: 'Create an organization and its first Service API key',
      body: z.object({ name: z.string().trim().min(1).max(200), plan: planSchema.default('FREE') }),
      response: { 201: organizationSchema.extend({ apiKey: z.string().describe('shown this once') }), ...errors },
    },
  }, async (request, reply) => {
    const org = await organizations.create(request.body);
    const key = await apiKeys.issue(org.id);
    return reply.code(201).send({ ...toOrganizationJson(org), apiKey: key.apiKey });
  });

  app.get('/organizations/:orgId', {
    schema: { tags, security, summary: 'Read an organization', params: orgParams, response: { 200: organizationSchema, ...errors } },
  }, async (request) => toOrganizationJson(found(await organizations.get(request.params.orgId), request.params.orgId)));

  app.post('/organizations/:orgId/api-keys', {
    schema: {
      tags, security, summary: 'Issue another Service API key', params: orgParams,
      response: { 201: z.object({ id: z.number().int(), apiKey: z.string() }), ...errors },
    },
  }, async (request, reply) => {
    found(await organizations.get(request.params.orgId), request.params.orgId);
    return reply.code(201).send(await apiKeys.issue(request.params.orgId));
  });

  app.delete('/organizations/:orgId/api-keys/:keyId', {
    schema: {
      tags, security, summary: 'Delete a Service API key; it fails at once',
      params: orgParams.extend({ keyId: idSchema }),
      response: { 204: z.null().describe('deleted'), ...errors },
    },
  }, async (request, reply) => {
    const { orgId, keyId } = request.params;
    found(await organizations.get(orgId), orgId);
    if (!(await apiKeys.revoke(orgId, keyId))) throw notFound('API_KEY_NOT_FOUND', `API key ${keyId} does not exist`);
    return reply.code(204).send(null);
  });

  app.put('/organizations/:orgId/plan', {
    schema: {
      tags, security, summary: 'Change plan and, optionally, the monthly quota (null: the plan default)',
      params: orgParams,
      body: z.object({ plan: planSchema, monthlyQuota: z.number().int().min(0).max(1e12).nullable().optional() }),
      response: { 200: organizationSchema, ...errors },
    },
  }, async (request) => {
    const { orgId } = request.params;
    const org = await organizations.setPlan(orgId, request.body.plan, request.body.monthlyQuota);
    return toOrganizationJson(found(org, orgId));
  });

  app.put('/organizations/:orgId/add-ons', {
    schema: {
      tags, security, summary: 'Grant or withdraw add-ons (ENTERPRISE includes both)',
      params: orgParams,
      body: z.object({ userJourney: z.boolean().optional(), revenueAnalytics: z.boolean().optional() }),
      response: { 200: organizationSchema, ...errors },
    },
  }, async (request) => {
    const { orgId } = request.params;
    return toOrganizationJson(found(await organizations.setAddOns(orgId, request.body), orgId));
  });

  app.put('/organizations/:orgId/ip-allowlist', {
    schema: {
      tags, security, summary: 'Replace the Service API IP allow-list; an empty list allows all',
      params: orgParams,
      body: z.object({ ips: z.array(ipOrCidr).max(200) }),
      response: { 200: z.object({ ips: z.array(z.string()) }), ...errors },
    },
  }, async (request) => {
    const { orgId } = request.params;
    const ips = [...new Set(request.body.ips)];
    const org = found(await organizations.setIpAllowlist(orgId, ips), orgId);
    return { ips: org.ipAllowlist };
  });
};
