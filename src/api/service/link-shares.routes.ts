// Shared statistics of a short URL (contract: "Filters and shared statistics"): POST makes the
// address anyone may open to see the link's statistics read-only (shown once; posting again makes
// a new one and the old stops working), DELETE ends it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LinkSharesService } from '../../core/stats/link-shares.js';
import { callerOf } from '../request-caller.js';
import { commonErrorResponses, idParams } from '../schemas/common.js';
import { sharedStatsUrl } from '../shared-stats/shared-stats-path.js';
import { deleteById } from './by-id.routes.js';
import { security } from './route-docs.js';

export const linkShareRoutes: FastifyPluginAsyncZod<{ shares: LinkSharesService; publicBaseUrl: string }> = async (
  app,
  { shares, publicBaseUrl },
) => {
  const doc = { tags: ['service: statistics'], security };

  app.post(
    '/urls/:id/share',
    {
      schema: {
        ...doc,
        summary: "Share a short URL's statistics: an address anyone may open, read-only",
        description:
          'The address is shown once: only a hash of it is kept. Sharing again makes a new address and the previous one answers 404.',
        params: idParams,
        response: {
          201: z
            .object({
              shareUrl: z
                .string()
                .describe("a page of the link's statistics that opens in a browser without signing in"),
            })
            .meta({ id: 'LinkShare' }),
          ...commonErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { token } = await shares.share(callerOf(request), request.params.id);
      return reply.code(201).send({ shareUrl: sharedStatsUrl(publicBaseUrl, token) });
    },
  );

  deleteById(
    app,
    '/urls/:id/share',
    { ...doc, summary: "Stop sharing a short URL's statistics: its shared address answers 404" },
    (caller, id) => shares.unshare(caller, id),
  );
};
