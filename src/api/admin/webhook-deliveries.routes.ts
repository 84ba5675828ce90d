// Operator routes for the webhook delivery log and a test event (the routes the console serves too),
// for the organization the path names.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebhooksService } from '../../core/webhooks/index.js';
import { errorBodySchema } from '../schemas/common.js';
import { registerDeliveryLogRoutes } from '../webhook-delivery-log.routes.js';
import { security, tags } from './operator-doc.js';

export const adminWebhookDeliveryRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService }> = async (
  app,
  { webhooks },
) => {
  const notFound = { 401: errorBodySchema, 404: errorBodySchema };

  registerDeliveryLogRoutes(
    app,
    {
      tags,
      security,
      errors: {
        list: { 400: errorBodySchema, ...notFound },
        one: notFound,
        test: { ...notFound, 409: errorBodySchema },
      },
    },
    {
      list: (_request, orgId, filter, page) => webhooks.listDeliveries(orgId, filter, page),
      get: (_request, orgId, id) => webhooks.getDelivery(orgId, id),
      redeliver: (_request, orgId, id) => webhooks.redeliver(orgId, id),
      sendTest: (_request, orgId) => webhooks.sendTest(orgId),
    },
  );
};
