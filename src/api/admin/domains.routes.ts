// Operator routes for custom domains: registration (PENDING, with the CNAME to create), the
// manual status override (for example ACTIVE once the load balancer is connected), where the
// domain's bare root sends visitors, the list across organizations (those whose owners asked for
// deletion, say), one record, and the deletion itself.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CustomDomain, DomainsService } from '../../core/domains/domains.service.js';
import type { Config } from '../../shared/config.js';
import { idParams, idSchema } from '../schemas/common.js';
import {
  customDomainListQuery,
  customDomainSchema,
  domainNameSchema,
  domainStatusSchema,
  toCustomDomainJson,
} from '../schemas/custom-domain.js';
import { linkTargetSchema } from '../schemas/link.js';
import { queryBoolean } from '../schemas/paging.js';
import {
  operatorAnswer,
  operatorConflictErrors as errors,
  operatorDelete,
  operatorPage,
  orgParams,
} from './operator-doc.js';

/** The record as the operator sees it: the customer's, plus whose it is. */
const operatorDomainSchema = customDomainSchema
  .extend({ organizationId: z.number().int() })
  .meta({ id: 'OperatorCustomDomain' });
const toOperatorJson = (d: CustomDomain) => ({ ...toCustomDomainJson(d), organizationId: d.organizationId });

export const adminDomainRoutes: FastifyPluginAsyncZod<{
  domains: DomainsService;
  config: Pick<Config, 'security'>;
}> = async (app, { domains, config }) => {
  operatorAnswer(
    app,
    'POST',
    '/organizations/:orgId/custom-domains',
    {
      summary: 'Register a custom domain (status PENDING)',
      params: orgParams,
      body: z.object({ domainName: domainNameSchema }),
      status: 201,
      response: customDomainSchema,
      errors,
    },
    async ({ orgId }, { domainName }) => toCustomDomainJson(await domains.register(orgId, domainName)),
  );

  operatorPage(
    app,
    '/custom-domains',
    {
      summary: 'List custom domains of every organization, newest first unless sorted otherwise',
      querystring: customDomainListQuery.extend({
        organizationId: idSchema.optional().describe("only this organization's"),
        deletionRequested: queryBoolean.optional().describe('true: only those whose owners asked for deletion'),
      }),
      item: operatorDomainSchema,
      pageId: 'OperatorCustomDomainPage',
      errors,
    },
    domains.listAll,
    toOperatorJson,
  );

  operatorAnswer(
    app,
    'GET',
    '/custom-domains/:id',
    { summary: "Read any organization's custom domain", params: idParams, response: operatorDomainSchema, errors },
    async ({ id }) => toOperatorJson(await domains.getAny(id)),
  );

  operatorDelete(
    app,
    '/custom-domains/:id',
    {
      summary:
        "Delete a custom domain (completing its owner's deletion request); 409 DOMAIN_IN_USE while links live on it",
      params: idParams,
      errors,
    },
    ({ id }) => domains.delete(id),
  );

  operatorAnswer(
    app,
    'PUT',
    '/custom-domains/:id/status',
    {
      summary: "Override a custom domain's verification status",
      params: idParams,
      body: z.object({ status: domainStatusSchema }),
      response: customDomainSchema,
      errors,
    },
    async ({ id }, { status }) => toCustomDomainJson(await domains.setStatus(id, status)),
  );

  operatorAnswer(
    app,
    'PUT',
    '/custom-domains/:id/fallback-url',
    {
      summary: "Where the custom domain's bare root sends visitors (null: the 404 page)",
      params: idParams,
      body: z.object({
        fallbackUrl: linkTargetSchema(config.security).nullable(),
      }),
      response: customDomainSchema.extend({ fallbackUrl: z.string().nullable() }),
      errors,
    },
    async ({ id }, { fallbackUrl }) => {
      const updated = await domains.setFallbackUrl(id, fallbackUrl);
      return { ...toCustomDomainJson(updated), fallbackUrl: updated.fallbackUrl };
    },
  );
};
