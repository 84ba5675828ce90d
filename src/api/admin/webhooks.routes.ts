// Operator routes for an organization's webhook endpoint: set it (URL checked for safety, secret
// sealed, categories, enabled, secret rotation) and read it back (never the secret). A changed
// secret keeps the previous one valid for keepPreviousSecretHours (default 24): during that time
// every delivery carries both signatures, so the receiver can switch over without losing events.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WEBHOOK_CATEGORIES, type WebhookEndpoint } from '../../oltp/webhook-endpoints.repo.js';
import { invalid, notFound } from '../../shared/errors.js';
import { secretsEqual } from '../../shared/secrets.js';
import { validateWebhookUrl } from '../../shared/webhook-url.js';
import type { AppDeps } from '../deps.js';
import { errorBodySchema, idSchema } from '../schemas/common.js';
import { found } from './found-organization.js';

const DEFAULT_KEEP_PREVIOUS_HOURS = 24;

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

export const adminWebhookRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
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
  }, async (request) => {
    const { orgId } = request.params;
    const b = request.body;
    found(await deps.repos.organizations.get(orgId), orgId);
    const checked = await validateWebhookUrl(b.url, { allowInsecure: deps.config.webhookAllowInsecure, resolve: deps.webhooks.resolve });
    if (!checked.ok) throw invalid(checked.code, checked.message, { field: 'url' });
    const currentSealed = await deps.repos.webhookEndpoints.currentSecretSealed(orgId);
    const current = currentSealed === undefined ? undefined : deps.secretBox.open(currentSealed);
    const secret = b.secret ?? current;
    if (secret === undefined) throw invalid('WEBHOOK_SECRET_REQUIRED', 'secret is required for a new endpoint', { field: 'secret' });
    const secretChanged = current !== undefined && !secretsEqual(current, secret);
    const keepHours = secretChanged ? (b.keepPreviousSecretHours ?? DEFAULT_KEEP_PREVIOUS_HOURS) : b.keepPreviousSecretHours;
    const endpoint = await deps.repos.webhookEndpoints.upsert({
      organizationId: orgId,
      url: checked.url.toString(),
      secretSealed: deps.secretBox.seal(secret),
      secretChanged,
      events: [...new Set(b.events ?? WEBHOOK_CATEGORIES)],
      enabled: b.enabled ?? true,
      keepPreviousSecretMs: keepHours === undefined ? undefined : keepHours * 3_600_000,
    });
    deps.webhooks.endpointChanged();
    // Deliveries that waited for the endpoint to come back are due now.
    if (endpoint.enabled) deps.webhooks.nudge();
    return toJson(endpoint);
  });

  app.get('/organizations/:orgId/webhook', {
    schema: {
      tags, security, summary: 'Read the webhook endpoint (without its secret)',
      params,
      response: { 200: webhookSchema, 401: errorBodySchema, 404: errorBodySchema },
    },
  }, async (request) => {
    const { orgId } = request.params;
    found(await deps.repos.organizations.get(orgId), orgId);
    const endpoint = await deps.repos.webhookEndpoints.get(orgId);
    if (!endpoint) throw notFound('WEBHOOK_NOT_CONFIGURED', `organization ${orgId} has no webhook endpoint`);
    return toJson(endpoint);
  });
};
