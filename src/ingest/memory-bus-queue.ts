// One durable consumer of the in-process bus: its queue of unacknowledged messages and the loop
// that hands them to the handler. Batches of up to maxBatch (at most one per batchIntervalMs
// unless a full batch waits), acknowledgement once the handler resolved, a failed batch delivered
// again as it was after a back-off, a batch the handler waits on (WaitForMore) held and grown.
// What happens when deliveries keep failing is poison-policy.ts's to decide; this loop acts on it.
// The queue also knows how far its consumer has acknowledged (its checkpoint in the segment log).
import type { Logger } from '../shared/logger.js';
import type { Checkpoint } from './bus-checkpoints.js';
import { backoffMs, MAX_HELD_BATCHES, WaitForMore, type BusMessage, type ConsumerOptions } from './bus.js';
import { createPoisonPolicy, ISOLATE_AFTER_FAILURES, type Outcome, type RoundResult } from './poison-policy.js';

export interface Pending extends BusMessage {
  /** Position in the segment log (or the order of publishing, without a folder). */
  seq: number;
  /** Failed deliveries in this process. */
  failures: number;
}

export interface QueueOptions {
  consumer: ConsumerOptions;
  log: Logger;
  retryBaseMs: number;
  retryCapMs: number;
  /** Messages of an earlier run this consumer had not acknowledged, oldest first. */
  restored: Pending[];
  /** The log was read up to here at the start: later messages arrive through push(). */
  replayedThrough: number;
  /** Seqs beyond the checkpoint's `through` acknowledged already. */
  ackedAhead: number[];
  /** Dead-letters a message; throws when it cannot. */
  deadLetter(message: Pending, reason: string): Promise<void>;
  /** Counts a parked message. */
  onParked(): void;
}

export interface MemoryQueue {
  readonly options: ConsumerOptions;
  /** Queues a message that reached the log, unless the start's replay queued it already. */
  push(message: Pending): void;
  /** Unacknowledged messages. */
  size(): number;
  /** Nothing queued and no delivery under way. */
  idle(): boolean;
  /** Its deliveries keep failing while a drain retries them: waiting for them only holds a stop up. */
  stuck(): boolean;
  /** Batches go at once, and a back-off under way is cut short, until the queue is empty (a drain). */
  hurry(): void;
  /** Ends the hurry of a drain that gave up. */
  relax(): void;
  /** How far its consumer acknowledged, given the highest seq handed to the queues. */
  checkpoint(dispatchedSeq: number): Checkpoint;
  /** Whether it acknowledged something since the last call (the checkpoint moved). */
  takeMoved(): boolean;
  /** Stops the loop once the delivery under way is over. */
  stop(): Promise<void>;
}

/** The longest retry back-off while a drain waits. */
const HURRIED_RETRY_MS = 200;

export function startQueue(options: QueueOptions): MemoryQueue {
  const { consumer, log, retryBaseMs, retryCapMs } = options;
  const { durable, maxBatch, batchIntervalMs = 0, handler } = consumer;
  const messages: Pending[] = [...options.restored];
  const ackedAhead = new Set(options.ackedAhead);
  const { replayedThrough } = options;
  const policy = createPoisonPolicy();
  /** Cuts a pause or a retry back-off short when the consumer stops. */
  const halt = new AbortController();
  /** Wakes the loop when a message arrives. */
  let wake: (() => void) | undefined;
  /** Ends the retry back-off under way, if any (a drain retries at once). */
  let cutBackOff: (() => void) | undefined;
  let busy = false;
  let stopped = false;
  /** When the last batch started (for batchIntervalMs). */
  let lastBatchAt = 0;
  /** Set by a drain: batches go at once until the queue is empty. */
  let hurried = false;
  /** Deliveries that failed since the last one that succeeded (or since a drain began). */
  let failedInARow = 0;
  let moved = false;

  const oldestSeq = (): number | undefined => messages[0]?.seq;

  function acknowledge(done: Pending[]): void {
    if (done.every((m, i) => messages[i] === m)) messages.splice(0, done.length);
    else
      for (const m of done) {
        const at = messages.indexOf(m);
        if (at >= 0) messages.splice(at, 1);
      }
    const oldest = oldestSeq();
    for (const m of done) if (oldest !== undefined && m.seq > oldest) ackedAhead.add(m.seq);
    moved = true;
  }

  /** Resolves after `ms`, or earlier when the queue is woken (a publish, a drain, a stop). */
  function pause(ms?: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => wake?.(), ms);
      wake = () => {
        clearTimeout(timer);
        wake = undefined;
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
  function backOff(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const end = () => {
        clearTimeout(timer);
        halt.signal.removeEventListener('abort', end);
        cutBackOff = undefined;
        resolve();
      };
      const timer = setTimeout(end, hurried ? Math.min(ms, HURRIED_RETRY_MS) : ms);
      halt.signal.addEventListener('abort', end, { once: true });
      cutBackOff = end;
    });
  }

  /** Hands messages over; acknowledges them when the handler resolves. */
  async function deliver(batch: Pending[]): Promise<{ outcome: Outcome; error?: unknown }> {
    busy = true;
    lastBatchAt = Date.now();
    try {
      await handler(batch);
      acknowledge(batch);
      failedInARow = 0;
      return { outcome: 'ok' };
    } catch (error) {
      if (error instanceof WaitForMore) return { outcome: 'wait', error };
      failedInARow++;
      for (const m of batch) {
        m.deliveryCount++;
        m.failures++;
      }
      if (batch.length > 1 || batch[0]!.failures === 1)
        log.warn({ err: error, durable, size: batch.length }, 'batch failed, will redeliver');
      return { outcome: 'failed', error };
    } finally {
      busy = false;
    }
  }

  /** Dead-letters a poison message and acknowledges it; one it cannot park stays for a retry. */
  async function park(message: Pending, reason: string): Promise<void> {
    try {
      await options.deadLetter(message, reason);
    } catch (err) {
      log.error({ err, durable, id: message.id }, 'could not park a failing message, will retry');
      return;
    }
    acknowledge([message]);
    policy.parked(message.id);
    options.onParked();
  }

  /** Each message of a failing batch alone, as the policy orders; then parks what it found poison. */
  async function isolate(batch: Pending[], batchError: unknown): Promise<RoundResult<Pending>> {
    log.warn({ durable, size: batch.length }, 'batch keeps failing: delivering its messages one at a time');
    const round = policy.isolate(batch, batchError);
    for (let m = round.next(); m && !stopped; m = round.next()) {
      const { outcome, error } = await deliver([m]);
      round.record(outcome, error);
    }
    const result = round.finish();
    for (const { message, reason } of result.park) await park(message, reason);
    return result;
  }

  async function run(): Promise<void> {
    // A failed batch is delivered again as it was, so its retry carries the same message ids.
    let retrySize = 0;
    while (!stopped) {
      if (messages.length === 0) {
        hurried = false;
        await pause();
        continue;
      }
      const due = lastBatchAt + batchIntervalMs - Date.now();
      if (retrySize === 0 && due > 0 && messages.length < maxBatch && !hurried) {
        await pause(due);
        continue;
      }
      const batch = messages.slice(0, retrySize || maxBatch);
      const { outcome, error } = await deliver(batch);
      const step = policy.afterBatch(batch, outcome);
      if (step.do === 'ack') retrySize = 0;
      else if (step.do === 'hold') {
        // The same messages again, with what arrived behind them, once more could have come.
        const grown = Math.min(MAX_HELD_BATCHES * maxBatch, batch.length + maxBatch);
        if (messages.length <= batch.length || grown === batch.length) await backOff(1_000);
        retrySize = Math.min(grown, Math.max(batch.length, messages.length));
      } else if (step.do === 'retry') {
        retrySize = batch.length;
        await backOff(backoffMs(step.attempt, retryBaseMs, retryCapMs));
      } else {
        retrySize = 0;
        const { retry, attempt } = await isolate(batch, error);
        if (retry.length > 0 && attempt > 0) await backOff(backoffMs(attempt, retryBaseMs, retryCapMs));
      }
    }
  }

  const done = run();

  return {
    options: consumer,
    push(message) {
      if (stopped || message.seq <= replayedThrough) return;
      messages.push(message);
      wake?.();
    },
    size: () => messages.length,
    idle: () => messages.length === 0 && !busy,
    stuck: () => failedInARow >= ISOLATE_AFTER_FAILURES,
    hurry() {
      // Failures before the drain (an outage that may have ended since) do not count against it.
      failedInARow = 0;
      hurried = true;
      wake?.();
      cutBackOff?.();
    },
    relax() {
      hurried = false;
    },
    checkpoint(dispatchedSeq) {
      const oldest = oldestSeq();
      const through = oldest === undefined ? Math.max(dispatchedSeq, replayedThrough) : oldest - 1;
      for (const seq of ackedAhead) if (seq <= through) ackedAhead.delete(seq);
      return { through, acked: [...ackedAhead] };
    },
    takeMoved() {
      const was = moved;
      moved = false;
      return was;
    },
    async stop() {
      stopped = true;
      halt.abort();
      wake?.();
      await done;
    },
  };
}
