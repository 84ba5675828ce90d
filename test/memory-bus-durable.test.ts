// The in-process bus on its folder (what DATA_DIR/bus holds): a publish is on disk once it
// resolves, a new bus on the folder delivers again what was not acknowledged (with the same ids and
// a delivery count above 1), acknowledged segments are deleted, and no queue blocks on its head: a
// poison message is parked in the dead-letter file while a store that refuses everything parks
// nothing. Back-offs are made small through the bus's options.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchHandler, Bus, BusMessage } from '../src/ingest/bus.js';
import { createMemoryBus, type MemoryBusOptions } from '../src/ingest/memory-bus.js';
import { uuidv7 } from '../src/shared/ids.js';
import { createLogger } from '../src/shared/logger.js';
import { createMetrics } from '../src/shared/metrics.js';
import { eventually } from './support/service.js';

const log = createLogger({ level: 'silent', pretty: false });
const encoder = new TextEncoder();
const text = (m: BusMessage) => new TextDecoder().decode(m.data);
const dirs: string[] = [];
const open: Bus[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-bus-'));
  dirs.push(dir);
  return dir;
}

function newBus(dir: string, extra: Partial<MemoryBusOptions> = {}): Bus {
  const bus = createMemoryBus({ log, dir, retryBaseMs: 5, retryCapMs: 40, checkpointIntervalMs: 10, ...extra });
  open.push(bus);
  return bus;
}

/** A bus left as a killed process leaves it: never closed (its hanging handlers never return). */
function crash(bus: Bus): Bus {
  open.splice(open.indexOf(bus), 1);
  return bus;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((bus) => bus.close().catch(() => {})));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function publishAll(bus: Bus, bodies: string[], subject = 'events.click'): Promise<string[]> {
  const ids: string[] = [];
  for (const body of bodies) {
    const id = uuidv7();
    await bus.publish(subject, encoder.encode(body), id);
    ids.push(id);
  }
  return ids;
}

/** Records every call; `fail(message)` decides whether a call with that message throws. */
function recorder(fail: (m: BusMessage) => boolean = () => false) {
  const calls: { ids: string[]; counts: number[]; failed: boolean }[] = [];
  const handler: BatchHandler = async (messages) => {
    const failed = messages.some(fail);
    calls.push({ ids: messages.map((m) => m.id), counts: messages.map((m) => m.deliveryCount), failed });
    if (failed) throw new Error(`refused ${messages.filter(fail).map(text).join(',')}`);
  };
  const acked = () => calls.filter((c) => !c.failed).flatMap((c) => c.ids);
  return { handler, calls, acked };
}

const deadLetterLines = (dir: string) => {
  const file = path.join(dir, 'dead-letters.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { subject: string; id: string; reason: string; data: string; time: string });
};

describe('in-process bus on disk', () => {
  it('delivers again, after a crash, what a consumer had not acknowledged: same ids, delivery count above 1', async () => {
    const dir = tempDir();
    const crashed = crash(newBus(dir));
    const acked: string[] = [];
    await crashed.consume({
      durable: 'olap',
      subject: 'events.>',
      maxBatch: 3,
      handler: async (messages) => {
        // a, b and c are acknowledged; from d on the handler hangs, as if the process died in it.
        if (messages.some((m) => text(m) > 'c')) return new Promise<void>(() => {});
        acked.push(...messages.map((m) => m.id));
      },
    });
    const ids = await publishAll(crashed, ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    await eventually(async () => acked.length === 3, 5_000, 'the first batch');
    // Its checkpoint reaches the disk within the checkpoint interval.
    await eventually(
      async () => {
        const file = path.join(dir, 'consumers', 'olap.json');
        return fs.existsSync(file) && (JSON.parse(fs.readFileSync(file, 'utf8')) as { through: number }).through >= 3;
      },
      5_000,
      'the checkpoint',
    );

    // A new process on the same folder (the crashed one is never closed).
    const restarted = newBus(dir);
    const seen: { id: string; text: string; deliveryCount: number }[] = [];
    await restarted.consume({
      durable: 'olap',
      subject: 'events.>',
      maxBatch: 100,
      handler: async (messages) =>
        void seen.push(...messages.map((m) => ({ id: m.id, text: text(m), deliveryCount: m.deliveryCount }))),
    });
    expect(await restarted.drain(5_000)).toBe(true);
    expect(seen.map((s) => s.id)).toEqual(ids.slice(3));
    expect(seen.map((s) => s.text)).toEqual(['d', 'e', 'f', 'g']);
    for (const s of seen) expect(s.deliveryCount).toBeGreaterThan(1);
    // New messages after the restart are first deliveries.
    const [late] = await publishAll(restarted, ['h']);
    expect(await restarted.drain(5_000)).toBe(true);
    expect(seen.at(-1)).toEqual({ id: late, text: 'h', deliveryCount: 1 });
  });

  it('gives each consumer what it missed, and nothing another one acknowledged', async () => {
    const dir = tempDir();
    const first = crash(newBus(dir));
    const fast = recorder();
    await first.consume({ durable: 'fast', subject: 'events.>', maxBatch: 10, handler: fast.handler });
    await first.consume({
      durable: 'stuck',
      subject: 'events.click',
      maxBatch: 10,
      handler: () => new Promise<void>(() => {}),
    });
    const ids = await publishAll(first, ['1', '2']);
    await publishAll(first, ['api'], 'events.api_request');
    await eventually(async () => fast.acked().length === 3, 5_000, 'the fast consumer');
    // Its checkpoint on disk covers all three (seqs 1 to 3): an earlier save may hold fewer acks.
    const checkpoint = path.join(dir, 'consumers', 'fast.json');
    await eventually(
      async () => fs.existsSync(checkpoint) && JSON.parse(fs.readFileSync(checkpoint, 'utf8')).through >= 3,
      5_000,
      'its checkpoint through the third message',
    );

    const second = newBus(dir);
    const fastAgain = recorder();
    const stuckAgain = recorder();
    await second.consume({ durable: 'fast', subject: 'events.>', maxBatch: 10, handler: fastAgain.handler });
    await second.consume({ durable: 'stuck', subject: 'events.click', maxBatch: 10, handler: stuckAgain.handler });
    expect(await second.drain(5_000)).toBe(true);
    expect(fastAgain.calls).toEqual([]);
    expect(stuckAgain.acked()).toEqual(ids);
  });

  it('deletes the log segments every consumer has acknowledged', async () => {
    const dir = tempDir();
    const bus = newBus(dir, { segmentBytes: 2_000 });
    await bus.consume({ durable: 'all', subject: 'events.>', maxBatch: 50, handler: recorder().handler });
    const segments = () => fs.readdirSync(path.join(dir, 'log')).filter((f) => f.endsWith('.seg')).length;
    await publishAll(
      bus,
      Array.from({ length: 60 }, (_, i) => `${i}`.padEnd(200, '.')),
    );
    expect(await bus.drain(5_000)).toBe(true);
    await eventually(async () => segments() === 1, 5_000, 'acknowledged segments deleted');
    await bus.close();
    // Nothing is delivered again: it was all acknowledged.
    const again = newBus(dir);
    const after = recorder();
    await again.consume({ durable: 'all', subject: 'events.>', maxBatch: 50, handler: after.handler });
    expect(await again.drain(5_000)).toBe(true);
    expect(after.calls).toEqual([]);
  });

  it('parks a message that keeps failing while the others succeed, in the dead-letter file', async () => {
    const dir = tempDir();
    const metrics = createMetrics();
    const bus = newBus(dir, { metrics });
    const poisonBody = 'poison';
    const { handler, calls, acked } = recorder((m) => text(m) === poisonBody);
    await bus.consume({ durable: 'olap-clicks', subject: 'events.>', maxBatch: 10, handler });
    const ids = await publishAll(bus, ['a', 'b', poisonBody, 'c', 'd']);
    const poisonId = ids[2]!;
    await eventually(async () => deadLetterLines(dir).length === 1, 10_000, 'the dead letter');
    // Published after the poison was found: they pass too.
    const later = await publishAll(bus, ['e', 'f']);
    expect(await bus.drain(5_000)).toBe(true);

    expect(acked().sort()).toEqual([...ids.filter((id) => id !== poisonId), ...later].sort());
    expect(acked()).not.toContain(poisonId);
    const [letter] = deadLetterLines(dir);
    expect(letter).toMatchObject({ subject: 'events.click', id: poisonId });
    expect(letter!.reason).toContain('refused poison');
    expect(Buffer.from(letter!.data, 'base64').toString()).toBe(poisonBody);
    expect(await metrics.get('bus_messages_parked_total', { consumer: 'olap-clicks' })).toBe(1);
    // The poison was tried alone several times before it was parked.
    expect(calls.filter((c) => c.ids.length === 1 && c.ids[0] === poisonId).length).toBeGreaterThanOrEqual(5);

    // Parked means acknowledged: not delivered again after a restart.
    await bus.close();
    const again = newBus(dir);
    const after = recorder();
    await again.consume({ durable: 'olap-clicks', subject: 'events.>', maxBatch: 10, handler: after.handler });
    expect(await again.drain(5_000)).toBe(true);
    expect(after.calls).toEqual([]);
  });

  it('parks two poison messages at the head of a batch and delivers the messages behind them', async () => {
    const dir = tempDir();
    const bus = newBus(dir);
    const { handler, acked } = recorder((m) => text(m).startsWith('poison'));
    await bus.consume({ durable: 'olap', subject: 'events.>', maxBatch: 10, handler });
    const ids = ['poison-1', 'poison-2', 'a', 'b'].map(() => uuidv7());
    await Promise.all(
      ids.map((id, i) => bus.publish('events.click', encoder.encode(['poison-1', 'poison-2', 'a', 'b'][i]!), id)),
    );
    await eventually(async () => acked().length === 2, 10_000, 'the messages behind the poison');
    // Traffic that comes later passes too, and is the evidence that parks the poison.
    const later = await publishAll(bus, ['c', 'd', 'e', 'f', 'g', 'h']);
    await eventually(async () => deadLetterLines(dir).length === 2, 10_000, 'both dead letters');
    expect(await bus.drain(5_000)).toBe(true);
    expect(acked().sort()).toEqual([...ids.slice(2), ...later].sort());
    expect(
      deadLetterLines(dir)
        .map((l) => l.id)
        .sort(),
    ).toEqual(ids.slice(0, 2).sort());
  });

  it('parks nothing while every message fails (the store is down) and delivers all, in batches again, once it heals', async () => {
    const dir = tempDir();
    const metrics = createMetrics();
    const bus = newBus(dir, { metrics });
    let healthy = false;
    const { handler, calls, acked } = recorder(() => !healthy);
    await bus.consume({ durable: 'olap', subject: 'events.>', maxBatch: 6, handler });
    // Published together: one batch of six fails, and all six become suspects.
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'].map(() => uuidv7());
    await Promise.all(ids.map((id, i) => bus.publish('events.click', encoder.encode('abcdef'[i]!), id)));
    // Long enough for the isolation and many passes at the small back-off.
    await eventually(async () => calls.length >= 25, 10_000, 'many failed deliveries');
    healthy = true;
    await eventually(async () => acked().length === ids.length, 10_000, 'every message after the store healed');
    expect(acked().sort()).toEqual([...ids].sort());
    expect(new Set(acked()).size).toBe(ids.length);
    // One message alone shows the store is back; the rest goes together, not one insert each.
    expect(calls[0]!.ids).toHaveLength(6);
    expect(calls.filter((c) => !c.failed).length).toBeLessThanOrEqual(2);
    expect(deadLetterLines(dir)).toEqual([]);
    expect(await metrics.get('bus_messages_parked_total', { consumer: 'olap' })).toBe(0);
  });

  it('drains everything once a store that was down is back, however often the head failed before the drain', async () => {
    const dir = tempDir();
    // Production back-offs: after an outage the next retry may be seconds away.
    const bus = newBus(dir, { retryBaseMs: 100, retryCapMs: 10_000 });
    let healthy = false;
    const { handler, calls, acked } = recorder(() => !healthy);
    await bus.consume({ durable: 'olap', subject: 'events.>', maxBatch: 10, handler });
    const ids = await publishAll(bus, ['a', 'b', 'c']);
    await eventually(async () => calls.length >= 5, 15_000, 'the outage failed the head several times');
    healthy = true;
    // The drain retries at once rather than give the head up for failures from before it began.
    expect(await bus.drain(60_000)).toBe(true);
    expect(acked().sort()).toEqual([...ids].sort());
    expect(deadLetterLines(dir)).toEqual([]);
  });

  it('drains promptly with a poison head, which stays in the log for the next start', async () => {
    const dir = tempDir();
    // A back-off of seconds, as in production: drain must not wait it out.
    const bus = newBus(dir, { retryBaseMs: 100, retryCapMs: 10_000 });
    const { handler } = recorder(() => true);
    await bus.consume({ durable: 'olap', subject: 'events.>', maxBatch: 10, handler });
    const [poison] = await publishAll(bus, ['never']);
    // A minute of deadline: returning only at the deadline would fail the test by its timeout.
    expect(await bus.drain(60_000)).toBe(false);
    await bus.close();

    const again = newBus(dir);
    const after = recorder();
    await again.consume({ durable: 'olap', subject: 'events.>', maxBatch: 10, handler: after.handler });
    expect(await again.drain(5_000)).toBe(true);
    expect(after.acked()).toEqual([poison]);
  });
});
