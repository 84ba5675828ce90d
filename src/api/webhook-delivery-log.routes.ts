// The webhook delivery log as the operator API, the console and the Service API serve it: an
// organization's deliveries (paged, newest first), one delivery with its body and every attempt,
// redelivery (same event id and body, a fresh retry window), and a test event. Each context says
// how a request reaches the organization's log (the operator names the organization; a member acts
// in it, the core checks webhooks.manage; a Service API key acts for its own organization, which
// the path does not name) and how its routes are documented.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebhooksService } from '../core/webhooks/index.js';
import { callerOf } from './request-caller.js';
import { idSchema } from './schemas/common.js';
import { type Page, pageQuery, toPaged } from './schemas/paging.js';
import {
  deliveryStateSchema,
  toWebhookDeliveryDetailJson,
  toWebhookDeliveryJson,
  webhookDeliveryDetailSchema,
  webhookDeliveryPageSchema,
  webhookDeliverySchema,
  webhookTestQueuedSchema,
} from './schemas/webhook.js';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];
type DeliveryState = z.infer<typeof deliveryStateSchema>;

/**
 * The log of the organization a request names (/organizations/:orgId, or the key's own for the
 * Service API), as the context reaches it.
 */
export interface DeliveryLogAccess {
  list(
    request: FastifyRequest,
    orgId: number,
    filter: { state?: DeliveryState },
    page: Page,
  ): ReturnType<WebhooksService['listDeliveries']>;
  get(request: FastifyRequest, orgId: number, id: number): ReturnType<WebhooksService['getDelivery']>;
  redeliver(request: FastifyRequest, orgId: number, id: number): ReturnType<WebhooksService['redeliver']>;
  sendTest(request: FastifyRequest, orgId: number): ReturnType<WebhooksService['sendTest']>;
}

export interface DeliveryLogDocs {
  tags: string[];
  security: Record<string, string[]>[];
  /** The error answers of the list, of the routes for one delivery, and of the test event. */
  errors: { list: Record<number, z.ZodType>; one: Record<number, z.ZodType>; test: Record<number, z.ZodType> };
  /** `/webhook` for the caller's own organization; `/organizations/:orgId/webhook` when left out. */
  ownOrganization?: boolean;
}

export function registerDeliveryLogRoutes(app: ZodApp, docs: DeliveryLogDocs, log: DeliveryLogAccess): void {
  const { tags, security, errors } = docs;
  // The Service API's key names its organization; elsewhere the path does.
  const base = docs.ownOrganization ? '/webhook' : '/organizations/:orgId/webhook';
  const orgParams = docs.ownOrganization ? z.object({}) : z.object({ orgId: idSchema });
  const deliveryParams = docs.ownOrganization
    ? z.object({ id: idSchema })
    : z.object({ orgId: idSchema, id: idSchema });
  const orgIdOf = (request: FastifyRequest) =>
    (request.params as { orgId?: number }).orgId ?? callerOf(request).organization.id;

  app.get(
    `${base}/deliveries`,
    {
      schema: {
        tags,
        security,
        summary: 'The webhook delivery log, newest first',
        params: orgParams,
        querystring: z.object({ ...pageQuery, state: deliveryStateSchema.optional() }),
        response: { 200: webhookDeliveryPageSchema, ...errors.list },
      },
    },
    async (request) => {
      const { page, size, state } = request.query;
      const { items, total } = await log.list(request, orgIdOf(request), { state }, { page, size });
      return toPaged(items.map(toWebhookDeliveryJson), total, { page, size });
    },
  );

  app.get(
    `${base}/deliveries/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'One webhook delivery with its body and every attempt',
        params: deliveryParams,
        response: { 200: webhookDeliveryDetailSchema, ...errors.one },
      },
    },
    async (request) => toWebhookDeliveryDetailJson(await log.get(request, orgIdOf(request), request.params.id)),
  );

  app.post(
    `${base}/deliveries/:id/redeliver`,
    {
      schema: {
        tags,
        security,
        summary: 'Send a delivery again now (same event id and body, a fresh retry window)',
        params: deliveryParams,
        response: { 202: webhookDeliverySchema, ...errors.one },
      },
    },
    async (request, reply) =>
      reply.code(202).send(toWebhookDeliveryJson(await log.redeliver(request, orgIdOf(request), request.params.id))),
  );

  app.post(
    `${base}/test`,
    {
      schema: {
        tags,
        security,
        summary: 'Enqueue a webhook.test event to the endpoint',
        params: orgParams,
        response: { 202: webhookTestQueuedSchema, ...errors.test },
      },
    },
    async (request, reply) => reply.code(202).send(await log.sendTest(request, orgIdOf(request))),
  );
}
