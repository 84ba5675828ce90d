// Operator routes for the webhook delivery log (the one the console serves too, for the organization
// the path names) and a test event.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebhooksService } from '../../core/webhooks/webhooks-service.js';
import { errorBodySchema, idSchema } from '../schemas/common.js';
import { webhookTestQueuedSchema } from '../schemas/webhook.js';
import { registerDeliveryLogRoutes } from '../webhook-delivery-log.routes.js';

export const adminWebhookDeliveryRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService }> = async (
  app,
  { webhooks },
) => {
  const tags = ['operator'];
  const security = [{ adminToken: [] }];
  const orgParams = z.object({ orgId: idSchema });
  const notFound = { 401: errorBodySchema, 404: errorBodySchema };

  registerDeliveryLogRoutes(
    app,
    { tags, security, errors: { list: { 400: errorBodySchema, ...notFound }, one: notFound } },
    {
      list: (_request, orgId, filter, page) => webhooks.listDeliveries(orgId, filter, page),
      get: (_request, orgId, id) => webhooks.getDelivery(orgId, id),
      redeliver: (_request, orgId, id) => webhooks.redeliver(orgId, id),
    },
  );

  app.post(
    '/organizations/:orgId/webhook/test',
    {
      schema: {
        tags,
        security,
        summary: 'Enqueue a webhook.test event to the endpoint',
        params: orgParams,
        response: {
          202: webhookTestQueuedSchema,
          401: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      return reply.code(202).send(await webhooks.sendTest(request.params.orgId));
    },
  );
};
