// The in-process bus of the embedded default: the same contract as JetStream (per-consumer queues,
// ack after the handler resolves, redelivery with back-off, message-id deduplication window), with
// no server. With a folder (DATA_DIR/bus) it is durable like a stream: publish() resolves once the
// message is in the segment log, each consumer's acknowledgements are checkpointed, and a start
// delivers again, with deliveryCount > 1, whatever a consumer had not acknowledged, after a crash
// too. No queue blocks on its head: a message that keeps failing while others succeed is parked in
// the dead-letter file (the rule next to ISOLATE_AFTER_FAILURES in bus.ts). Consumers are registered
// at start, before anything is published.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import { createCheckpoints, type Checkpoint, type Checkpoints } from './bus-checkpoints.js';
import { createDeadLetterFile, type DeadLetterFile } from './dead-letter-file.js';
import { openSegmentLog, type SegmentLog } from './segment-log.js';
import { createSpool, type Spool } from './spool.js';
import {
  backoffMs,
  ISOLATE_AFTER_FAILURES,
  MAX_HELD_BATCHES,
  PARK_AFTER_FAILURES,
  sleep,
  subjectMatches,
  WaitForMore,
  type Bus,
  type BusMessage,
  type Consumer,
  type ConsumerOptions,
} from './bus.js';

export interface MemoryBusOptions {
  log: Logger;
  metrics?: Metrics;
  /** Where the log, the checkpoints and the dead letters live; without it nothing outlives the process. */
  dir?: string;
  /** The spool folder where earlier versions kept unacknowledged messages at a graceful stop. */
  legacySpoolDir?: string;
  /** fdatasync of the log at most this often (the loss bound on power failure); 0 at every write. */
  fsyncIntervalMs?: number;
  segmentBytes?: number;
  /** How often acknowledgements are checkpointed (a crash delivers this much again, never loses it). */
  checkpointIntervalMs?: number;
  /** Back-off of redeliveries: the first retry waits about retryBaseMs, growing to retryCapMs. */
  retryBaseMs?: number;
  retryCapMs?: number;
}

interface Pending extends BusMessage {
  /** Position in the log; 0 for a message of an earlier version's spool. */
  seq: number;
  /** Failed deliveries in a row. */
  failures: number;
  /** Failures alone in an isolation pass where another message succeeded alone. */
  strikes: number;
  lastError: string;
}

interface Queue {
  options: ConsumerOptions;
  messages: Pending[];
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
  /** Ends the retry back-off under way, if any (a drain retries at once). */
  cutBackOff: (() => void) | undefined;
  /** Deliveries that failed since the last one that succeeded (or since a drain began). */
  failedInARow: number;
  done: Promise<void>;
  /** Seqs acknowledged while an older message of this queue is still pending. */
  ackedAhead: Set<number>;
  /** The start replayed the log up to here; live messages come after. */
  replayedThrough: number;
  /** Acknowledged something since the last checkpoint. */
  dirty: boolean;
  spool: Spool | undefined;
}

interface Store {
  log: SegmentLog;
  checkpoints: Checkpoints;
  /** Checkpoints on disk, of consumers of this run (updated when they stop) and of earlier runs. */
  saved: Map<string, Checkpoint>;
  deadLetters: DeadLetterFile;
}

const DEDUP_WINDOW_MS = 120_000;
/** The longest retry back-off while a drain waits. */
const HURRIED_RETRY_MS = 200;

export function createMemoryBus(options: MemoryBusOptions): Bus {
  const log = options.log.child({ module: 'memory-bus' });
  const { metrics } = options;
  const retryBaseMs = options.retryBaseMs ?? 100;
  const retryCapMs = options.retryCapMs ?? 10_000;
  const queues = new Map<string, Queue>();
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const seenIds = new Map<string, number>();
  /** Checkpoint writes under way, by consumer. */
  const saving = new Map<string, Promise<void>>();
  /** Publishes whose record is on its way to the file: a duplicate waits for the original. */
  const writing = new Map<string, Promise<void>>();
  /** The highest seq handed to the queues: every message up to it is queued or acknowledged. */
  let dispatchedSeq = 0;
  let closed = false;

  const store = options.dir ? openStore(options.dir) : undefined;
  dispatchedSeq = store?.log.lastSeq() ?? 0;
  const checkpointTimer = store
    ? setInterval(() => saveCheckpoints(false), options.checkpointIntervalMs ?? 100)
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
      collect: () => [{ labels: {}, value: store.log.segmentCount() }],
    });

  function openStore(dir: string): Store {
    const checkpoints = createCheckpoints(path.join(dir, 'consumers'));
    const saved = checkpoints.all();
    let highest = 0;
    for (const c of saved.values()) highest = Math.max(highest, c.through, ...c.acked);
    const segmentLog = openSegmentLog({
      dir: path.join(dir, 'log'),
      log,
      fsyncIntervalMs: options.fsyncIntervalMs ?? 1_000,
      segmentBytes: options.segmentBytes,
      minNextSeq: highest + 1,
    });
    return {
      log: segmentLog,
      checkpoints,
      saved,
      deadLetters: createDeadLetterFile(path.join(dir, 'dead-letters.jsonl')),
    };
  }

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

  /** Hands a message that reached the log to every queue whose filter matches, in seq order. */
  function dispatch(seq: number, id: string, subject: string, data: Uint8Array): void {
    dispatchedSeq = seq;
    for (const queue of queues.values()) {
      if (queue.stopped || seq <= queue.replayedThrough || !subjectMatches(queue.options.subject, subject)) continue;
      queue.messages.push({ id, subject, data, deliveryCount: 1, seq, failures: 0, strikes: 0, lastError: '' });
      queue.wake?.();
    }
  }

  /** The oldest message of the queue that is in the log. */
  function oldestSeq(queue: Queue): number | undefined {
    for (const m of queue.messages) if (m.seq > 0) return m.seq;
    return undefined;
  }

  function checkpointOf(queue: Queue): Checkpoint {
    const oldest = oldestSeq(queue);
    const through = oldest === undefined ? Math.max(dispatchedSeq, queue.replayedThrough) : oldest - 1;
    for (const seq of queue.ackedAhead) if (seq <= through) queue.ackedAhead.delete(seq);
    return { through, acked: [...queue.ackedAhead] };
  }

  /** Writes the checkpoints that moved, and deletes the segments every consumer is past. */
  function saveCheckpoints(sync: boolean): void {
    if (!store) return;
    let floor = Infinity;
    for (const [durable, queue] of queues) {
      const checkpoint = checkpointOf(queue);
      floor = Math.min(floor, checkpoint.through);
      // One write at a time per consumer: an older one finishing last would move it back.
      if (!queue.dirty || saving.has(durable)) continue;
      queue.dirty = false;
      if (sync) {
        store.checkpoints.saveSync(durable, checkpoint);
        continue;
      }
      const written = store.checkpoints
        .save(durable, checkpoint)
        .catch((err) => log.warn({ err, durable }, 'could not write a bus checkpoint'))
        .finally(() => saving.delete(durable));
      saving.set(durable, written);
    }
    // A consumer of an earlier run that has not started (yet) in this one keeps what it has not read.
    for (const [durable, checkpoint] of store.saved)
      if (!queues.has(durable)) floor = Math.min(floor, checkpoint.through);
    if (floor !== Infinity) store.log.release(floor);
  }

  function acknowledge(queue: Queue, done: Pending[]): void {
    const { messages } = queue;
    if (done.every((m, i) => messages[i] === m)) messages.splice(0, done.length);
    else
      for (const m of done) {
        const at = messages.indexOf(m);
        if (at >= 0) messages.splice(at, 1);
      }
    const oldest = oldestSeq(queue);
    for (const m of done) {
      if (m.seq === 0) queue.spool?.remove(m.id);
      else if (oldest !== undefined && m.seq > oldest) queue.ackedAhead.add(m.seq);
    }
    queue.dirty = true;
  }

  function failed(batch: Pending[], err: unknown): void {
    const reason = err instanceof Error ? err.message : String(err);
    for (const m of batch) {
      m.deliveryCount++;
      m.failures++;
      m.lastError = reason;
    }
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

  /**
   * Waits before a retry: the back-off, or at most HURRIED_RETRY_MS while a drain waits, so a
   * store that came back is written at once and a head that still fails is known quickly. A
   * publish does not cut it short (traffic must not turn an outage into a retry storm); a drain
   * or a stop does.
   */
  function backOff(queue: Queue, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const end = () => {
        clearTimeout(timer);
        queue.halt.signal.removeEventListener('abort', end);
        queue.cutBackOff = undefined;
        resolve();
      };
      const timer = setTimeout(end, queue.hurry ? Math.min(ms, HURRIED_RETRY_MS) : ms);
      queue.halt.signal.addEventListener('abort', end, { once: true });
      queue.cutBackOff = end;
    });
  }

  /** Hands a batch over: true when it was acknowledged, false when it failed, 'wait' when the handler waits for more (WaitForMore). */
  async function deliver(queue: Queue, batch: Pending[]): Promise<boolean | 'wait'> {
    queue.busy = true;
    queue.lastBatchAt = Date.now();
    try {
      await queue.options.handler(batch);
      acknowledge(queue, batch);
      queue.failedInARow = 0;
      return true;
    } catch (err) {
      if (err instanceof WaitForMore) return 'wait';
      queue.failedInARow++;
      failed(batch, err);
      if (batch.length > 1 || batch[0]!.failures === 1)
        log.warn({ err, durable: queue.options.durable, size: batch.length }, 'batch failed, will redeliver');
      return false;
    } finally {
      queue.busy = false;
    }
  }

  /** Dead-letters a message that keeps failing while others pass, and acknowledges it. */
  async function park(queue: Queue, message: Pending): Promise<boolean> {
    const reason = `failed ${message.failures} deliveries, ${message.strikes} of them alone while others succeeded: ${message.lastError}`;
    try {
      await deadLetter(message, reason);
    } catch (err) {
      log.error(
        { err, durable: queue.options.durable, id: message.id },
        'could not park a failing message, will retry',
      );
      return false;
    }
    acknowledge(queue, [message]);
    metrics?.inc('bus_messages_parked_total', { consumer: queue.options.durable });
    return true;
  }

  /**
   * One isolation pass: each suspect alone, in order. Two failures alone before any success mean
   * the store is down, not the messages: the pass stops there. A lone failing suspect is checked
   * against the message behind it, when there is one. A failure counts as a strike only with
   * `evidence` that the store works: a success in this pass, or in an earlier one of the episode
   * with no pass since where everything failed. After such a pass (`afterOutage`), a first
   * delivery that succeeds means the store is back: the pass ends there (`healed`) and the rest
   * goes in batches again rather than one insert per message.
   */
  async function isolationPass(
    queue: Queue,
    suspects: Pending[],
    evidence: boolean,
    afterOutage: boolean,
  ): Promise<{ left: Pending[]; succeeded: boolean; allFailed: boolean; healed: boolean }> {
    let succeeded = false;
    let probeFailed = false;
    const failing: Pending[] = [];
    let tried = 0;
    const waiting: Pending[] = [];
    for (const m of suspects) {
      if (queue.stopped || (!succeeded && failing.length >= 2)) break;
      tried++;
      const outcome = await deliver(queue, [m]);
      // Waiting for other messages is no fault of this one: it is tried again in the next pass.
      if (outcome === 'wait') waiting.push(m);
      else if (outcome) succeeded = true;
      else failing.push(m);
      if (afterOutage && tried === 1 && succeeded)
        return { left: suspects.slice(1), succeeded, allFailed: false, healed: true };
    }
    if (!succeeded && failing.length === 1 && !queue.stopped) {
      const suspected = new Set(suspects);
      const probe = queue.messages.find((m) => !suspected.has(m));
      if (probe) {
        const outcome = await deliver(queue, [probe]);
        if (outcome === true) succeeded = true;
        else if (outcome === false) probeFailed = true;
      }
    }
    const allFailed = !succeeded && (failing.length >= 2 || probeFailed);
    const parked = new Set<Pending>();
    if (succeeded || (evidence && !allFailed)) {
      for (const m of failing) {
        m.strikes++;
        if (m.strikes >= PARK_AFTER_FAILURES && (await park(queue, m))) parked.add(m);
      }
    }
    const left = [...failing.filter((m) => !parked.has(m)), ...waiting, ...suspects.slice(tried)];
    return { left, succeeded, allFailed, healed: false };
  }

  async function run(queue: Queue): Promise<void> {
    let failures = 0;
    // A failed batch is delivered again as it was, so its retry carries the same message ids.
    let retrySize = 0;
    // After ISOLATE_AFTER_FAILURES failures, the messages of the batch are tried one at a time.
    let suspects: Pending[] | undefined;
    // Whether a message succeeded alone in this isolation episode since everything last failed.
    let evidence = false;
    // Whether the last isolation pass failed throughout (the store looked down).
    let outage = false;
    const { maxBatch, batchIntervalMs = 0, durable } = queue.options;
    while (!queue.stopped) {
      if (suspects) {
        const pass = await isolationPass(queue, suspects, evidence, outage);
        evidence = pass.succeeded || (evidence && !pass.allFailed);
        outage = pass.allFailed;
        suspects = pass.left.length > 0 && !pass.healed ? pass.left : undefined;
        if (!suspects) {
          evidence = false;
          outage = false;
          failures = 0;
          retrySize = 0;
          continue;
        }
        // Progress keeps the passes quick; a store that refuses everything is left to heal.
        failures = pass.succeeded ? 1 : failures + 1;
        await backOff(queue, backoffMs(failures, retryBaseMs, retryCapMs));
        continue;
      }
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
      const outcome = await deliver(queue, batch);
      if (outcome === 'wait') {
        // The same messages again, with what arrived behind them, once more could have come.
        const grown = Math.min(MAX_HELD_BATCHES * maxBatch, batch.length + maxBatch);
        if (queue.messages.length <= batch.length || grown === batch.length) await backOff(queue, 1_000);
        retrySize = Math.min(grown, Math.max(batch.length, queue.messages.length));
        continue;
      }
      if (outcome) {
        failures = 0;
        retrySize = 0;
        continue;
      }
      failures++;
      retrySize = batch.length;
      if (failures >= ISOLATE_AFTER_FAILURES) {
        log.warn({ durable, size: batch.length }, 'batch keeps failing: delivering its messages one at a time');
        suspects = batch;
        failures = 0;
        continue;
      }
      await backOff(queue, backoffMs(failures, retryBaseMs, retryCapMs));
    }
  }

  /** Messages this consumer had not acknowledged: an earlier version's spool, then the log. */
  function restore(queue: Queue): void {
    const { durable, subject } = queue.options;
    const legacy = options.legacySpoolDir && path.join(options.legacySpoolDir, durable);
    if (legacy && fs.existsSync(legacy)) {
      // Kept until acknowledged (each file removed on ack), so a crash meanwhile loses none.
      queue.spool = createSpool(legacy);
      for (const kept of queue.spool.all()) {
        queue.messages.push({
          id: kept.id,
          subject: kept.subject,
          data: kept.data,
          deliveryCount: 2,
          seq: 0,
          failures: 0,
          strikes: 0,
          lastError: '',
        });
      }
    }
    if (!store) return;
    const checkpoint = store.checkpoints.load(durable) ?? store.saved.get(durable) ?? { through: 0, acked: [] };
    const acked = new Set(checkpoint.acked);
    store.log.replay(checkpoint.through, (record) => {
      if (acked.has(record.seq) || !subjectMatches(subject, record.subject)) return;
      // Delivered before, maybe written already: the consumer checks (the olap writer does).
      queue.messages.push({
        id: record.id,
        subject: record.subject,
        data: record.data,
        deliveryCount: 2,
        seq: record.seq,
        failures: 0,
        strikes: 0,
        lastError: '',
      });
    });
    // Replay read every record written so far, some maybe not yet dispatched: those are not queued twice.
    queue.replayedThrough = Math.max(checkpoint.through, store.log.lastSeq());
    for (const seq of acked) if (seq > checkpoint.through) queue.ackedAhead.add(seq);
  }

  async function stopQueue(queue: Queue): Promise<void> {
    queue.stopped = true;
    queue.halt.abort();
    queue.wake?.();
    await queue.done;
    if (store) {
      await saving.get(queue.options.durable);
      const checkpoint = checkpointOf(queue);
      store.checkpoints.saveSync(queue.options.durable, checkpoint);
      store.saved.set(queue.options.durable, checkpoint);
    }
    queues.delete(queue.options.durable);
  }

  async function deadLetter(message: BusMessage, reason: string): Promise<void> {
    log.error({ subject: message.subject, id: message.id, reason }, 'message dead-lettered');
    await store?.deadLetters.append({ subject: message.subject, id: message.id, reason, data: message.data });
  }

  return {
    kind: 'memory',
    async publish(subject, data, messageId) {
      if (closed) throw new Error('the bus is closed');
      if (!remember(messageId)) {
        await writing.get(messageId);
        return;
      }
      if (!store) {
        dispatch(dispatchedSeq + 1, messageId, subject, data);
        return;
      }
      const written = store.log.append(messageId, subject, data).then(
        (seq) => dispatch(seq, messageId, subject, data),
        (err: unknown) => {
          // Not in the log: a retry with the same id must be taken.
          seenIds.delete(messageId);
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
    async consume(consumerOptions) {
      if (queues.has(consumerOptions.durable)) throw new Error(`consumer ${consumerOptions.durable} exists already`);
      const queue: Queue = {
        options: consumerOptions,
        messages: [],
        wake: undefined,
        busy: false,
        stopped: false,
        lastBatchAt: 0,
        hurry: false,
        halt: new AbortController(),
        cutBackOff: undefined,
        failedInARow: 0,
        done: Promise.resolve(),
        ackedAhead: new Set(),
        replayedThrough: dispatchedSeq,
        dirty: false,
        spool: undefined,
      };
      restore(queue);
      if (queue.messages.length > 0)
        log.info(
          { durable: consumerOptions.durable, messages: queue.messages.length },
          'delivering again what was not acknowledged before the restart',
        );
      queues.set(consumerOptions.durable, queue);
      metrics?.inc('bus_messages_parked_total', { consumer: consumerOptions.durable }, 0);
      queue.done = run(queue);
      return {
        durable: consumerOptions.durable,
        stop: () => stopQueue(queue),
      } satisfies Consumer;
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
      for (const q of queues.values()) {
        // Failures before the drain (an outage that may have ended since) do not count against it.
        q.failedInARow = 0;
        q.hurry = true;
        q.wake?.();
        q.cutBackOff?.();
      }
      const idle = (q: Queue) => q.messages.length === 0 && !q.busy;
      // A queue whose deliveries keep failing while the drain retries them keeps its messages in
      // the log for the next start: waiting for them would only hold a stop up until its deadline.
      const stuck = (q: Queue) => q.failedInARow >= ISOLATE_AFTER_FAILURES;
      for (;;) {
        const all = [...queues.values()];
        if (all.every(idle)) return true;
        if (all.every((q) => idle(q) || stuck(q)) || Date.now() >= deadline) {
          for (const q of all) q.hurry = false;
          return false;
        }
        await sleep(10);
      }
    },
    async stats() {
      return { pending: Object.fromEntries([...queues].map(([name, q]) => [name, q.messages.length])) };
    },
    async close() {
      closed = true;
      await Promise.all([...queues.values()].map(stopQueue));
      if (checkpointTimer) clearInterval(checkpointTimer);
      if (store) {
        saveCheckpoints(true);
        await store.log.close();
      }
      emitter.removeAllListeners();
    },
  };
}
