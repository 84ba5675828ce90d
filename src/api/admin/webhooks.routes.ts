// Operator routes for an organization's webhook endpoint: set it and read it back (never the
// secret). The rules (URL safety, sealed secret, rotation) are the webhooks service's.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_KEEP_PREVIOUS_HOURS, WEBHOOK_CATEGORIES, type WebhookEndpoint, type WebhooksService } from '../../core/webhooks/webhooks-service.js';
import { errorBodySchema, idSchema } from '../schemas/common.js';

/** The delivery format and event catalogue, for /docs (README "Webhooks" has the examples). */
const WEBHOOKS_DOC = `Deliveries are POSTs with Content-Type application/json and the body
{id, type, category, occurredAt, organizationId, data}; headers X-Webhook-Id (= id, stable across retries),
X-Webhook-Timestamp (Unix seconds), User-Agent Signpost-Webhooks/1.0 and X-Signature-256:
sha256=<hex HMAC-SHA256(secret, raw body)>; during a rotation both signatures, comma-separated, the new first.
2xx within 10 s is success; otherwise retried with exponential back-off and jitter for 24 hours.

| type | category | emitted when |
|---|---|---|
| click.url | click | a person follows a short link: urlId, shortCode, host, referrerHost, country, deviceType, os, browser, utm* |
| click.campaign | click | a person follows a campaign link: campaignId, alias, cid, tracker, and the same click fields |
| campaign.created / updated / deleted | campaign | a Service API campaign create, update or delete: campaign {id, name, alias} |
| funnel.stage | funnel | a mobile or web funnel stage: funnel, sessionId, appId, platform, urlId, campaignId, externalUserId, stage, goal fields |
| goal.completed | goal | a GOAL_COMPLETED stage: the same without stage; goalType, goalValue, currency, transactionId |
| session.started | session | a user-journey session starts: sessionId, appId, platform, urlId, campaignId, externalUserId, utm*, referrerHost |
| session.transition | session | a session moves between platforms: sessionId, appId, fromPlatform, toPlatform, targetSessionId, urlId, campaignId, externalUserId |
| webhook.test | test | POST …/webhook/test |

Payloads carry ids, never IP addresses, user agents, phones or emails.`;

const webhookSchema = z
  .object({
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_CATEGORIES)),
    enabled: z.boolean(),
    secretRotation: z.boolean().describe('true while the previous secret is still signed with'),
    previousSecretValidUntil: z.string().nullable().describe('end of the rotation: until then both signatures are sent'),
    consecutiveFailures: z.number().int().describe('failed attempts in a row; a success resets it'),
    disabledAt: z.string().nullable(),
    disabledReason: z.string().nullable().describe('why the endpoint is disabled (by the operator, or after repeated failures)'),
    updatedAt: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });

const toJson = (e: WebhookEndpoint): z.infer<typeof webhookSchema> => ({
  url: e.url,
  events: e.events,
  enabled: e.enabled,
  secretRotation: e.rotating,
  previousSecretValidUntil: e.previousSecretValidUntil?.toISOString() ?? null,
  consecutiveFailures: e.consecutiveFailures,
  disabledAt: e.disabledAt?.toISOString() ?? null,
  disabledReason: e.disabledReason,
  updatedAt: e.updatedAt.toISOString(),
});

export const adminWebhookRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  const tags = ['operator'];
  const security = [{ adminToken: [] }];
  const params = z.object({ orgId: idSchema });

  app.put('/organizations/:orgId/webhook', {
    schema: {
      tags, security, summary: 'Set the webhook endpoint, secret, categories and state',
      description: WEBHOOKS_DOC,
      params,
      body: z.object({
        url: z.string().url().max(2000),
        secret: z.string().min(16, 'must be at least 16 characters').max(256).optional()
          .describe('required the first time; left out, the current secret stays'),
        events: z.array(z.enum(WEBHOOK_CATEGORIES)).min(1).optional().describe('categories; all when left out'),
        enabled: z.boolean().optional().describe('default true; enabling again clears the failure streak'),
        keepPreviousSecretHours: z.number().int().min(0).max(720).optional()
          .describe(`after a secret change, how long the previous secret is still signed with (default ${DEFAULT_KEEP_PREVIOUS_HOURS}; 0 drops it at once); without a change, moves the end of the current rotation`),
      }),
      response: { 200: webhookSchema, 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema },
    },
  }, async (request) => toJson(await webhooks.setEndpoint(request.params.orgId, request.body)));

  app.get('/organizations/:orgId/webhook', {
    schema: {
      tags, security, summary: 'Read the webhook endpoint (without its secret)',
      params,
      response: { 200: webhookSchema, 401: errorBodySchema, 404: errorBodySchema },
    },
  }, async (request) => toJson(await webhooks.getEndpoint(request.params.orgId)));
};
