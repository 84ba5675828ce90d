// Service API: custom domains, read-only (/api/v1/service/custom-domains). Domains are registered
// by the operator and verified by DNS; links may use the VERIFIED and ACTIVE ones.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../shared/errors.js';
import type { AppDeps } from '../deps.js';
import { commonErrorResponses, idParams } from '../schemas/common.js';
import { customDomainListQuery, customDomainPageSchema, customDomainSchema, toCustomDomainJson } from '../schemas/custom-domain.js';
import { toSpringPage } from '../schemas/paging.js';

export const customDomainRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const { customDomains } = deps.repos;
  const tags = ['service: custom domains'];
  const security = [{ apiKey: [] }];

  app.get('/custom-domains', {
    schema: {
      tags, security, summary: 'List custom domains',
      querystring: customDomainListQuery,
      response: { 200: customDomainPageSchema, ...commonErrorResponses },
    },
  }, async (request) => {
    const { page, size, search, status, sort } = request.query;
    const { items, total } = await customDomains.list(request.serviceAuth!.organization.id, { search, status }, sort, { page, size });
    return toSpringPage(items.map(toCustomDomainJson), total, { page, size });
  });

  app.get('/custom-domains/verified', {
    schema: {
      tags, security, summary: 'Every VERIFIED or ACTIVE domain (plain array)',
      response: { 200: z.array(customDomainSchema), ...commonErrorResponses },
    },
  }, async (request) => (await customDomains.listUsable(request.serviceAuth!.organization.id)).map(toCustomDomainJson));

  app.get('/custom-domains/:id', {
    schema: { tags, security, summary: 'Read a custom domain', params: idParams, response: { 200: customDomainSchema, ...commonErrorResponses } },
  }, async (request) => {
    const domain = await customDomains.getForOrganization(request.serviceAuth!.organization.id, request.params.id);
    if (!domain) throw notFound('CUSTOM_DOMAIN_NOT_FOUND', `custom domain ${request.params.id} does not exist`);
    return toCustomDomainJson(domain);
  });
};
