// Mobile SDK: the app's organization's custom domains (/api/v1/sdk/mobile/custom-domains): the
// same records and list form as the Service API, plus verify, which asks DNS again at once.
// X-App-ID and X-Mobile-App-API-Key on every call (401), one per-app rate limit (429); another
// organization's domain is simply not found.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DomainsService } from '../../core/domains/domains.service.js';
import type { AppDeps } from '../deps.js';
import { commonErrorResponses, idParams } from '../schemas/common.js';
import { customDomainListQuery, customDomainPageSchema, customDomainSchema, toCustomDomainJson } from '../schemas/custom-domain.js';
import { toSpringPage } from '../schemas/paging.js';
import { callerOf } from '../caller.js';
import { requireMobileApp } from './mobile-sdk-auth.js';

export const mobileCustomDomainRoutes: FastifyPluginAsyncZod<{ domains: DomainsService; sdk: AppDeps['sdk'] }> = async (app, { domains, sdk }) => {
  const tags = ['mobile SDK: custom domains'];
  // Before validation: a caller without credentials hears 401, whatever else is wrong.
  requireMobileApp(app, sdk);

  app.get('/custom-domains', {
    schema: {
      tags, summary: "List the app's organization's custom domains",
      querystring: customDomainListQuery,
      response: { 200: customDomainPageSchema, ...commonErrorResponses },
    },
  }, async (request) => {
    const { items, total } = await domains.list(callerOf(request), request.query);
    return toSpringPage(items.map(toCustomDomainJson), total, request.query);
  });

  app.get('/custom-domains/verified', {
    schema: {
      tags, summary: 'Every VERIFIED or ACTIVE domain of the organization (plain array)',
      response: { 200: z.array(customDomainSchema), ...commonErrorResponses },
    },
  }, async (request) => (await domains.listUsable(callerOf(request))).map(toCustomDomainJson));

  app.get('/custom-domains/:id', {
    schema: { tags, summary: 'Read a custom domain', params: idParams, response: { 200: customDomainSchema, ...commonErrorResponses } },
  }, async (request) => toCustomDomainJson(await domains.get(callerOf(request), request.params.id)));

  app.post('/custom-domains/:id/verify', {
    schema: {
      tags,
      summary: "Check the domain's CNAME now and answer the record as it is afterwards",
      description: 'PENDING or FAILED becomes VERIFIED when the CNAME is found; a miss counts like one of the background check.',
      params: idParams,
      response: { 200: customDomainSchema, ...commonErrorResponses },
    },
  }, async (request) => toCustomDomainJson(await domains.verifyNow(callerOf(request), request.params.id)));
};
