// What one event type declares about itself: what it is about, the ClickHouse table its rows go to
// (with the durable consumer that writes them and the row mapping), and the webhook events it
// makes. Each category module declares its types with `defineEvent`; event-registry.ts gathers them.
import type { EventRow } from '../shared/event-rows.js';
import type { WebhookEvent } from '../shared/webhook-body.js';
import type { ClickEnricher } from './enrich.js';
import type { WireEvent } from './envelope.js';
import type { VisitorHasher } from './visitors.js';

/** What an event is about. */
export type EventCategory = 'click' | 'campaign' | 'funnel' | 'session' | 'deep_link' | 'api';

/** A webhook subscription category (what an endpoint chooses to receive). */
export type WebhookCategory = Exclude<WebhookEvent['category'], 'test'>;

/** What a row mapping may use besides the event: user agent, referrer and geo dimensions, and the day's visitor hash. */
export interface RowDeps {
  enrich: ClickEnricher;
  visitor: VisitorHasher;
}

/** Short codes and campaign aliases of clicked links, looked up per batch, keyed `${orgId}:${id}`. */
export interface LinkNames {
  url: Map<string, string>;
  campaign: Map<string, string>;
}

/** What a webhook mapping may use besides the event. */
export interface WebhookContext {
  enrich: ClickEnricher;
  names: LinkNames;
}

export interface EventTypeSpec<P> {
  category: EventCategory;
  /** The table its rows go to, the durable bus consumer that writes them, and the row mapping. */
  olap?: {
    table: string;
    /** The consumer's durable name: renaming it starts a new consumer from the stream's start. */
    consumer: string;
    toRow(event: WireEvent<P>, deps: RowDeps): EventRow;
  };
  /**
   * The webhook categories it can produce and the mapping to the webhook events. The mapping picks
   * every field by name and type, so nothing recorded for other purposes (IP address, raw user
   * agent, full referrer, free-form properties) slips into a customer's payload.
   */
  webhooks?: {
    categories: readonly WebhookCategory[];
    toEvents(event: WireEvent<P>, ctx: WebhookContext): WebhookEvent[];
  };
}

declare const payloadType: unique symbol;

/** A spec that remembers its payload type for the compiler; nothing of it exists at run time. */
type TypedSpec<P> = { readonly [payloadType]?: (payload: P) => void };

/** The payload type a spec was declared with. */
export type PayloadOf<S> = S extends TypedSpec<infer P> ? P : never;

/** Declares an event type whose payload is P: `defineEvent<MyData>()({ category, olap, webhooks })`. */
export const defineEvent =
  <P>() =>
  <S extends EventTypeSpec<P>>(spec: S): S & TypedSpec<P> =>
    spec;
