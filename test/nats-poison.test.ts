// Poison parking on NATS JetStream (the rule in src/ingest/poison-policy.ts): a message that keeps failing
// alone while the others of its consumer succeed goes to the DLQ stream with its last error, and
// the consumer moves on; when every message fails alike (the store is down), nothing is parked and
// everything is written once the store is back.
import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Bus, BusMessage } from '../src/ingest/bus.js';
import { ISOLATE_AFTER_FAILURES, PARK_AFTER_FAILURES } from '../src/ingest/poison-policy.js';
import { createNatsBus } from '../src/ingest/nats-bus.js';
import { uuidv7 } from '../src/shared/ids.js';
import { createLogger } from '../src/shared/logger.js';
import { backend, servicesEnv } from './support/backend.js';
import { eventually } from './support/service.js';

const log = createLogger({ level: 'silent', pretty: false });
const encoder = new TextEncoder();
const text = (data: Uint8Array) => new TextDecoder().decode(data);
const namespaces: string[] = [];
const open: Bus[] = [];

async function newBus(): Promise<{ bus: Bus; namespace: string }> {
  const namespace = `sp_poison_${process.pid}_${randomBytes(4).toString('hex')}`;
  namespaces.push(namespace);
  // Short back-offs keep the test quick; the rule is the same at any pace.
  const bus = await createNatsBus({ url: servicesEnv.natsUrl, namespace, log, retryBaseMs: 10 });
  open.push(bus);
  return { bus, namespace };
}

/** What the DLQ stream of the namespace holds: body and reason of each parked message. */
async function parked(namespace: string): Promise<{ subject: string; body: string; reason: string | undefined }[]> {
  const nc = await connect({ servers: servicesEnv.natsUrl });
  try {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(`${namespace}_DLQ`);
    const out = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const m = await jsm.streams.getMessage(`${namespace}_DLQ`, { seq });
      if (m) out.push({ subject: m.subject, body: m.string(), reason: m.header.get('Signpost-Dead-Letter-Reason') });
    }
    return out;
  } finally {
    await nc.close();
  }
}

/** Publishes `bodies` at once, then 20 more one every 50 ms; returns the later ones. */
async function publishThenTrickle(bus: Bus, bodies: string[]): Promise<string[]> {
  for (const body of bodies) await bus.publish('events.click', encoder.encode(body), uuidv7());
  const later = Array.from({ length: 20 }, (_, i) => `later-${i}`);
  for (const body of later) {
    await bus.publish('events.click', encoder.encode(body), uuidv7());
    await new Promise((r) => setTimeout(r, 50));
  }
  return later;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((bus) => bus.close()));
});

afterAll(async () => {
  if (namespaces.length === 0) return;
  const nc = await connect({ servers: servicesEnv.natsUrl });
  const jsm = await jetstreamManager(nc);
  for (const ns of namespaces)
    for (const s of [`${ns}_EVENTS`, `${ns}_DLQ`]) await jsm.streams.delete(s).catch(() => {});
  await nc.close();
});

describe.runIf(backend === 'services')('NATS poison parking', () => {
  it('parks a message that keeps failing alone while others succeed, and handles every other once', async () => {
    const { bus, namespace } = await newBus();
    const handled: string[] = [];
    const poisonSeen: number[] = [];
    await bus.consume({
      durable: 'poisoned',
      subject: 'events.>',
      maxBatch: 50,
      handler: async (messages: BusMessage[]) => {
        const poison = messages.find((m) => text(m.data) === 'poison');
        if (poison) {
          poisonSeen.push(poison.deliveryCount);
          throw new Error('cannot be written: bad value');
        }
        handled.push(...messages.map((m) => text(m.data)));
      },
    });
    const bodies = Array.from({ length: 40 }, (_, i) => `good-${i}`);
    bodies.splice(5, 0, 'poison');
    // Traffic keeps coming while the poison waits: it is not stuck behind it.
    const later = await publishThenTrickle(bus, bodies);

    expect(await bus.drain(30_000)).toBe(true);
    expect(handled.sort()).toEqual([...bodies.filter((b) => b !== 'poison'), ...later].sort());
    const letters = await parked(namespace);
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({ subject: `${namespace}.dlq.events.click`, body: 'poison' });
    expect(letters[0]!.reason).toMatch(/cannot be written: bad value/);
    // It was tried in batches ISOLATE_AFTER_FAILURES times, then alone until parked.
    expect(Math.max(...poisonSeen)).toBeGreaterThanOrEqual(ISOLATE_AFTER_FAILURES + PARK_AFTER_FAILURES - 1);
    expect((await bus.stats()).pending.poisoned).toBe(0);
  }, 60_000);

  it('parks two poison messages at the head of the stream and handles the messages behind them', async () => {
    const { bus, namespace } = await newBus();
    const handled: string[] = [];
    await bus.consume({
      durable: 'two-poisons',
      subject: 'events.>',
      maxBatch: 50,
      handler: async (messages: BusMessage[]) => {
        if (messages.some((m) => text(m.data).startsWith('poison'))) throw new Error('cannot be written: bad value');
        handled.push(...messages.map((m) => text(m.data)));
      },
    });
    const bodies = ['poison-1', 'poison-2', ...Array.from({ length: 10 }, (_, i) => `good-${i}`)];
    const later = await publishThenTrickle(bus, bodies);

    expect(await bus.drain(30_000)).toBe(true);
    expect(handled.sort()).toEqual([...bodies.slice(2), ...later].sort());
    expect((await parked(namespace)).map((l) => l.body).sort()).toEqual(['poison-1', 'poison-2']);
  }, 60_000);

  it('parks nothing while every message fails alike, and writes them all once it heals', async () => {
    const { bus, namespace } = await newBus();
    let down = true;
    const handled: string[] = [];
    let failedCalls = 0;
    const deliveries = new Map<string, number>();
    await bus.consume({
      durable: 'outage',
      subject: 'events.>',
      maxBatch: 50,
      handler: async (messages) => {
        for (const m of messages) deliveries.set(text(m.data), m.deliveryCount);
        if (down) {
          failedCalls++;
          throw new Error('connect ECONNREFUSED 127.0.0.1:8123');
        }
        handled.push(...messages.map((m) => text(m.data)));
      },
    });
    const bodies = Array.from({ length: 30 }, (_, i) => `m-${i}`);
    for (const body of bodies) await bus.publish('events.click', encoder.encode(body), uuidv7());
    // Down long enough that a message would have been parked, were it poison.
    await eventually(
      async () => Math.min(...bodies.map((b) => deliveries.get(b) ?? 0)) > ISOLATE_AFTER_FAILURES + PARK_AFTER_FAILURES,
      40_000,
      'many failed deliveries',
    );
    expect(failedCalls).toBeGreaterThan(ISOLATE_AFTER_FAILURES + PARK_AFTER_FAILURES);
    down = false;
    expect(await bus.drain(30_000)).toBe(true);
    expect(handled.sort()).toEqual([...bodies].sort());
    expect(await parked(namespace)).toEqual([]);
  }, 90_000);
});
