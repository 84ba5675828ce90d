// Service API: custom domains, read-only (/api/v1/service/custom-domains). Domains are registered
// by the operator and verified by DNS; links may use the VERIFIED and ACTIVE ones.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../shared/errors.js';
import { SORT_COLUMNS, type DomainSortField } from '../../oltp/custom-domains.repo.js';
import type { AppDeps } from '../deps.js';
import { commonErrorResponses, idParams } from '../schemas/common.js';
import { customDomainSchema, domainStatusSchema, toCustomDomainJson } from '../schemas/custom-domain.js';
import { pageQuery, springPageResponse, toSpringPage } from '../schemas/paging.js';

/** Spring-style `field,direction`, the field from a closed list. */
const sortSchema = z
  .string()
  .default('createdAt,desc')
  .transform((value, ctx) => {
    const [field, direction = 'asc', extra] = value.split(',').map((s) => s.trim());
    // Own keys only: `in` would also accept inherited names such as constructor or toString.
    if (extra !== undefined || !field || !Object.hasOwn(SORT_COLUMNS, field) || !['asc', 'desc'].includes(direction.toLowerCase())) {
      ctx.addIssue({ code: 'custom', message: `must be field,direction with field one of ${Object.keys(SORT_COLUMNS).join(', ')} and direction asc or desc` });
      return z.NEVER;
    }
    return { field: field as DomainSortField, direction: direction.toLowerCase() as 'asc' | 'desc' };
  });

export const customDomainRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const { customDomains } = deps.repos;
  const tags = ['service: custom domains'];
  const security = [{ apiKey: [] }];

  app.get('/custom-domains', {
    schema: {
      tags, security, summary: 'List custom domains',
      querystring: z.object({
        ...pageQuery,
        search: z.string().max(100).optional().describe('part of the domain name'),
        status: domainStatusSchema.optional(),
        sort: sortSchema,
      }),
      response: { 200: springPageResponse(customDomainSchema, 'CustomDomainPage'), ...commonErrorResponses },
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
