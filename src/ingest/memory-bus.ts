// The in-process bus of the embedded default: the same contract as JetStream (per-consumer queues,
// ack after the handler resolves, redelivery with back-off, message-id deduplication window), with
// no server. With a folder (DATA_DIR/bus) it is durable like a stream: publish() resolves once the
// message is in the segment log, each consumer's acknowledgements are checkpointed, and a start
// delivers again, with deliveryCount > 1, whatever a consumer had not acknowledged, after a crash
// too. No queue blocks on its head (poison-policy.ts): a message that keeps failing while others
// succeed is parked in the dead-letter file. Consumers are registered at start, before anything is
// published. This file routes messages to the consumers' queues (memory-bus-queue.ts); the folder
// is memory-bus-store.ts's.
import { EventEmitter } from 'node:events';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import { createIdWindow } from './id-window.js';
import { startQueue, type MemoryQueue } from './memory-bus-queue.js';
import { openBusStore } from './memory-bus-store.js';
import { sleep, subjectMatches, type Bus, type BusMessage, type Consumer } from './bus.js';

export interface MemoryBusOptions {
  log: Logger;
  metrics?: Metrics;
  /** Where the log, the checkpoints and the dead letters live; without it nothing outlives the process. */
  dir?: string;
  /** fdatasync of the log at most this often (the loss bound on power failure); 0 at every write. */
  fsyncIntervalMs?: number;
  segmentBytes?: number;
  /** How often acknowledgements are checkpointed (a crash delivers this much again, never loses it). */
  checkpointIntervalMs?: number;
  /** Back-off of redeliveries: the first retry waits about retryBaseMs, growing to retryCapMs. */
  retryBaseMs?: number;
  retryCapMs?: number;
}

export function createMemoryBus(options: MemoryBusOptions): Bus {
  const log = options.log.child({ module: 'memory-bus' });
  const { metrics } = options;
  const queues = new Map<string, MemoryQueue>();
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const seenIds = createIdWindow();
  /** Publishes whose record is on its way to the file: a duplicate waits for the original. */
  const writing = new Map<string, Promise<void>>();
  let closed = false;

  const store = options.dir
    ? openBusStore({
        dir: options.dir,
        log,
        fsyncIntervalMs: options.fsyncIntervalMs ?? 1_000,
        segmentBytes: options.segmentBytes,
      })
    : undefined;
  /** The highest seq handed to the queues: every message up to it is queued or acknowledged. */
  let dispatchedSeq = store?.lastSeq() ?? 0;
  const checkpointTimer = store
    ? setInterval(() => store.saveCheckpoints(queues, dispatchedSeq, false), options.checkpointIntervalMs ?? 100)
    : undefined;
  checkpointTimer?.unref();

  metrics?.define(
    'bus_messages_parked_total',
    'counter',
    'Bus messages that kept failing while others succeeded, moved to the dead letters',
    { labels: { consumer: [] } },
  );
  if (store)
    metrics?.define('bus_log_segments', 'gauge', 'Segment files of the in-process bus log', {
      collect: () => [{ labels: {}, value: store.segmentCount() }],
    });

  /** Hands a message that reached the log to every queue whose filter matches, in seq order. */
  function dispatch(seq: number, id: string, subject: string, data: Uint8Array): void {
    dispatchedSeq = seq;
    for (const queue of queues.values())
      if (subjectMatches(queue.options.subject, subject))
        queue.push({ id, subject, data, deliveryCount: 1, seq, failures: 0 });
  }

  async function stopQueue(queue: MemoryQueue): Promise<void> {
    await queue.stop();
    const { durable } = queue.options;
    await store?.saveStopped(durable, queue.checkpoint(dispatchedSeq));
    queues.delete(durable);
  }

  async function deadLetter(message: BusMessage, reason: string): Promise<void> {
    log.error({ subject: message.subject, id: message.id, reason }, 'message dead-lettered');
    await store?.deadLetters.append({ subject: message.subject, id: message.id, reason, data: message.data });
  }

  return {
    kind: 'memory',
    async publish(subject, data, messageId) {
      if (closed) throw new Error('the bus is closed');
      if (!seenIds.remember(messageId)) {
        await writing.get(messageId);
        return;
      }
      if (!store) {
        dispatch(dispatchedSeq + 1, messageId, subject, data);
        return;
      }
      const written = store.append(messageId, subject, data).then(
        (seq) => dispatch(seq, messageId, subject, data),
        (err: unknown) => {
          // Not in the log: a retry with the same id must be taken.
          seenIds.forget(messageId);
          throw err;
        },
      );
      writing.set(messageId, written);
      try {
        await written;
      } finally {
        writing.delete(messageId);
      }
    },
    async consume(consumer) {
      const { durable } = consumer;
      if (queues.has(durable)) throw new Error(`consumer ${durable} exists already`);
      const unacknowledged = store?.unacknowledged(durable, consumer.subject) ?? {
        messages: [],
        replayedThrough: dispatchedSeq,
        ackedAhead: [],
      };
      if (unacknowledged.messages.length > 0)
        log.info(
          { durable, messages: unacknowledged.messages.length },
          'delivering again what was not acknowledged before the restart',
        );
      metrics?.inc('bus_messages_parked_total', { consumer: durable }, 0);
      const queue = startQueue({
        consumer,
        log,
        retryBaseMs: options.retryBaseMs ?? 100,
        retryCapMs: options.retryCapMs ?? 10_000,
        restored: unacknowledged.messages,
        replayedThrough: unacknowledged.replayedThrough,
        ackedAhead: unacknowledged.ackedAhead,
        deadLetter,
        onParked: () => metrics?.inc('bus_messages_parked_total', { consumer: durable }),
      });
      queues.set(durable, queue);
      return { durable, stop: () => stopQueue(queue) } satisfies Consumer;
    },
    deadLetter,
    ...(store ? { recentDeadLetters: (limit: number) => store.deadLetters.recent(limit) } : {}),
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
      for (const q of queues.values()) q.hurry();
      for (;;) {
        const all = [...queues.values()];
        if (all.every((q) => q.idle())) return true;
        // A queue whose deliveries keep failing while the drain retries them keeps its messages in
        // the log for the next start: waiting for them would only hold a stop up until its deadline.
        if (all.every((q) => q.idle() || q.stuck()) || Date.now() >= deadline) {
          for (const q of all) q.relax();
          return false;
        }
        await sleep(10);
      }
    },
    async stats() {
      return { pending: Object.fromEntries([...queues].map(([name, q]) => [name, q.size()])) };
    },
    async close() {
      closed = true;
      await Promise.all([...queues.values()].map(stopQueue));
      if (checkpointTimer) clearInterval(checkpointTimer);
      if (store) {
        store.saveCheckpoints(queues, dispatchedSeq, true);
        await store.close();
      }
      emitter.removeAllListeners();
    },
  };
}
