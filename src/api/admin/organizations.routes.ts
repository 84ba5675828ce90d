// Operator routes for organizations, their Service API keys, plan, add-ons and IP allow-list.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OrganizationsService } from '../../core/organizations/organizations.service.js';
import { errorBodySchema, idSchema } from '../schemas/common.js';
import { ipAllowlistBody } from '../schemas/ip-allowlist.js';
import { organizationSchema, planSchema, toOrganizationJson } from '../schemas/organization.js';

const orgParams = z.object({ orgId: idSchema });
const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const security = [{ adminToken: [] }];
const tags = ['operator'];


export const adminOrganizationRoutes: FastifyPluginAsyncZod<{ organizations: OrganizationsService }> = async (app, { organizations }) => {

  app.post('/organizations', {
    schema: {
      tags, security, summary: 'Create an organization and its first Service API key',
      body: z.object({ name: z.string().trim().min(1).max(200), plan: planSchema.default('FREE') }),
      response: { 201: organizationSchema.extend({ apiKey: z.string().describe('shown this once') }), ...errors },
    },
  }, async (request, reply) => {
    const { organization, apiKey } = await organizations.create(request.body);
    return reply.code(201).send({ ...toOrganizationJson(organization), apiKey: apiKey.apiKey });
  });

  app.get('/organizations/:orgId', {
    schema: { tags, security, summary: 'Read an organization', params: orgParams, response: { 200: organizationSchema, ...errors } },
  }, async (request) => toOrganizationJson(await organizations.get(request.params.orgId)));

  app.post('/organizations/:orgId/api-keys', {
    schema: {
      tags, security, summary: 'Issue another Service API key', params: orgParams,
      response: { 201: z.object({ id: z.number().int(), apiKey: z.string() }), ...errors },
    },
  }, async (request, reply) => {
    return reply.code(201).send(await organizations.issueApiKey(request.params.orgId));
  });

  app.delete('/organizations/:orgId/api-keys/:keyId', {
    schema: {
      tags, security, summary: 'Delete a Service API key; it fails at once',
      params: orgParams.extend({ keyId: idSchema }),
      response: { 204: z.null().describe('deleted'), ...errors },
    },
  }, async (request, reply) => {
    await organizations.revokeApiKey(request.params.orgId, request.params.keyId);
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
    return toOrganizationJson(await organizations.setPlan(request.params.orgId, request.body.plan, request.body.monthlyQuota));
  });

  app.put('/organizations/:orgId/add-ons', {
    schema: {
      tags, security, summary: 'Grant or withdraw add-ons (ENTERPRISE includes both)',
      params: orgParams,
      body: z.object({ userJourney: z.boolean().optional(), revenueAnalytics: z.boolean().optional() }),
      response: { 200: organizationSchema, ...errors },
    },
  }, async (request) => {
    return toOrganizationJson(await organizations.setAddOns(request.params.orgId, request.body));
  });

  app.put('/organizations/:orgId/ip-allowlist', {
    schema: {
      tags, security, summary: 'Replace the Service API IP allow-list; an empty list allows all',
      params: orgParams,
      body: ipAllowlistBody,
      response: { 200: z.object({ ips: z.array(z.string()) }), ...errors },
    },
  }, async (request) => {
    return { ips: await organizations.setIpAllowlist(request.params.orgId, request.body.ips) };
  });
};
