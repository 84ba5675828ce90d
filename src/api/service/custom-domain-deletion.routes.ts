// A custom domain's deletion, as its organization asks for it: the request sets deletionRequested
// (the domain keeps serving) until the operator completes it (DELETE /api/admin/v1/custom-domains/{id});
// withdrawn before that, the domain simply stays. The Service API and the console share these routes.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DomainsService } from '../../core/domains/domains.service.js';
import { callerOf } from '../request-caller.js';
import { commonErrorResponses, idParams } from '../schemas/common.js';
import { customDomainSchema, toCustomDomainJson } from '../schemas/custom-domain.js';

export const customDomainDeletionRoutes: FastifyPluginAsyncZod<{
  domains: DomainsService;
  tags: string[];
  security?: Record<string, string[]>[];
}> = async (app, { domains, tags, security }) => {
  app.post(
    '/custom-domains/:id/deletion-request',
    {
      schema: {
        tags,
        security,
        summary: 'Ask for the domain to be deleted (extension)',
        description:
          'Sets deletionRequested and deletionRequestedAt (a repeat keeps the first time). The domain keeps serving its links until the operator completes the deletion, which needs it to have no links left.',
        params: idParams,
        response: { 200: customDomainSchema, ...commonErrorResponses },
      },
    },
    async (request) => toCustomDomainJson(await domains.requestDeletion(callerOf(request), request.params.id)),
  );

  app.delete(
    '/custom-domains/:id/deletion-request',
    {
      schema: {
        tags,
        security,
        summary: 'Withdraw a deletion request the operator has not completed (extension)',
        params: idParams,
        response: { 200: customDomainSchema, ...commonErrorResponses },
      },
    },
    async (request) => toCustomDomainJson(await domains.withdrawDeletionRequest(callerOf(request), request.params.id)),
  );
};
