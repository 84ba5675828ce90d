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

export type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;

export const eventBatchSchema = z.object({
  v: z.literal(1),
  events: z.array(z.unknown()),
});

export const eventSubject = (type: string) => `events.${type}`;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeBatch(events: EventEnvelope[]): Uint8Array {
  return encoder.encode(JSON.stringify({ v: 1, events }));
}

export interface DecodedBatch {
  events: EventEnvelope[];
  /** Events that failed validation, with the reason; the rest of the batch is still good. */
  invalid: { event: unknown; reason: string }[];
}

/** Throws when the message as a whole is not a batch; sorts out bad events one by one otherwise. */
export function decodeBatch(data: Uint8Array): DecodedBatch {
  const batch = eventBatchSchema.parse(JSON.parse(decoder.decode(data)));
  const result: DecodedBatch = { events: [], invalid: [] };
  for (const raw of batch.events) {
    const parsed = eventEnvelopeSchema.safeParse(raw);
    if (parsed.success) result.events.push(parsed.data);
    else result.invalid.push({ event: raw, reason: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
  }
  return result;
}
