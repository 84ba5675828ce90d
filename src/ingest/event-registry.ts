// Every event type the service records, gathered from the category modules that declare them with
// `defineEvent` (event-spec.ts): its payload type, what it is about, the ClickHouse table its rows
// go to (with the durable consumer that writes them) and its webhook events. The publisher's typed
// `record`, the OLAP writer's routing, the list of OLAP consumers and the webhook consumer's
// selection and mapping are all derived from here, so a type that is declared is routed, and a
// payload of the wrong shape does not compile.
//
// A new type: its payload interface and one `defineEvent` entry in the module of its category (and
// its table in a sql/clickhouse migration). A new category module is spread in below.
import type { WebhookEvent } from '../shared/webhook-body.js';
import { API_REQUEST_EVENTS } from './api-request-events.js';
import { CAMPAIGN_EVENTS } from './campaign-events.js';
import { CLICK_EVENTS } from './click-events.js';
import { DEEP_LINK_EVENTS } from './deep-link-events.js';
import { eventSubject, type EventEnvelope } from './envelope.js';
import type { EventTypeSpec, PayloadOf, RowDeps, WebhookContext } from './event-spec.js';
import { JOURNEY_EVENTS } from './journey-events.js';
import type { TableRoute } from './olap-writer.js';

const EVENT_REGISTRY = {
  ...CLICK_EVENTS,
  ...API_REQUEST_EVENTS,
  ...CAMPAIGN_EVENTS,
  ...DEEP_LINK_EVENTS,
  ...JOURNEY_EVENTS,
};

type Registered = typeof EVENT_REGISTRY;

export type EventType = keyof Registered;

/** The payload (`data`) of each event type. The wire name of a type is its key in the registry. */
export type EventPayloads = { [T in EventType]: PayloadOf<Registered[T]> };

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

/** The registry with every entry seen through its spec type (optional parts optional). */
const SPECS: { readonly [T in EventType]: EventTypeSpec<EventPayloads[T]> } = EVENT_REGISTRY;
export const EVENT_TYPES = Object.keys(SPECS) as EventType[];

/** The registered spec of a type read off the bus, or undefined for a type this version does not know. */
export function specOf(type: string): EventTypeSpec<unknown> | undefined {
  // The one place where the type name vouches for the payload's field names.
  return Object.hasOwn(SPECS, type) ? (SPECS[type as EventType] as EventTypeSpec<unknown>) : undefined;
}

/** The OLAP writer's routing: event type → table and row mapping. */
export function createEventTableRoutes(deps: RowDeps): Record<string, TableRoute> {
  const routes: Record<string, TableRoute> = {};
  for (const type of EVENT_TYPES) {
    const olap = specOf(type)?.olap;
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

/** Event types that can produce webhooks. */
export const WEBHOOK_SOURCE_TYPES: readonly EventType[] = EVENT_TYPES.filter(
  (type) => SPECS[type].webhooks !== undefined,
);

/** The webhook events an event off the bus makes; none for a type that makes none. */
export function toWebhookEvents(e: EventEnvelope, ctx: WebhookContext): WebhookEvent[] {
  return specOf(e.type)?.webhooks?.toEvents(e, ctx) ?? [];
}
