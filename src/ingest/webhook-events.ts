// The pieces every event type's webhook mapping is built from (each type's mapping sits with its
// spec in its category module): values picked by type, the event's common fields, the link, the
// funnel and goal events. README "Webhooks" documents each webhook event with an example.
import { derivedEventId, type WebhookEvent } from '../shared/webhook-body.js';
import type { EventEnvelope } from './envelope.js';

export const linkKey = (organizationId: number, id: number) => `${organizationId}:${id}`;

export const text = (v: unknown, max = 200): string | null =>
  typeof v === 'string' && v !== '' ? v.slice(0, max) : null;
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null);
const numberOrNull = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
export const positiveId = (v: unknown): number | null => {
  const n = int(v);
  return n !== null && n > 0 ? n : null;
};

export function webhookEvent(
  e: { eventId: string; occurredAt: number; organizationId: number },
  type: string,
  category: WebhookEvent['category'],
  data: Record<string, unknown>,
  eventId = e.eventId,
): WebhookEvent {
  return {
    id: eventId,
    type,
    category,
    occurredAt: new Date(e.occurredAt).toISOString(),
    organizationId: e.organizationId,
    data,
  };
}

/** The link of a funnel or session event: urlId/campaignId (journey) or linkType/linkId (mobile). */
export function linkOf(d: {
  readonly linkType?: unknown;
  readonly linkId?: unknown;
  readonly urlId?: unknown;
  readonly campaignId?: unknown;
}): { urlId: number | null; campaignId: number | null } {
  if (d.linkType === 'url') return { urlId: positiveId(d.linkId), campaignId: null };
  if (d.linkType === 'campaign') return { urlId: null, campaignId: positiveId(d.linkId) };
  return { urlId: positiveId(d.urlId), campaignId: positiveId(d.campaignId) };
}

/** An event as a webhook mapping reads it: the common fields and its data, each value unknown. */
type LooseEvent = {
  eventId: string;
  occurredAt: number;
  organizationId: number;
  data: { readonly [field: string]: unknown };
};

/** funnel.stage, and goal.completed for a completed goal. */
export function funnelEvents(e: LooseEvent, funnel: 'mobile' | 'web'): WebhookEvent[] {
  // The mobile and the web funnel share their names but for the link and the transaction id.
  const d = e.data;
  const stage = text(d.stage, 50);
  if (!stage) return [];
  const common = {
    funnel,
    sessionId: text(d.sessionId),
    appId: positiveId(d.appId),
    platform: text(d.platform, 20),
    ...linkOf(d),
    externalUserId: text(d.externalUserId),
  };
  const goal = {
    goalType: text(d.goalType, 50),
    goalValue: numberOrNull(d.goalValue),
    currency: text(d.currency, 3)?.toUpperCase() ?? null,
    transactionId: text(d.transactionId),
    // A mobile goal value that is not a number (goalValue is then null).
    ...(typeof d.goalText === 'string' && d.goalText !== '' ? { goalText: text(d.goalText, 200) } : {}),
  };
  const events = [webhookEvent(e, 'funnel.stage', 'funnel', { ...common, stage, ...goal })];
  if (stage === 'GOAL_COMPLETED')
    events.push(
      webhookEvent(e, 'goal.completed', 'goal', { ...common, ...goal }, derivedEventId(e.eventId, 'goal.completed')),
    );
  return events;
}

/** Clicked links whose names a batch needs (only for organizations that receive clicks). */
export function clickedLinks(
  events: EventEnvelope[],
  wantsClicks: (organizationId: number) => boolean,
): { url: [number, number][]; campaign: [number, number][] } {
  const out = { url: [] as [number, number][], campaign: [] as [number, number][] };
  for (const e of events) {
    if (e.type !== 'click' || e.data.bot === true || !wantsClicks(e.organizationId)) continue;
    const linkId = positiveId(e.data.linkId);
    if (linkId === null) continue;
    (e.data.linkType === 'campaign' ? out.campaign : out.url).push([e.organizationId, linkId]);
  }
  return out;
}
