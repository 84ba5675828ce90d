// The webhook event catalogue: which internal bus event becomes which webhook event, with which
// payload. Every field is picked by name and type from the internal event, so nothing the edge
// recorded for other purposes (IP address, raw user agent, full referrer, free-form properties)
// can slip into a customer's payload. README "Webhooks" documents each type with an example.
import { derivedEventId, type WebhookEvent } from '../shared/webhook-body.js';
import type { ClickEnricher } from './enrich.js';
import type { EventEnvelope, WireEvent } from './envelope.js';
import type { EventPayloads, WebhookSourceType } from './event-registry.js';

/** Short codes and campaign aliases of clicked links, looked up per batch, keyed `${orgId}:${id}`. */
export interface LinkNames {
  url: Map<string, string>;
  campaign: Map<string, string>;
}

const linkKey = (organizationId: number, id: number) => `${organizationId}:${id}`;

const str = (v: unknown, max = 200): string | null => (typeof v === 'string' && v !== '' ? v.slice(0, max) : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null);
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const id = (v: unknown): number | null => {
  const n = int(v);
  return n !== null && n > 0 ? n : null;
};

function base(e: { eventId: string; occurredAt: number; organizationId: number }, type: string, category: WebhookEvent['category'], data: Record<string, unknown>, eventId = e.eventId): WebhookEvent {
  return { id: eventId, type, category, occurredAt: new Date(e.occurredAt).toISOString(), organizationId: e.organizationId, data };
}

/** The link of a funnel or session event: urlId/campaignId (journey) or linkType/linkId (mobile). */
function linkOf(d: { readonly linkType?: unknown; readonly linkId?: unknown; readonly urlId?: unknown; readonly campaignId?: unknown }): { urlId: number | null; campaignId: number | null } {
  if (d.linkType === 'url') return { urlId: id(d.linkId), campaignId: null };
  if (d.linkType === 'campaign') return { urlId: null, campaignId: id(d.linkId) };
  return { urlId: id(d.urlId), campaignId: id(d.campaignId) };
}

function funnelEvents(e: WireEvent<EventPayloads['funnel_stage']> | WireEvent<EventPayloads['journey_funnel']>, funnel: 'mobile' | 'web'): WebhookEvent[] {
  // The mobile and the web funnel share their names but for the link and the transaction id.
  const d: Record<string, unknown> = e.data;
  const stage = str(d.stage, 50);
  if (!stage) return [];
  const common = {
    funnel,
    sessionId: str(d.sessionId),
    appId: id(d.appId),
    platform: str(d.platform, 20),
    ...linkOf(d),
    externalUserId: str(d.externalUserId),
  };
  const goal = {
    goalType: str(d.goalType, 50),
    goalValue: num(d.goalValue),
    currency: str(d.currency, 3)?.toUpperCase() ?? null,
    transactionId: str(d.transactionId),
  };
  const events = [base(e, 'funnel.stage', 'funnel', { ...common, stage, ...goal })];
  if (stage === 'GOAL_COMPLETED') events.push(base(e, 'goal.completed', 'goal', { ...common, ...goal }, derivedEventId(e.eventId, 'goal.completed')));
  return events;
}

type Context = { enrich: ClickEnricher; names: LinkNames };
type Mapper<T extends WebhookSourceType> = (e: WireEvent<EventPayloads[T]>, ctx: Context) => WebhookEvent[];

/** One mapping per event type the registry sends to webhooks; the compiler asks for a new one's. */
const MAPPERS: { [T in WebhookSourceType]: Mapper<T> } = {
  click(e, ctx) {
    const d = e.data;
    // People only: preview fetchers and bots are not clicks for statistics either.
    if (d.bot === true) return [];
    const dims = ctx.enrich({ userAgent: str(d.userAgent, 1000) ?? '', ip: str(d.ip, 64) ?? '', referrer: str(d.referrer, 2000) ?? '' });
    if (dims.isBot) return [];
    const linkId = id(d.linkId);
    const common = {
      host: str(d.host, 255),
      referrerHost: dims.referrerHost || null,
      country: dims.country || null,
      deviceType: dims.deviceType,
      os: dims.os,
      browser: dims.browser,
      utmSource: str(d.utmSource, 100),
      utmMedium: str(d.utmMedium, 100),
      utmCampaign: str(d.utmCampaign, 100),
      utmTerm: str(d.utmTerm, 100),
      utmContent: str(d.utmContent, 100),
    };
    if (d.linkType === 'campaign') {
      const alias = linkId === null ? null : ctx.names.campaign.get(linkKey(e.organizationId, linkId)) ?? null;
      return [base(e, 'click.campaign', 'click', { campaignId: linkId, alias, cid: str(d.cid, 100), tracker: str(d.tracker, 100), ...common })];
    }
    const shortCode = linkId === null ? null : ctx.names.url.get(linkKey(e.organizationId, linkId)) ?? null;
    return [base(e, 'click.url', 'click', { urlId: linkId, shortCode, ...common })];
  },
  campaign_change(e) {
    const { action } = e.data;
    const c = (e.data.campaign ?? {}) as Record<string, unknown>;
    if (action !== 'created' && action !== 'updated' && action !== 'deleted') return [];
    return [base(e, `campaign.${action}`, 'campaign', { campaign: { id: id(c.id), name: str(c.name), alias: str(c.alias) } })];
  },
  funnel_stage: (e) => funnelEvents(e, 'mobile'),
  journey_funnel: (e) => funnelEvents(e, 'web'),
  session_started(e) {
    const d = e.data;
    return [base(e, 'session.started', 'session', {
      sessionId: str(d.sessionId),
      appId: id(d.appId),
      platform: str(d.platform, 20),
      ...linkOf(d),
      externalUserId: str(d.externalUserId),
      utmSource: str(d.utmSource, 100),
      utmMedium: str(d.utmMedium, 100),
      utmCampaign: str(d.utmCampaign, 100),
      referrerHost: str(d.referrerHost, 255),
    })];
  },
  session_transition(e) {
    const d = e.data;
    return [base(e, 'session.transition', 'session', {
      sessionId: str(d.sessionId),
      appId: id(d.appId),
      fromPlatform: str(d.fromPlatform, 20),
      toPlatform: str(d.toPlatform, 20),
      targetSessionId: str(d.targetSessionId),
      ...linkOf(d),
      externalUserId: str(d.externalUserId),
    })];
  },
};

/** The webhook events an internal event produces; none for a type that produces no webhooks. */
export function toWebhookEvents(e: EventEnvelope, ctx: Context): WebhookEvent[] {
  if (!Object.hasOwn(MAPPERS, e.type)) return [];
  // The type names the payload; the mapping checks each value it reads.
  return (MAPPERS[e.type as WebhookSourceType] as Mapper<WebhookSourceType>)(e, ctx);
}

/** Clicked links whose names a batch needs (only for organizations that receive clicks). */
export function clickedLinks(events: EventEnvelope[], wantsClicks: (organizationId: number) => boolean): { url: [number, number][]; campaign: [number, number][] } {
  const out = { url: [] as [number, number][], campaign: [] as [number, number][] };
  for (const e of events) {
    if (e.type !== 'click' || e.data.bot === true || !wantsClicks(e.organizationId)) continue;
    const linkId = id(e.data.linkId);
    if (linkId === null) continue;
    (e.data.linkType === 'campaign' ? out.campaign : out.url).push([e.organizationId, linkId]);
  }
  return out;
}
