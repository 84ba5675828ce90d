// An organization's webhook endpoint (never its secret) and its delivery log, as the operator API
// and the console show them.
import { z } from 'zod';
import {
  WEBHOOK_CATEGORIES,
  type Delivery,
  type WebhookEndpoint,
  type WebhooksService,
} from '../../core/webhooks/index.js';
import { pagedResponse } from './paging.js';

/** The delivery format and event catalogue, for /docs (README "Webhooks" has the examples). */
export const WEBHOOKS_DOC = `Deliveries are POSTs with Content-Type application/json and the body
{id, type, category, occurredAt, organizationId, data}; headers X-Webhook-Id (= id, stable across retries),
X-Webhook-Timestamp (Unix seconds), User-Agent Signpost-Webhooks/1.0 and X-Signature-256:
sha256=<hex HMAC-SHA256(secret, raw body)>; during a rotation both signatures, comma-separated, the new first.
Also the Standard Webhooks headers webhook-id (= id), webhook-timestamp (Unix seconds) and webhook-signature:
v1,<base64 HMAC-SHA256 of "id.timestamp.body">, space-separated during a rotation; the key is the base64 after
whsec_ for a whsec_ secret (the service's own), else the secret's UTF-8 bytes. Refuse a timestamp more than
5 minutes away from your clock to refuse replays.
2xx within 10 s is success; otherwise retried with exponential back-off and jitter for 24 hours.

| type | category | emitted when |
|---|---|---|
| click.url | click | a person follows a short link: urlId, shortCode, host, referrerHost, country, deviceType, os, browser, utm*, destinationUrl, route |
| click.campaign | click | a person follows a campaign link: campaignId, alias, cid, tracker, and the same click fields |
| campaign.created / updated / deleted | campaign | a Service API campaign create, update or delete: campaign {id, name, alias} |
| funnel.stage | funnel | a mobile or web funnel stage: funnel, sessionId, appId, platform, urlId, campaignId, externalUserId, stage, goal fields |
| goal.completed | goal | a GOAL_COMPLETED stage: the same without stage; goalType, goalValue, currency, transactionId, and goalText when a mobile app sent a goalValue that is not a number |
| session.started | session | a user-journey session starts: sessionId, appId, platform, urlId, campaignId, externalUserId, utm*, referrerHost |
| session.transition | session | a session moves between platforms: sessionId, appId, fromPlatform, toPlatform, targetSessionId, urlId, campaignId, externalUserId |
| webhook.test | test | POST …/webhook/test |

Payloads carry ids, never IP addresses, user agents, phones or emails.`;

export const webhookEndpointSchema = z
  .object({
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_CATEGORIES)),
    enabled: z.boolean(),
    secretRotation: z.boolean().describe('true while the previous secret is still signed with'),
    previousSecretValidUntil: z
      .string()
      .nullable()
      .describe('end of the rotation: until then both signatures are sent'),
    consecutiveFailures: z.number().int().describe('failed attempts in a row; a success resets it'),
    disabledAt: z.string().nullable(),
    disabledReason: z
      .string()
      .nullable()
      .describe(
        'why the endpoint is disabled (turned off in the settings by the operator or a member, or after repeated failures)',
      ),
    updatedAt: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });

/** The endpoint as a member or a Service API key reads it: null when none is set. */
export const webhookSettingsSchema = z.object({ endpoint: webhookEndpointSchema.nullable() });

/** Setting the endpoint where the service makes the signing secret (the console, the Service API). */
export const webhookSettingsBodySchema = z.object({
  url: z.string().url().max(2000).describe('https://; checked for safety'),
  events: z
    .array(z.enum(WEBHOOK_CATEGORIES))
    .min(1)
    .max(WEBHOOK_CATEGORIES.length)
    .describe('the categories sent (webhook.test always is)'),
  enabled: z.boolean().default(true).describe('default true; enabling again clears the failure streak'),
});

const secretSchema = z.string().describe('the signing secret (whsec_…), shown this once');

export const savedWebhookSchema = z
  .object({
    endpoint: webhookEndpointSchema,
    secret: secretSchema
      .nullable()
      .describe('the new signing secret on the first save, shown this once; null afterwards'),
  })
  .meta({ id: 'SavedWebhook' });

export const rotatedWebhookSchema = z
  .object({ endpoint: webhookEndpointSchema, secret: secretSchema })
  .meta({ id: 'RotatedWebhook' });

export const toWebhookEndpointJson = (e: WebhookEndpoint): z.infer<typeof webhookEndpointSchema> => ({
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

export const deliveryStateSchema = z.enum(['pending', 'succeeded', 'failed']);

export const webhookDeliverySchema = z
  .object({
    id: z.number().int(),
    eventId: z.string().describe('the X-Webhook-Id header and the body id; the same on every retry'),
    eventType: z.string(),
    state: deliveryStateSchema,
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

export const webhookDeliveryDetailSchema = webhookDeliverySchema
  .extend({
    payload: z.record(z.string(), z.unknown()).describe('the body as sent'),
    attemptLog: z.array(attemptSchema),
  })
  .meta({ id: 'WebhookDeliveryDetail' });

export const webhookDeliveryPageSchema = pagedResponse(webhookDeliverySchema, 'WebhookDeliveryPage');

export const webhookTestQueuedSchema = z
  .object({ deliveryId: z.number().int(), eventId: z.string() })
  .meta({ id: 'WebhookTestQueued' });

export const toWebhookDeliveryJson = (d: Delivery): z.infer<typeof webhookDeliverySchema> => ({
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

type DeliveryDetail = Awaited<ReturnType<WebhooksService['getDelivery']>>;

export const toWebhookDeliveryDetailJson = (d: DeliveryDetail): z.infer<typeof webhookDeliveryDetailSchema> => ({
  ...toWebhookDeliveryJson(d),
  payload: JSON.parse(d.payload) as Record<string, unknown>,
  attemptLog: d.attemptLog.map((a) => ({ ...a, startedAt: a.startedAt.toISOString() })),
});
