// The bus contract, on the bus of the backend under test: the in-process bus (embedded) or NATS
// JetStream (services). Each test builds its own bus; on NATS each gets its own namespace.
import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WaitForMore, type BatchHandler, type Bus, type BusMessage } from '../src/ingest/bus.js';
import { createMemoryBus } from '../src/ingest/memory-bus.js';
import { createNatsBus } from '../src/ingest/nats-bus.js';
import { uuidv7 } from '../src/shared/ids.js';
import { createLogger } from '../src/shared/logger.js';
import { backend, servicesEnv } from './support/backend.js';
import { eventually } from './support/service.js';

const log = createLogger({ level: 'silent', pretty: false });
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const text = (data: Uint8Array) => decoder.decode(data);

const namespaces: string[] = [];
const open: Bus[] = [];

async function newBus(nats: { namespace?: string; ackWaitMs?: number } = {}): Promise<Bus> {
  let bus: Bus;
  if (backend === 'services') {
    const namespace = nats.namespace ?? `sp_bus_${process.pid}_${randomBytes(4).toString('hex')}`;
    namespaces.push(namespace);
    bus = await createNatsBus({ url: servicesEnv.natsUrl, namespace, log, ackWaitMs: nats.ackWaitMs });
  } else {
    bus = createMemoryBus({ log });
  }
  open.push(bus);
  return bus;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((bus) => bus.close()));
});

afterAll(async () => {
  if (namespaces.length === 0) return;
  const nc = await connect({ servers: servicesEnv.natsUrl });
  const jsm = await jetstreamManager(nc);
  for (const ns of namespaces) {
    for (const stream of [`${ns}_EVENTS`, `${ns}_DLQ`]) await jsm.streams.delete(stream).catch(() => {});
  }
  await nc.close();
});

/** What a handler saw, copied at call time (a bus may reuse its message objects). */
interface Seen {
  id: string;
  subject: string;
  text: string;
  deliveryCount: number;
}

const snapshot = (m: BusMessage): Seen => ({
  id: m.id,
  subject: m.subject,
  text: text(m.data),
  deliveryCount: m.deliveryCount,
});

/** A handler that records each batch; `fail(call)` decides whether the call throws. */
function recorder(fail: (call: number) => boolean = () => false) {
  const calls: { seen: Seen[]; failed: boolean }[] = [];
  const handler: BatchHandler = async (messages) => {
    const failed = fail(calls.length + 1);
    calls.push({ seen: messages.map(snapshot), failed });
    if (failed) throw new Error('handler failed on purpose');
  };
  /** Messages of the calls that resolved, that is, the acknowledged ones. */
  const acked = () => calls.filter((c) => !c.failed).flatMap((c) => c.seen);
  return { handler, calls, acked };
}

async function publishAll(bus: Bus, subject: string, bodies: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const body of bodies) {
    const id = uuidv7();
    await bus.publish(subject, encoder.encode(body), id);
    ids.push(id);
  }
  return ids;
}

describe(`bus (${backend})`, () => {
  it('delivers what was published, and acknowledges only after the handler resolved', async () => {
    const bus = await newBus();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen: Seen[] = [];
    let resolvedCalls = 0;
    await bus.consume({
      durable: 'reader',
      subject: 'events.>',
      maxBatch: 10,
      handler: async (messages) => {
        seen.push(...messages.map(snapshot));
        await gate;
        resolvedCalls++;
      },
    });
    try {
      const ids = await publishAll(bus, 'events.click', ['one', 'two', 'three']);
      await eventually(async () => seen.length > 0, 10_000, 'the first delivery');
      // The handler has not resolved: nothing may count as acknowledged yet.
      expect(await bus.drain(300)).toBe(false);
      expect((await bus.stats()).pending.reader).toBeGreaterThan(0);

      release();
      expect(await bus.drain(10_000)).toBe(true);
      expect(resolvedCalls).toBeGreaterThan(0);
      expect((await bus.stats()).pending).toEqual({ reader: 0 });
      expect(seen.map((s) => s.id)).toEqual(ids);
      expect(seen.map((s) => s.text)).toEqual(['one', 'two', 'three']);
      for (const s of seen) expect(s).toMatchObject({ subject: 'events.click', deliveryCount: 1 });
    } finally {
      release();
    }
  });

  it('redelivers a failed batch with a growing delivery count until the handler succeeds, losing nothing', async () => {
    const bus = await newBus();
    const { handler, calls, acked } = recorder((call) => call <= 2);
    await bus.consume({ durable: 'flaky', subject: 'events.>', maxBatch: 100, handler });
    const bodies = ['a', 'b', 'c', 'd', 'e'];
    const ids = await publishAll(bus, 'events.api_request', bodies);

    expect(await bus.drain(20_000)).toBe(true);
    expect(calls.filter((c) => c.failed)).toHaveLength(2);

    // Every message was acknowledged exactly once, with its own body.
    const done = acked();
    expect(done.map((s) => s.id).sort()).toEqual([...ids].sort());
    for (const s of done) expect(s.text).toBe(bodies[ids.indexOf(s.id)]);

    // Each message was seen with delivery counts 1, 2, 3, … in turn, and every message of a failed
    // call came back in a later call with its count one higher.
    const countsById = new Map<string, number[]>();
    for (const call of calls)
      for (const s of call.seen) countsById.set(s.id, [...(countsById.get(s.id) ?? []), s.deliveryCount]);
    for (const [, counts] of countsById) expect(counts).toEqual(counts.map((_, i) => i + 1));
    calls.forEach((call, i) => {
      if (!call.failed) return;
      for (const s of call.seen) {
        const again = calls
          .slice(i + 1)
          .some((later) => later.seen.some((t) => t.id === s.id && t.deliveryCount === s.deliveryCount + 1));
        expect(again, `${s.id} after failed call ${i + 1}`).toBe(true);
      }
    });
    expect(calls[0]!.seen.length).toBeGreaterThan(0);
  });

  it('holds a batch whose handler waits for more (WaitForMore), and hands it over again with what came next, as no failure', async () => {
    const bus = await newBus();
    const calls: Seen[][] = [];
    const waitedFor = 'the last one';
    await bus.consume({
      durable: 'waiting',
      subject: 'events.>',
      maxBatch: 10,
      handler: async (messages) => {
        calls.push(messages.map(snapshot));
        if (!messages.some((m) => text(m.data) === waitedFor)) throw new WaitForMore('not all here');
      },
    });
    const first = await publishAll(bus, 'events.click', ['one', 'two']);
    await eventually(async () => calls.length >= 2, 10_000, 'the handler waiting more than once');
    const [last] = await publishAll(bus, 'events.click', [waitedFor]);
    expect(await bus.drain(15_000)).toBe(true);

    // Each call held what the one before had (nothing acknowledged or dropped while waiting); the
    // last call added the third message and was acknowledged.
    calls.slice(1).forEach((call, i) => {
      const ids = new Set(call.map((s) => s.id));
      expect(
        calls[i]!.filter((s) => !ids.has(s.id)),
        `call ${i + 2}`,
      ).toEqual([]);
    });
    expect(
      calls
        .at(-1)!
        .map((s) => s.id)
        .sort(),
    ).toEqual([...first, last].sort());
    // Waiting is no failure: nothing was parked, and no message was delivered more than once over.
    expect((await bus.recentDeadLetters?.(10)) ?? []).toEqual([]);
    expect(calls.flat().filter((s) => s.id === last)).toHaveLength(1);
  });

  it('delivers a message id published twice only once, whatever the second payload', async () => {
    const bus = await newBus();
    const { handler, acked } = recorder();
    await bus.consume({ durable: 'dedup', subject: 'events.>', maxBatch: 10, handler });
    const id = uuidv7();
    await bus.publish('events.click', encoder.encode('original'), id);
    await bus.publish('events.click', encoder.encode('original'), id);
    await bus.publish('events.click', encoder.encode('a retry with other bytes'), id);
    const [marker] = await publishAll(bus, 'events.click', ['after']);

    expect(await bus.drain(10_000)).toBe(true);
    expect(acked().map((s) => [s.id, s.text])).toEqual([
      [id, 'original'],
      [marker, 'after'],
    ]);
  });

  it('drains at once with nothing in flight, and not while a consumer keeps failing', async () => {
    const idle = await newBus();
    await idle.consume({ durable: 'idle', subject: 'events.>', maxBatch: 10, handler: recorder().handler });
    expect(await idle.drain(10_000)).toBe(true);

    const stuck = await newBus();
    const failing = recorder(() => true);
    await stuck.consume({ durable: 'stuck', subject: 'events.>', maxBatch: 10, handler: failing.handler });
    await publishAll(stuck, 'events.click', ['never acknowledged']);
    await eventually(async () => failing.calls.length > 0, 10_000, 'a failed delivery');
    expect(await stuck.drain(500)).toBe(false);
    expect((await stuck.stats()).pending.stuck).toBe(1);
  });

  it('gives every durable consumer of a subject its own copy', async () => {
    const bus = await newBus();
    const first = recorder();
    const second = recorder();
    await bus.consume({ durable: 'olap', subject: 'events.>', maxBatch: 10, handler: first.handler });
    await bus.consume({ durable: 'webhooks', subject: 'events.>', maxBatch: 10, handler: second.handler });
    const ids = await publishAll(bus, 'events.click', ['x', 'y', 'z']);

    expect(await bus.drain(10_000)).toBe(true);
    expect(first.acked().map((s) => s.id)).toEqual(ids);
    expect(second.acked().map((s) => s.id)).toEqual(ids);
    expect((await bus.stats()).pending).toEqual({ olap: 0, webhooks: 0 });
  });

  it('delivers to a consumer only the subjects its filter matches', async () => {
    const bus = await newBus();
    const clicks = recorder();
    const everything = recorder();
    const oneLevel = recorder();
    await bus.consume({ durable: 'clicks', subject: 'events.click', maxBatch: 10, handler: clicks.handler });
    await bus.consume({ durable: 'all', subject: 'events.>', maxBatch: 10, handler: everything.handler });
    await bus.consume({ durable: 'one-level', subject: 'events.*', maxBatch: 10, handler: oneLevel.handler });
    await publishAll(bus, 'events.api_request', ['api']);
    await publishAll(bus, 'work.click', ['work']);
    await publishAll(bus, 'events.click.web', ['deeper']);
    await publishAll(bus, 'events.click', ['click']);

    expect(await bus.drain(10_000)).toBe(true);
    expect(clicks.acked().map((s) => [s.subject, s.text])).toEqual([['events.click', 'click']]);
    expect(oneLevel.acked().map((s) => s.text)).toEqual(['api', 'click']);
    expect(everything.acked().map((s) => s.text)).toEqual(['api', 'deeper', 'click']);
  });

  it('broadcasts to onBroadcast listeners of the subject until they unsubscribe', async () => {
    const bus = await newBus();
    const heard: string[] = [];
    const other: string[] = [];
    const late: string[] = [];
    const stop = bus.onBroadcast('links.invalidate', (data) => heard.push(text(data)));
    bus.onBroadcast('domains.invalidate', (data) => other.push(text(data)));

    bus.broadcast('links.invalidate', encoder.encode('abc123'));
    await eventually(async () => heard.length === 1, 10_000, 'the broadcast');
    expect(heard).toEqual(['abc123']);

    stop();
    bus.onBroadcast('links.invalidate', (data) => late.push(text(data)));
    bus.broadcast('links.invalidate', encoder.encode('def456'));
    await eventually(async () => late.length === 1, 10_000, 'the second broadcast');
    expect(late).toEqual(['def456']);
    // The unsubscribed listener heard nothing more, and another subject's listener nothing at all.
    expect(heard).toEqual(['abc123']);
    expect(other).toEqual([]);
  });
});

describe.runIf(backend === 'embedded')('in-process bus batching', () => {
  it('handles a message after a quiet spell at once, and a steady stream in one batch per interval', async () => {
    const bus = await newBus();
    const { handler, calls } = recorder();
    // An interval long enough that a busy machine cannot blur waiting for it with not waiting.
    await bus.consume({ durable: 'paced', subject: 'events.>', maxBatch: 100, batchIntervalMs: 2_000, handler });
    await publishAll(bus, 'events.click', ['first']);
    await eventually(async () => calls.length === 1, 1_500, 'the first message at once');
    // Five more within the interval: they wait for it and go together.
    await publishAll(bus, 'events.click', ['b', 'c', 'd', 'e', 'f']);
    await new Promise((r) => setTimeout(r, 300));
    expect(calls).toHaveLength(1);
    await eventually(async () => calls.length === 2, 5_000, 'the second batch');
    expect(calls[1]!.seen.map((m) => m.text)).toEqual(['b', 'c', 'd', 'e', 'f']);
    // A drain does not wait for the interval.
    await publishAll(bus, 'events.click', ['g']);
    const started = Date.now();
    expect(await bus.drain(5_000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(calls.at(-1)!.seen.map((m) => m.text)).toEqual(['g']);
  });

  it('delivers a failed batch again exactly as it was, even when more messages arrived meanwhile', async () => {
    const bus = await newBus();
    const { handler, calls } = recorder((call) => call === 1);
    await bus.consume({ durable: 'same-again', subject: 'events.>', maxBatch: 100, handler });
    await publishAll(bus, 'events.click', ['a']);
    await eventually(async () => calls.length === 1, 2_000, 'the failing call');
    // Published during the back-off: not part of the retry.
    await publishAll(bus, 'events.click', ['b']);
    expect(await bus.drain(10_000)).toBe(true);
    expect(calls.map((c) => c.seen.map((m) => `${m.text}${m.deliveryCount}`))).toEqual([['a1'], ['a2'], ['b1']]);
  });
});

describe.runIf(backend === 'services')('NATS ack wait', () => {
  // Two instances share a durable consumer; the first one's handler outlasts the ack wait several
  // times over (a slow ClickHouse). The ack wait here is shorter than production's but longer than
  // a fetch's 1 s wait for more messages. The handler tells JetStream it is still working, so the
  // second instance is not handed the same messages meanwhile, and the batch is handled once.
  it('keeps a batch from other instances while its handler works past the ack wait', async () => {
    const namespace = `sp_bus_${process.pid}_${randomBytes(4).toString('hex')}`;
    const first = await newBus({ namespace, ackWaitMs: 2_500 });
    const second = await newBus({ namespace, ackWaitMs: 2_500 });
    const calls: string[] = [];
    const slow: BatchHandler = async (messages) => {
      calls.push(...messages.map((m) => `first:${text(m.data)}${m.deliveryCount}`));
      await new Promise((resolve) => setTimeout(resolve, 8_000));
    };
    await first.consume({ durable: 'shared', subject: 'events.>', maxBatch: 10, handler: slow });
    await publishAll(first, 'events.click', ['a']);
    await eventually(async () => calls.length === 1, 5_000, 'the first instance takes the message');
    await second.consume({
      durable: 'shared',
      subject: 'events.>',
      maxBatch: 10,
      handler: async (messages) => {
        calls.push(...messages.map((m) => `second:${text(m.data)}${m.deliveryCount}`));
      },
    });
    expect(await first.drain(20_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(calls).toEqual(['first:a1']);
  });
});
