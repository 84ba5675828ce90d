// Operator routes for the webhook delivery log: the deliveries of an organization's endpoint (paged,
// newest first), one delivery with every attempt, redelivery on request, and a test event.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebhooksService } from '../../core/webhooks/webhooks-service.js';
import { errorBodySchema, idSchema } from '../schemas/common.js';
import { pageQuery, toPaged } from '../schemas/paging.js';
import {
  deliveryStateSchema,
  toWebhookDeliveryDetailJson,
  toWebhookDeliveryJson,
  webhookDeliveryDetailSchema,
  webhookDeliveryPageSchema,
  webhookDeliverySchema,
  webhookTestQueuedSchema,
} from '../schemas/webhook.js';

export const adminWebhookDeliveryRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService }> = async (
  app,
  { webhooks },
) => {
  const tags = ['operator'];
  const security = [{ adminToken: [] }];
  const orgParams = z.object({ orgId: idSchema });
  const deliveryParams = z.object({ orgId: idSchema, id: idSchema });

  app.get(
    '/organizations/:orgId/webhook/deliveries',
    {
      schema: {
        tags,
        security,
        summary: 'The webhook delivery log, newest first',
        params: orgParams,
        querystring: z.object({ ...pageQuery, state: deliveryStateSchema.optional() }),
        response: { 200: webhookDeliveryPageSchema, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const { page, size, state } = request.query;
      const { items, total } = await webhooks.listDeliveries(request.params.orgId, { state }, { page, size });
      return toPaged(items.map(toWebhookDeliveryJson), total, { page, size });
    },
  );

  app.get(
    '/organizations/:orgId/webhook/deliveries/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One webhook delivery with every attempt',
        params: deliveryParams,
        response: { 200: webhookDeliveryDetailSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      return toWebhookDeliveryDetailJson(await webhooks.getDelivery(request.params.orgId, request.params.id));
    },
  );

  app.post(
    '/organizations/:orgId/webhook/deliveries/:id/redeliver',
    {
      schema: {
        tags,
        security,
        summary: 'Send a delivery again now (same event id and body, a fresh retry window)',
        params: deliveryParams,
        response: { 202: webhookDeliverySchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const d = await webhooks.redeliver(request.params.orgId, request.params.id);
      return reply.code(202).send(toWebhookDeliveryJson(d));
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
