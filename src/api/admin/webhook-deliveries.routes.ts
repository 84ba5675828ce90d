// Operator routes for the webhook delivery log: the deliveries of an organization's endpoint (paged,
// newest first), one delivery with every attempt, redelivery on request, and a test event.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Delivery, WebhooksService } from '../../core/webhooks/webhooks-service.js';
import { errorBodySchema, idSchema } from '../schemas/common.js';
import { pagedResponse, pageQuery, toPaged } from '../schemas/paging.js';

const deliverySchema = z
  .object({
    id: z.number().int(),
    eventId: z.string().describe('the X-Webhook-Id header and the body id; the same on every retry'),
    eventType: z.string(),
    state: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.number().int(),
    lastStatus: z.number().int().nullable().describe('HTTP status of the last attempt; null when no answer came'),
    lastError: z.string().nullable(),
    lastLatencyMs: z.number().int().nullable(),
    nextAttemptAt: z.string().nullable().describe('when the next attempt is due (pending only)'),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

const attemptSchema = z
  .object({
    attempt: z.number().int(),
    startedAt: z.string(),
    url: z.string(),
    status: z.number().int().nullable(),
    error: z.string().nullable(),
    latencyMs: z.number().int(),
    responseBody: z.string().nullable().describe('the first 4 KB of the answer'),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

const deliveryDetailSchema = deliverySchema
  .extend({
    payload: z.record(z.string(), z.unknown()).describe('the body as sent'),
    attemptLog: z.array(attemptSchema),
  })
  .meta({ id: 'WebhookDeliveryDetail' });

const toJson = (d: Delivery): z.infer<typeof deliverySchema> => ({
  id: d.id,
  eventId: d.eventId,
  eventType: d.eventType,
  state: d.state,
  attempts: d.attempts,
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  lastLatencyMs: d.lastLatencyMs,
  nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
  createdAt: d.createdAt.toISOString(),
  completedAt: d.completedAt?.toISOString() ?? null,
});

export const adminWebhookDeliveryRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  const tags = ['operator'];
  const security = [{ adminToken: [] }];
  const orgParams = z.object({ orgId: idSchema });
  const deliveryParams = z.object({ orgId: idSchema, id: idSchema });

  app.get('/organizations/:orgId/webhook/deliveries', {
    schema: {
      tags, security, summary: 'The webhook delivery log, newest first',
      params: orgParams,
      querystring: z.object({ ...pageQuery, state: z.enum(['pending', 'succeeded', 'failed']).optional() }),
      response: { 200: pagedResponse(deliverySchema, 'WebhookDeliveryPage'), 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
    },
  }, async (request) => {
    const { page, size, state } = request.query;
    const { items, total } = await webhooks.listDeliveries(request.params.orgId, { state }, { page, size });
    return toPaged(items.map(toJson), total, { page, size });
  });

  app.get('/organizations/:orgId/webhook/deliveries/:id', {
    schema: {
      tags, security, summary: 'One webhook delivery with every attempt',
      params: deliveryParams,
      response: { 200: deliveryDetailSchema, 401: errorBodySchema, 404: errorBodySchema },
    },
  }, async (request) => {
    const d = await webhooks.getDelivery(request.params.orgId, request.params.id);
    return {
      ...toJson(d),
      payload: JSON.parse(d.payload) as Record<string, unknown>,
      attemptLog: d.attemptLog.map((a) => ({ ...a, startedAt: a.startedAt.toISOString() })),
    };
  });

  app.post('/organizations/:orgId/webhook/deliveries/:id/redeliver', {
    schema: {
      tags, security, summary: 'Send a delivery again now (same event id and body, a fresh retry window)',
      params: deliveryParams,
      response: { 202: deliverySchema, 401: errorBodySchema, 404: errorBodySchema },
    },
  }, async (request, reply) => {
    const d = await webhooks.redeliver(request.params.orgId, request.params.id);
    return reply.code(202).send(toJson(d));
  });

  app.post('/organizations/:orgId/webhook/test', {
    schema: {
      tags, security, summary: 'Enqueue a webhook.test event to the endpoint',
      params: orgParams,
      response: {
        202: z.object({ deliveryId: z.number().int(), eventId: z.string() }).meta({ id: 'WebhookTestQueued' }),
        401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema,
      },
    },
  }, async (request, reply) => {
    return reply.code(202).send(await webhooks.sendTest(request.params.orgId));
  });
};
