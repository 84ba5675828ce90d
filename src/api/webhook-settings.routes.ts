// An organization's webhook as its members manage it, in the console and through the Service API
// alike: the endpoint (never its secret), saving it (the signing secret shown once, on the first
// save), a new secret (shown once), and the delivery log. Each context says how a request reaches
// the organization and who acts (a member in the organization the path names; a Service API key
// for its own) and how its routes are documented; the rules are the webhooks core's.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actor } from '../core/accounts/audit-trail.js';
import type { WebhookSettings } from '../core/webhooks/webhook-settings.js';
import { idSchema } from './schemas/common.js';
import {
  rotatedWebhookSchema,
  savedWebhookSchema,
  toWebhookEndpointJson,
  webhookSettingsBodySchema,
  webhookSettingsSchema,
} from './schemas/webhook.js';
import { type DeliveryLogDocs, registerDeliveryLogRoutes } from './webhook-delivery-log.routes.js';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

export interface WebhookSettingsDocs extends DeliveryLogDocs {
  /** The error answers of the endpoint's routes. */
  settingsErrors: Record<number, z.ZodType>;
  /** What the document says about saving the endpoint. */
  saveDescription: string;
}

/** The caller and the actor the audit trail records, in the organization the request reaches. */
export type WebhookActing = (
  request: FastifyRequest,
) => Promise<{ caller: Parameters<WebhookSettings['get']>[0]; actor: Actor }>;

export function registerWebhookSettingsRoutes(
  app: ZodApp,
  docs: WebhookSettingsDocs,
  webhooks: WebhookSettings,
  acting: WebhookActing,
): void {
  const { tags, security, settingsErrors: errors } = docs;
  // The Service API's key names its organization; the console's path does.
  const base = docs.ownOrganization ? '/webhook' : '/organizations/:orgId/webhook';
  const params = docs.ownOrganization ? {} : { params: z.object({ orgId: idSchema }) };

  app.get(
    base,
    {
      schema: {
        tags,
        security,
        summary: "The organization's webhook endpoint (never its secret); null when none is set",
        ...params,
        response: { 200: webhookSettingsSchema, ...errors },
      },
    },
    async (request) => {
      const endpoint = await webhooks.get((await acting(request)).caller);
      return { endpoint: endpoint && toWebhookEndpointJson(endpoint) };
    },
  );

  app.put(
    base,
    {
      schema: {
        tags,
        security,
        summary:
          'Set the webhook endpoint: 201 with its signing secret (shown this once) the first time, then 200 with secret null',
        description: docs.saveDescription,
        ...params,
        body: webhookSettingsBodySchema,
        response: { 200: savedWebhookSchema, 201: savedWebhookSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { caller, actor } = await acting(request);
      const { endpoint, secret } = await webhooks.save(caller, actor, request.body);
      return reply.code(secret === null ? 200 : 201).send({ endpoint: toWebhookEndpointJson(endpoint), secret });
    },
  );

  app.post(
    `${base}/secret`,
    {
      schema: {
        tags,
        security,
        summary: 'A new signing secret (shown this once); the previous one is still signed with for 24 hours',
        ...params,
        response: { 200: rotatedWebhookSchema, ...errors },
      },
    },
    async (request) => {
      const { caller, actor } = await acting(request);
      const { endpoint, secret } = await webhooks.rotateSecret(caller, actor);
      return { endpoint: toWebhookEndpointJson(endpoint), secret };
    },
  );

  const callerOf = async (request: FastifyRequest) => (await acting(request)).caller;
  registerDeliveryLogRoutes(app, docs, {
    list: async (request, _orgId, filter, page) => webhooks.deliveries(await callerOf(request), filter, page),
    get: async (request, _orgId, id) => webhooks.delivery(await callerOf(request), id),
    redeliver: async (request, _orgId, id) => webhooks.redeliver(await callerOf(request), id),
    sendTest: async (request) => webhooks.sendTest(await callerOf(request)),
  });
}
