// Operator routes for custom domains: registration (PENDING, with the CNAME to create) and the
// manual status override (for example ACTIVE once the load balancer is connected).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { conflict, notFound } from '../../shared/errors.js';
import type { AppDeps } from '../deps.js';
import { errorBodySchema, idSchema } from '../schemas/common.js';
import { customDomainSchema, domainNameSchema, domainStatusSchema, toCustomDomainJson } from '../schemas/custom-domain.js';
import { found } from './found-organization.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const security = [{ adminToken: [] }];
const tags = ['operator'];

export const adminDomainRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const platformHost = new URL(deps.config.publicBaseUrl).hostname.toLowerCase();

  app.post('/organizations/:orgId/custom-domains', {
    schema: {
      tags, security, summary: 'Register a custom domain (status PENDING)',
      params: z.object({ orgId: idSchema }),
      body: z.object({ domainName: domainNameSchema }),
      response: { 201: customDomainSchema, ...errors },
    },
  }, async (request, reply) => {
    const { orgId } = request.params;
    found(await deps.repos.organizations.get(orgId), orgId);
    const { domainName } = request.body;
    if (domainName === platformHost) throw conflict('DOMAIN_TAKEN', `${domainName} is the platform's own host`);
    // A subdomain of the platform host is ours to route: no DNS record for the customer to make.
    const external = !domainName.endsWith(`.${platformHost}`);
    const created = await deps.repos.customDomains.create({
      organizationId: orgId,
      domainName,
      cnameRecordName: external ? domainName : null,
      cnameRecordValue: external ? deps.config.customDomainCnameTarget : null,
    });
    if (!created) throw conflict('DOMAIN_TAKEN', `${domainName} is already registered`);
    return reply.code(201).send(toCustomDomainJson(created));
  });

  app.put('/custom-domains/:id/status', {
    schema: {
      tags, security, summary: "Override a custom domain's verification status",
      params: z.object({ id: idSchema }),
      body: z.object({ status: domainStatusSchema }),
      response: { 200: customDomainSchema, ...errors },
    },
  }, async (request) => {
    const updated = await deps.repos.customDomains.setStatus(request.params.id, request.body.status);
    if (!updated) throw notFound('CUSTOM_DOMAIN_NOT_FOUND', `custom domain ${request.params.id} does not exist`);
    return toCustomDomainJson(updated);
  });
};
