// The app-install statistics routes of the Service API, answering 501 until install funnel events
// flow (deep-link issue). They
// still authenticate and check that the resource is the caller's, so clients see the final
// 401/404 behaviour today.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, notFound } from '../../shared/errors.js';
import type { AppDeps } from '../deps.js';
import { commonErrorResponses, errorBodySchema, idParams } from '../schemas/common.js';

export const statisticsPendingRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const exists = {
    urls: (org: number, id: number) => deps.repos.shortUrls.get(org, id),
    campaigns: (org: number, id: number) => deps.repos.campaigns.get(org, id),
    'mobile-apps': (org: number, id: number) => deps.repos.mobileApps.get(org, id),
  } as const;
  const routes = [
    ['urls', 'app-install-stats'],
    ['campaigns', 'app-install-stats'],
    ['mobile-apps', 'install-stats'],
  ] as const;
  for (const [resource, stats] of routes) {
    app.get(`/${resource}/:id/${stats}`, {
      schema: {
        tags: ['service: statistics'], security: [{ apiKey: [] }], summary: `Statistics (${resource}/${stats})`,
        params: idParams, response: { ...commonErrorResponses, 501: errorBodySchema },
      },
    }, async (request) => {
      if (!(await exists[resource](request.serviceAuth!.organization.id, request.params.id))) {
        throw notFound('RESOURCE_NOT_FOUND', `${resource} ${request.params.id} does not exist`);
      }
      throw new AppError(501, 'NOT_IMPLEMENTED', 'statistics are not available yet');
    });
  }
};
