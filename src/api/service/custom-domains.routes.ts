// Custom domains, read-only: the list, the usable ones and one record. The Service API serves them
// at /api/v1/service/custom-domains, the Mobile SDK API (with verify) at /api/v1/sdk/mobile/custom-domains.
// Domains are registered by the operator and verified by DNS; links may use the VERIFIED and ACTIVE ones.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DomainsService } from '../../core/domains/domains.service.js';
import { commonErrorResponses } from '../schemas/common.js';
import { callerOf } from '../request-caller.js';
import {
  customDomainListQuery,
  customDomainPageSchema,
  customDomainSchema,
  toCustomDomainJson,
} from '../schemas/custom-domain.js';
import { toSpringPage } from '../schemas/paging.js';
import { readById } from './by-id.routes.js';

interface ReadOptions {
  domains: DomainsService;
  tags: string[];
  security?: Record<string, string[]>[];
  /** Whose domains the list holds, for the summaries: "" or " of the app's organization". */
  whose: string;
}

export const customDomainRoutes: FastifyPluginAsyncZod<ReadOptions> = async (
  app,
  { domains, tags, security, whose },
) => {
  app.get(
    '/custom-domains',
    {
      schema: {
        tags,
        security,
        summary: `List the custom domains${whose}`,
        querystring: customDomainListQuery,
        response: { 200: customDomainPageSchema, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { items, total } = await domains.list(callerOf(request), request.query);
      return toSpringPage(items.map(toCustomDomainJson), total, request.query);
    },
  );

  app.get(
    '/custom-domains/verified',
    {
      schema: {
        tags,
        security,
        summary: `Every VERIFIED or ACTIVE domain${whose} (plain array)`,
        response: { 200: z.array(customDomainSchema), ...commonErrorResponses },
      },
    },
    async (request) => (await domains.listUsable(callerOf(request))).map(toCustomDomainJson),
  );

  readById(
    app,
    '/custom-domains/:id',
    { tags, security, summary: 'Read a custom domain', response: customDomainSchema },
    async (caller, id) => toCustomDomainJson(await domains.get(caller, id)),
  );
};
