// Service API: custom domains, read-only (/api/v1/service/custom-domains). Domains are registered
// by the operator and verified by DNS; links may use the VERIFIED and ACTIVE ones.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DomainsService } from '../../core/domains/domains.service.js';
import { commonErrorResponses, idParams } from '../schemas/common.js';
import { callerOf } from '../caller.js';
import { customDomainListQuery, customDomainPageSchema, customDomainSchema, toCustomDomainJson } from '../schemas/custom-domain.js';
import { toSpringPage } from '../schemas/paging.js';

export const customDomainRoutes: FastifyPluginAsyncZod<{ domains: DomainsService }> = async (app, { domains }) => {
  const tags = ['service: custom domains'];
  const security = [{ apiKey: [] }];

  app.get('/custom-domains', {
    schema: {
      tags, security, summary: 'List custom domains',
      querystring: customDomainListQuery,
      response: { 200: customDomainPageSchema, ...commonErrorResponses },
    },
  }, async (request) => {
    const { items, total } = await domains.list(callerOf(request), request.query);
    return toSpringPage(items.map(toCustomDomainJson), total, request.query);
  });

  app.get('/custom-domains/verified', {
    schema: {
      tags, security, summary: 'Every VERIFIED or ACTIVE domain (plain array)',
      response: { 200: z.array(customDomainSchema), ...commonErrorResponses },
    },
  }, async (request) => (await domains.listUsable(callerOf(request))).map(toCustomDomainJson));

  app.get('/custom-domains/:id', {
    schema: { tags, security, summary: 'Read a custom domain', params: idParams, response: { 200: customDomainSchema, ...commonErrorResponses } },
  }, async (request) => toCustomDomainJson(await domains.get(callerOf(request), request.params.id)));
};
