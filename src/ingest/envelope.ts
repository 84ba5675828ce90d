// Event envelopes: what the edge records (a click, an API call, a funnel stage) travels in these,
// batched into one bus message per flush. zod checks them again when they come off the bus.
import { z } from 'zod';

export const eventEnvelopeSchema = z.object({
  /** UUIDv7 made at the edge; the ClickHouse row keeps it, so redelivery can be recognised. */
  eventId: z.string().uuid(),
  type: z.string().regex(/^[a-z][a-z0-9_]{0,40}$/),
  /** Unix milliseconds, UTC. */
  occurredAt: z.number().int().nonnegative(),
  organizationId: z.number().int().nonnegative(),
  data: z.record(z.string(), z.unknown()),
});

/** An envelope as it comes off the bus: any type, data checked only for being an object. */
export type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;

/**
 * An event off the bus as its type's row or webhook mapping sees it: the field names of its
 * payload type P, each of unknown value. What the bus carries was written by another version,
 * or by hand, so a mapping checks each value; the names at least are checked by the compiler.
 */
export interface WireEvent<P> {
  eventId: string;
  type: string;
  occurredAt: number;
  organizationId: number;
  data: { readonly [K in keyof P]?: unknown };
}

const eventBatchSchema = z.object({
  v: z.literal(1),
  events: z.array(z.unknown()),
});

export const eventSubject = (type: string) => `events.${type}`;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Typed envelopes (the publisher's) and loose ones (a dead letter's) encode alike. */
export function encodeBatch(events: readonly object[]): Uint8Array {
  return encoder.encode(JSON.stringify({ v: 1, events }));
}

export interface DecodedBatch {
  events: EventEnvelope[];
  /** Events that failed validation, with the reason; the rest of the batch is still good. */
  invalid: { event: unknown; reason: string }[];
}

// A strict subset of what the schema accepts (a lowercase version 1-8 UUID with the RFC variant),
// checked by hand because every event of every batch passes here; zod judges the rest.
const EVENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const EVENT_TYPE = /^[a-z][a-z0-9_]{0,40}$/;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The envelope of a well-formed event without zod's copy of its data, or undefined to ask zod. */
function wellFormed(raw: unknown): EventEnvelope | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const e = raw as Record<string, unknown>;
  const data = e.data;
  if (typeof e.eventId !== 'string' || !EVENT_ID.test(e.eventId)) return undefined;
  if (typeof e.type !== 'string' || !EVENT_TYPE.test(e.type)) return undefined;
  if (!isCount(e.occurredAt) || !isCount(e.organizationId)) return undefined;
  if (
    typeof data !== 'object' ||
    data === null ||
    Array.isArray(data) ||
    Object.getPrototypeOf(data) !== Object.prototype
  )
    return undefined;
  return {
    eventId: e.eventId,
    type: e.type,
    occurredAt: e.occurredAt,
    organizationId: e.organizationId,
    data: data as Record<string, unknown>,
  };
}

/** Throws when the message as a whole is not a batch; sorts out bad events one by one otherwise. */
export function decodeBatch(data: Uint8Array): DecodedBatch {
  const batch = eventBatchSchema.parse(JSON.parse(decoder.decode(data)));
  const result: DecodedBatch = { events: [], invalid: [] };
  for (const raw of batch.events) {
    const fast = wellFormed(raw);
    if (fast) {
      result.events.push(fast);
      continue;
    }
    const parsed = eventEnvelopeSchema.safeParse(raw);
    if (parsed.success) result.events.push(parsed.data);
    else
      result.invalid.push({
        event: raw,
        reason: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      });
  }
  return result;
}
