// The in-process bus of the embedded default: the same contract as JetStream (per-consumer queues,
// ack after the handler resolves, redelivery with back-off, message-id deduplication window), with
// no server. Consumers are registered at start, before anything is published. With a spool folder,
// what a consumer has not acknowledged at close is kept on disk and delivered after the restart:
// the in-process bus is not durable against a crash, but a graceful stop loses nothing.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { Logger } from '../shared/logger.js';
import { createSpool } from './spool.js';
import { backoffMs, sleep, subjectMatches, type Bus, type BusMessage, type Consumer, type ConsumerOptions } from './bus.js';

interface Queue {
  options: ConsumerOptions;
  messages: BusMessage[];
  /** Wakes the loop when a message arrives. */
  wake: (() => void) | undefined;
  busy: boolean;
  stopped: boolean;
  /** When the last batch started (for batchIntervalMs). */
  lastBatchAt: number;
  /** Set by drain: batches go at once until the queue is empty. */
  hurry: boolean;
  /** Cuts a retry back-off short when the consumer stops. */
  halt: AbortController;
  done: Promise<void>;
}

const DEDUP_WINDOW_MS = 120_000;

export function createMemoryBus(options: { log: Logger; spoolDir?: string }): Bus {
  const log = options.log.child({ module: 'memory-bus' });
  const queues = new Map<string, Queue>();
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const seenIds = new Map<string, number>();
  const deadLetters: { message: BusMessage; reason: string }[] = [];

  function remember(id: string): boolean {
    const now = Date.now();
    if (seenIds.has(id)) return false;
    seenIds.set(id, now);
    // Map iteration is insertion order: expire from the front.
    for (const [key, at] of seenIds) {
      if (now - at < DEDUP_WINDOW_MS) break;
      seenIds.delete(key);
    }
    return true;
  }

  /** Keeps what a stopped consumer had not acknowledged for the next start (with a spool folder). */
  function park(queue: Queue): void {
    if (!options.spoolDir || queue.messages.length === 0) return;
    const spool = createSpool(path.join(options.spoolDir, queue.options.durable));
    for (const m of queue.messages.splice(0)) spool.put({ id: m.id, subject: m.subject, data: m.data, count: 0 });
    log.warn({ durable: queue.options.durable, messages: spool.count() }, 'kept unacknowledged messages on disk for the next start');
  }

  /** Resolves after `ms`, or earlier when the queue is woken (a publish, a drain, a stop). */
  function pause(queue: Queue, ms?: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => queue.wake?.(), ms);
      queue.wake = () => {
        clearTimeout(timer);
        queue.wake = undefined;
        resolve();
      };
    });
  }

  async function run(queue: Queue): Promise<void> {
    let failures = 0;
    // A failed batch is delivered again as it was, so its retry carries the same message ids.
    let retrySize = 0;
    const { maxBatch, batchIntervalMs = 0 } = queue.options;
    while (!queue.stopped) {
      if (queue.messages.length === 0) {
        queue.hurry = false;
        await pause(queue);
        continue;
      }
      const due = queue.lastBatchAt + batchIntervalMs - Date.now();
      if (retrySize === 0 && due > 0 && queue.messages.length < maxBatch && !queue.hurry) {
        await pause(queue, due);
        continue;
      }
      const batch = queue.messages.slice(0, retrySize || maxBatch);
      queue.busy = true;
      queue.lastBatchAt = Date.now();
      try {
        await queue.options.handler(batch);
        queue.messages.splice(0, batch.length);
        failures = 0;
        retrySize = 0;
      } catch (err) {
        failures++;
        retrySize = batch.length;
        for (const m of batch) m.deliveryCount++;
        const delay = backoffMs(failures);
        log.warn({ err, durable: queue.options.durable, size: batch.length, delay }, 'batch failed, will redeliver');
        await sleep(delay, queue.halt.signal);
      } finally {
        queue.busy = false;
      }
    }
  }

  return {
    kind: 'memory',
    async publish(subject, data, messageId) {
      if (!remember(messageId)) return;
      for (const queue of queues.values()) {
        if (queue.stopped || !subjectMatches(queue.options.subject, subject)) continue;
        queue.messages.push({ id: messageId, subject, data, deliveryCount: 1 });
        queue.wake?.();
      }
    },
    async consume(consumerOptions) {
      if (queues.has(consumerOptions.durable)) throw new Error(`consumer ${consumerOptions.durable} exists already`);
      const queue: Queue = {
        options: consumerOptions, messages: [], wake: undefined, busy: false, stopped: false,
        lastBatchAt: 0, hurry: false, halt: new AbortController(), done: Promise.resolve(),
      };
      if (options.spoolDir) {
        // Messages this consumer had not acknowledged when the previous run stopped.
        const spool = createSpool(path.join(options.spoolDir, consumerOptions.durable));
        for (let kept = spool.peek(); kept; kept = spool.peek()) {
          queue.messages.push({ id: kept.id, subject: kept.subject, data: kept.data, deliveryCount: 1 });
          spool.remove(kept.id);
        }
        if (queue.messages.length > 0) log.info({ durable: consumerOptions.durable, messages: queue.messages.length }, 'restored unacknowledged messages');
      }
      queue.done = run(queue);
      queues.set(consumerOptions.durable, queue);
      const consumer: Consumer = {
        durable: consumerOptions.durable,
        async stop() {
          queue.stopped = true;
          queue.halt.abort();
          queue.wake?.();
          await queue.done;
          park(queue);
          queues.delete(consumerOptions.durable);
        },
      };
      return consumer;
    },
    async deadLetter(message, reason) {
      deadLetters.push({ message, reason });
      if (deadLetters.length > 1000) deadLetters.shift();
      log.error({ subject: message.subject, id: message.id, reason }, 'message dead-lettered');
    },
    broadcast(subject, data) {
      // Asynchronous like the network would be, so a listener never runs inside the caller.
      queueMicrotask(() => emitter.emit(subject, data));
    },
    onBroadcast(subject, listener) {
      emitter.on(subject, listener);
      return () => emitter.off(subject, listener);
    },
    async drain(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (const q of queues.values()) {
        q.hurry = true;
        q.wake?.();
      }
      while (Date.now() < deadline) {
        const idle = [...queues.values()].every((q) => q.messages.length === 0 && !q.busy);
        if (idle) return true;
        await sleep(10);
      }
      return false;
    },
    async stats() {
      return { pending: Object.fromEntries([...queues].map(([name, q]) => [name, q.messages.length])) };
    },
    async close() {
      await Promise.all([...queues.values()].map(async (q) => {
        q.stopped = true;
        q.halt.abort();
        q.wake?.();
        await q.done;
        park(q);
      }));
      queues.clear();
      emitter.removeAllListeners();
    },
  };
}
