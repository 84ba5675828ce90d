// The webhook wire format receivers verify and parse: the body {id, type, category, occurredAt,
// organizationId, data} serialised once at enqueue, and its signatures, one per active secret:
// X-Signature-256 `sha256=<hex HMAC-SHA256(secret, raw body)>` (comma-separated), and the Standard
// Webhooks `webhook-signature` `v1,<base64 HMAC-SHA256 of id.timestamp.body>` (space-separated),
// which binds the delivery's id and time so a captured delivery cannot be replayed later.
import { createHash, createHmac } from 'node:crypto';

export interface WebhookEvent {
  /** UUID; also X-Webhook-Id, the same on every retry and redelivery: receivers deduplicate on it. */
  id: string;
  type: string;
  /** A subscription category (click, campaign, goal, funnel, session), or `test`. */
  category: 'click' | 'campaign' | 'goal' | 'funnel' | 'session' | 'test';
  /** ISO-8601 UTC. */
  occurredAt: string;
  organizationId: number;
  data: Record<string, unknown>;
}

export const WEBHOOK_USER_AGENT = 'Signpost-Webhooks/1.0';

export function serializeWebhookEvent(event: WebhookEvent): string {
  // Fixed key order: the documented shape, and equal events give equal bytes.
  return JSON.stringify({
    id: event.id,
    type: event.type,
    category: event.category,
    occurredAt: event.occurredAt,
    organizationId: event.organizationId,
    data: event.data,
  });
}

/** X-Signature-256: the current secret's signature first, then the previous one during a rotation. */
export function signatureHeader(secrets: string[], rawBody: string | Uint8Array): string {
  return secrets.map((secret) => `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`).join(',');
}

/**
 * The Standard Webhooks signing key of a secret: a `whsec_` secret is base64 after its prefix, as
 * every Standard Webhooks library reads it (the secrets the service makes are of this kind);
 * any other secret an operator chose is used as its UTF-8 bytes (libraries call that `raw`).
 */
function standardKey(secret: string): Buffer {
  const encoded = /^whsec_([A-Za-z0-9+/_-]+={0,2})$/.exec(secret)?.[1];
  return encoded === undefined ? Buffer.from(secret, 'utf8') : Buffer.from(encoded, 'base64');
}

/** webhook-signature: `v1,<base64>` per secret, the current one first, space-separated. */
export function standardSignatureHeader(
  secrets: string[],
  id: string,
  timestampSeconds: number,
  rawBody: string,
): string {
  return secrets
    .map(
      (secret) =>
        `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${timestampSeconds}.${rawBody}`).digest('base64')}`,
    )
    .join(' ');
}

/**
 * A second webhook event made from one internal event (goal.completed next to funnel.stage) needs
 * an id of its own that is still the same on every redelivery of the bus message: a name-based
 * UUID (version 8) from the source event id and the type.
 */
export function derivedEventId(sourceEventId: string, type: string): string {
  const h = createHash('sha256').update(`${sourceEventId}:${type}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
