// Every event type the service records, in one place: its payload type, what it is about, the
// ClickHouse table its rows go to (with the durable consumer that writes them) and the webhook
// categories it can produce. The publisher's typed `record`, the OLAP writer's routing, the list
// of OLAP consumers and the webhook consumer's selection are all derived from here, so a type
// that is declared is routed, and a payload of the wrong shape does not compile.
//
// A new type: its payload interface and row mapping in the module of its category (and the table
// in a sql/clickhouse migration); one line in EventPayloads and one entry in EVENT_REGISTRY; with
// webhook categories, its mapping in webhook-events.ts (the compiler asks for it).
import type { EventRow } from '../shared/event-rows.js';
import type { WebhookEvent } from '../shared/webhook-body.js';
import { apiRequestRow, type ApiRequestData } from './api-request-events.js';
import type { CampaignChangeData } from './campaign-events.js';
import { clickRow, type ClickData } from './click-events.js';
import { appInstallRow, funnelStageRow, resolutionRow, type AppInstallData, type FunnelStageData, type ResolutionData } from './deep-link-events.js';
import type { ClickEnricher } from './enrich.js';
import { eventSubject, type EventEnvelope, type WireEvent } from './envelope.js';
import {
  journeyFunnelRow, sessionEventRow, sessionStartedRow, sessionTransitionRow,
  type JourneyFunnelData, type SessionEventData, type SessionStartedData, type SessionTransitionData,
} from './journey-events.js';
import type { TableRoute } from './olap-writer.js';

/** The payload (`data`) of each event type. The wire name of a type is its key here. */
export interface EventPayloads {
  click: ClickData;
  api_request: ApiRequestData;
  campaign_change: CampaignChangeData;
  funnel_stage: FunnelStageData;
  deeplink_resolution: ResolutionData;
  app_install: AppInstallData;
  session_started: SessionStartedData;
  session_event: SessionEventData;
  session_transition: SessionTransitionData;
  journey_funnel: JourneyFunnelData;
}

export type EventType = keyof EventPayloads;

/** An event of one type as the edge records it: the envelope with that type's payload. */
export interface EventOf<T extends EventType> {
  /** UUIDv7 made at the edge; the ClickHouse row keeps it, so redelivery can be recognised. */
  eventId: string;
  type: T;
  /** Unix milliseconds, UTC. */
  occurredAt: number;
  organizationId: number;
  data: EventPayloads[T];
}

/** Any recorded event, discriminated on `type`. */
export type RecordedEvent = { [T in EventType]: EventOf<T> }[EventType];

/** What an event is about. */
export type EventCategory = 'click' | 'campaign' | 'funnel' | 'session' | 'deep_link' | 'api';

/** A webhook subscription category (what an endpoint chooses to receive). */
export type WebhookCategory = Exclude<WebhookEvent['category'], 'test'>;

/** What a row mapping may use besides the event: user agent, referrer and geo dimensions. */
export interface RowDeps {
  enrich: ClickEnricher;
}

interface EventTypeSpec<P> {
  category: EventCategory;
  /** The table its rows go to, the durable bus consumer that writes them, and the row mapping. */
  olap?: {
    table: string;
    /** The consumer's durable name: renaming it starts a new consumer from the stream's start. */
    consumer: string;
    toRow(event: WireEvent<P>, deps: RowDeps): EventRow;
  };
  /** The webhook categories it can produce; empty: no webhooks (see webhook-events.ts for the mapping). */
  webhooks: readonly WebhookCategory[];
}

type Registry = { readonly [T in EventType]: EventTypeSpec<EventPayloads[T]> };

export const EVENT_REGISTRY = {
  // Clicks have a durable consumer of their own: their backlog and lag are the ones that matter,
  // and a problem with any other event type never holds them up.
  click: { category: 'click', olap: { table: 'clicks', consumer: 'olap-clicks', toRow: clickRow }, webhooks: ['click'] },
  api_request: { category: 'api', olap: { table: 'api_requests', consumer: 'olap-events', toRow: apiRequestRow }, webhooks: [] },
  campaign_change: { category: 'campaign', webhooks: ['campaign'] },
  funnel_stage: { category: 'funnel', olap: { table: 'deeplink_funnel', consumer: 'olap-funnel-stage', toRow: funnelStageRow }, webhooks: ['funnel', 'goal'] },
  deeplink_resolution: { category: 'deep_link', olap: { table: 'deeplink_resolutions', consumer: 'olap-deeplink-resolution', toRow: resolutionRow }, webhooks: [] },
  app_install: { category: 'deep_link', olap: { table: 'app_installs', consumer: 'olap-app-install', toRow: appInstallRow }, webhooks: [] },
  session_started: { category: 'session', olap: { table: 'journey_session_starts', consumer: 'olap-session-started', toRow: sessionStartedRow }, webhooks: ['session'] },
  session_event: { category: 'session', olap: { table: 'journey_events', consumer: 'olap-session-event', toRow: sessionEventRow }, webhooks: [] },
  session_transition: { category: 'session', olap: { table: 'journey_transitions', consumer: 'olap-session-transition', toRow: sessionTransitionRow }, webhooks: ['session'] },
  journey_funnel: { category: 'funnel', olap: { table: 'journey_funnel', consumer: 'olap-journey-funnel', toRow: journeyFunnelRow }, webhooks: ['funnel', 'goal'] },
} as const satisfies Registry;

/** The registry with every entry seen through its spec type (optional parts optional). */
const SPECS: Registry = EVENT_REGISTRY;
const EVENT_TYPES = Object.keys(SPECS) as EventType[];

/** The registered spec of a type read off the bus, or undefined for a type this version does not know. */
export function specOf(type: string): EventTypeSpec<unknown> | undefined {
  return Object.hasOwn(SPECS, type) ? (SPECS[type as EventType] as EventTypeSpec<unknown>) : undefined;
}

/** The OLAP writer's routing: event type → table and row mapping. */
export function createEventTableRoutes(deps: RowDeps): Record<string, TableRoute> {
  const routes: Record<string, TableRoute> = {};
  for (const type of EVENT_TYPES) {
    const olap = (SPECS[type] as EventTypeSpec<unknown>).olap;
    // The one place where the type name vouches for the payload's field names.
    if (olap) routes[type] = { table: olap.table, toRow: (e: EventEnvelope) => olap.toRow(e, deps) };
  }
  return routes;
}

/** The durable consumers that write events into ClickHouse, each with the subject it reads. */
export function olapConsumers(): { durable: string; subject: string }[] {
  return EVENT_TYPES.flatMap((type) => {
    const olap = SPECS[type].olap;
    return olap ? [{ durable: olap.consumer, subject: eventSubject(type) }] : [];
  });
}

/** Event types that can produce webhooks (a non-empty `webhooks` list). */
export type WebhookSourceType = {
  [T in EventType]: (typeof EVENT_REGISTRY)[T]['webhooks'] extends readonly [] ? never : T;
}[EventType];

export const WEBHOOK_SOURCE_TYPES: readonly EventType[] = EVENT_TYPES.filter((type) => SPECS[type].webhooks.length > 0);
