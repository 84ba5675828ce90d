// decodeBatch checks well-formed events by hand (every event of every batch passes through it) and
// leaves the rest to zod: the verdict must be zod's own for every kind of input.
import { describe, expect, it } from 'vitest';
import { decodeBatch, encodeBatch, eventEnvelopeSchema, type EventEnvelope } from '../../src/ingest/envelope.js';
import { uuidv7 } from '../../src/shared/ids.js';

const good = (): EventEnvelope => ({
  eventId: uuidv7(),
  type: 'click',
  occurredAt: 1_795_370_000_000,
  organizationId: 7,
  data: { linkId: 3 },
});
const raw = (events: unknown[]) => new TextEncoder().encode(JSON.stringify({ v: 1, events }));

describe('decodeBatch', () => {
  it('returns the events of a batch as they were encoded, without extra keys', () => {
    const events = [good(), good()];
    const withExtra = { ...good(), extra: 'dropped' };
    const decoded = decodeBatch(raw([...events, withExtra]));
    expect(decoded.invalid).toEqual([]);
    expect(decoded.events).toEqual([
      ...events,
      {
        eventId: withExtra.eventId,
        type: 'click',
        occurredAt: withExtra.occurredAt,
        organizationId: 7,
        data: { linkId: 3 },
      },
    ]);
    expect(decodeBatch(encodeBatch(events)).events).toEqual(events);
  });

  it('agrees with the schema on every odd event', () => {
    const variants: unknown[] = [
      { ...good(), eventId: uuidv7().toUpperCase() },
      { ...good(), eventId: 'not-a-uuid' },
      { ...good(), eventId: '00000000-0000-0000-0000-000000000000' },
      { ...good(), eventId: '0193a3b2-0000-9000-8000-000000000000' },
      { ...good(), type: 'Click' },
      { ...good(), type: 'a'.repeat(42) },
      { ...good(), occurredAt: -1 },
      { ...good(), occurredAt: 1.5 },
      { ...good(), occurredAt: '1795370000000' },
      { ...good(), organizationId: 2 ** 53 },
      { ...good(), data: [] },
      { ...good(), data: null },
      { ...good(), data: 'x' },
      { eventId: uuidv7(), type: 'click', occurredAt: 1, organizationId: 1 },
      null,
      'event',
      [good()],
    ];
    for (const variant of variants) {
      const verdict = eventEnvelopeSchema.safeParse(variant);
      const decoded = decodeBatch(raw([variant]));
      expect(decoded.events.length, JSON.stringify(variant)).toBe(verdict.success ? 1 : 0);
      expect(decoded.invalid.length, JSON.stringify(variant)).toBe(verdict.success ? 0 : 1);
      if (verdict.success) expect(decoded.events[0]).toEqual(verdict.data);
      else expect(decoded.invalid[0]!.reason).not.toBe('');
    }
  });

  it('refuses a message that is not a batch', () => {
    expect(() => decodeBatch(new TextEncoder().encode('{"v":2,"events":[]}'))).toThrow();
    expect(() => decodeBatch(new TextEncoder().encode('not json'))).toThrow();
  });
});
