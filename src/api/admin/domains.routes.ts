// Operator routes for custom domains: registration (PENDING, with the CNAME to create) and the
// manual status override (for example ACTIVE once the load balancer is connected).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DomainsService } from '../../core/domains/domains.service.js';
import { errorBodySchema, idSchema } from '../schemas/common.js';
import { customDomainSchema, domainNameSchema, domainStatusSchema, toCustomDomainJson } from '../schemas/custom-domain.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const security = [{ adminToken: [] }];
const tags = ['operator'];

export const adminDomainRoutes: FastifyPluginAsyncZod<{ domains: DomainsService }> = async (app, { domains }) => {
  app.post('/organizations/:orgId/custom-domains', {
    schema: {
      tags, security, summary: 'Register a custom domain (status PENDING)',
      params: z.object({ orgId: idSchema }),
      body: z.object({ domainName: domainNameSchema }),
      response: { 201: customDomainSchema, ...errors },
    },
  }, async (request, reply) => {
    const created = await domains.register(request.params.orgId, request.body.domainName);
    return reply.code(201).send(toCustomDomainJson(created));
  });

  app.put('/custom-domains/:id/status', {
    schema: {
      tags, security, summary: "Override a custom domain's verification status",
      params: z.object({ id: idSchema }),
      body: z.object({ status: domainStatusSchema }),
      response: { 200: customDomainSchema, ...errors },
    },
  }, async (request) => toCustomDomainJson(await domains.setStatus(request.params.id, request.body.status)));
};
