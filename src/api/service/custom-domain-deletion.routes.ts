// A custom domain's deletion, as its organization asks for it: the request sets deletionRequested
// (the domain keeps serving) until the operator completes it (DELETE /api/admin/v1/custom-domains/{id});
// withdrawn before that, the domain simply stays. The Service API and the console share these routes.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DomainsService } from '../../core/domains/domains.service.js';
import { customDomainSchema, toCustomDomainJson } from '../schemas/custom-domain.js';
import { answerById } from './by-id.routes.js';

export const customDomainDeletionRoutes: FastifyPluginAsyncZod<{
  domains: DomainsService;
  tags: string[];
  security?: Record<string, string[]>[];
}> = async (app, { domains, tags, security }) => {
  const path = '/custom-domains/:id/deletion-request';
  answerById(
    app,
    'post',
    path,
    {
      tags,
      security,
      summary: 'Ask for the domain to be deleted (extension)',
      description:
        'Sets deletionRequested and deletionRequestedAt (a repeat keeps the first time). The domain keeps serving its links until the operator completes the deletion, which needs it to have no links left.',
      response: customDomainSchema,
    },
    async (caller, id) => toCustomDomainJson(await domains.requestDeletion(caller, id)),
  );

  answerById(
    app,
    'delete',
    path,
    {
      tags,
      security,
      summary: 'Withdraw a deletion request the operator has not completed (extension)',
      response: customDomainSchema,
    },
    async (caller, id) => toCustomDomainJson(await domains.withdrawDeletionRequest(caller, id)),
  );
};
