// The webhook wire format receivers verify and parse: the body {id, type, category, occurredAt,
// organizationId, data} serialised once at enqueue, and its signature
// `sha256=<hex HMAC-SHA256(secret, raw body)>`, one per active secret, comma-separated.
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
