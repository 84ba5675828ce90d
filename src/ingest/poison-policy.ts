// What a consumer does when its handler fails: retry, isolate, park or wait for the store. One rule
// for both buses (memory-bus-queue.ts and nats-bus.ts): this module decides, the bus acts (delivers,
// acknowledges, dead-letters, sleeps). No I/O, no timers, no randomness: back-offs are attempt
// numbers the bus turns into a delay with backoffMs.
//
// No queue blocks on its head. A batch that failed ISOLATE_AFTER_FAILURES deliveries has its
// messages handed over one at a time, in an isolation round: messages that never failed alone
// first, then fewest failures first. A solo failure is a strike against the message when the store
// is seen to work: another message succeeded in the same round, or since the round in which the
// message first failed alone, with no round since in which everything failed (a success from before
// a message's trouble began is no evidence). At PARK_AFTER_FAILURES strikes the message is poison:
// dead-lettered with its last error and acknowledged. When every message fails alike (the store is
// down), nothing is struck: a round stops after SYSTEMIC_AFTER_FAILURES solo failures with no
// success, and when those were messages that had not failed alone before, the store is taken to be
// down and everything waits for it. After such a round, a first solo success means the store is
// back: the round ends there and the rest goes in batches again rather than one insert per message.

export const ISOLATE_AFTER_FAILURES = 3;
export const PARK_AFTER_FAILURES = 5;
/** Solo failures with no success, in one round, that show the store is down rather than a message. */
const SYSTEMIC_AFTER_FAILURES = 2;
/** Messages whose strikes are being counted; more are forgotten oldest first. */
const MAX_TRACKED = 10_000;

/** What the handler did with what it was given: resolved, threw, or threw WaitForMore. */
export type Outcome = 'ok' | 'failed' | 'wait';

/** A message as the policy sees it. */
export interface Tracked {
  id: string;
  /** Failed deliveries so far, the last one included (the bus's count; JetStream's delivery count). */
  failures: number;
}

/** What the bus does after the handler's outcome on a whole batch. */
export type BatchStep =
  /** Acknowledge the batch. */
  | { do: 'ack' }
  /** Keep the batch in hand and hand it over again with what comes next (WaitForMore). */
  | { do: 'hold' }
  /** Deliver the batch again after back-off `attempt`. */
  | { do: 'retry'; attempt: number }
  /** Hand its messages over one at a time: an isolation round (isolate()). */
  | { do: 'isolate' };

export interface Parking<M> {
  message: M;
  reason: string;
}

/** The verdict of an isolation round. A message that succeeded alone was acknowledged as it went. */
export interface RoundResult<M> {
  /** Dead-letter these with the reason, then acknowledge them (a failed dead letter: retry instead). */
  park: Parking<M>[];
  /** Deliver these again (in batches), after back-off `attempt`; 0 means at once. */
  retry: M[];
  attempt: number;
  /** Nothing went through: the consumer waits out the back-off before it delivers anything else. */
  pause: boolean;
}

export interface IsolationRound<M> {
  /** The next message to hand over alone, or undefined when the round is over. */
  next(): M | undefined;
  /** The handler's outcome on the message next() gave, and its error when it failed. */
  record(outcome: Outcome, error?: unknown): void;
  /** Ends the round (also early, when the consumer stops) and says what becomes of the rest. */
  finish(): RoundResult<M>;
}

export interface PoisonPolicy {
  /** The step after the handler's outcome on a whole batch. */
  afterBatch(batch: readonly Tracked[], outcome: Outcome): BatchStep;
  /**
   * Starts an isolation round over a batch that failed with `batchError`. A batch of one message
   * was just tried alone: its failure is the round's first solo failure.
   */
  isolate<M extends Tracked>(batch: readonly M[], batchError: unknown): IsolationRound<M>;
  /** A message was dead-lettered and acknowledged: its strikes are no longer needed. */
  parked(id: string): void;
}

/** Strikes against one message, and the consumer's successes before the round it first failed alone in. */
interface Record {
  strikes: number;
  successesBefore: number;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** One policy per consumer: its memory is the consumer's successes and each suspect's strikes. */
export function createPoisonPolicy(): PoisonPolicy {
  /** Messages that succeeded, in batches or alone. */
  let successes = 0;
  /** `successes` when the last round found the store down. */
  let successesAtOutage = 0;
  /** Whether a round found the store down, and nothing went through since. */
  let outage = false;
  /** Batches and rounds in a row in which nothing went through. */
  let stalled = 0;
  const records = new Map<string, Record>();

  function succeeded(id: string): void {
    successes++;
    records.delete(id);
  }

  return {
    afterBatch(batch, outcome) {
      if (outcome === 'wait') return { do: 'hold' };
      if (outcome === 'ok') {
        for (const m of batch) succeeded(m.id);
        stalled = 0;
        outage = false;
        return { do: 'ack' };
      }
      if (batch.some((m) => m.failures >= ISOLATE_AFTER_FAILURES)) return { do: 'isolate' };
      return { do: 'retry', attempt: ++stalled };
    },

    isolate<M extends Tracked>(batch: readonly M[], batchError: unknown): IsolationRound<M> {
      // Fresh messages first: they show whether the store works before the suspects fail again.
      // Suspects (messages that failed alone before) go last whatever their delivery counts: a
      // batch delivered whole has one count for all, and suspects at its head would otherwise end
      // every round before the messages behind them are tried.
      const suspect = (m: M) => (records.has(m.id) ? 1 : 0);
      const order = batch
        .map((message, at) => ({ message, at }))
        .sort(
          (a, b) => suspect(a.message) - suspect(b.message) || a.message.failures - b.message.failures || a.at - b.at,
        );
      const afterOutage = outage;
      const successesBefore = successes;
      const failed = new Map<M, string>();
      const done = new Set<M>();
      let wins = 0;
      let tried = 0;
      let healed = false;
      let current: M | undefined;
      if (batch.length === 1) {
        failed.set(batch[0]!, errorText(batchError));
        tried = 1;
      }
      return {
        next() {
          current = undefined;
          if (healed || tried >= order.length) return undefined;
          if (wins === 0 && failed.size >= SYSTEMIC_AFTER_FAILURES) return undefined;
          current = order[tried++]!.message;
          return current;
        },
        record(outcome, error) {
          const m = current;
          if (!m) throw new Error('record() without a message from next()');
          current = undefined;
          if (outcome === 'ok') {
            succeeded(m.id);
            done.add(m);
            wins++;
            if (afterOutage && tried === 1) healed = true;
          } else if (outcome === 'failed') failed.set(m, errorText(error));
          // 'wait': no fault of this message; it goes again with the rest.
        },
        finish() {
          // Messages that failed alone before failing again say nothing about the store: only
          // fresh ones failing together show it is down.
          const fresh = [...failed.keys()].filter((m) => !records.has(m.id)).length;
          const systemic = wins === 0 && fresh >= SYSTEMIC_AFTER_FAILURES;
          const park: Parking<M>[] = [];
          for (const [m, lastError] of failed) {
            let record = records.get(m.id);
            if (!record) {
              record = { strikes: 0, successesBefore };
              if (records.size >= MAX_TRACKED) records.delete(records.keys().next().value!);
            } else records.delete(m.id);
            records.set(m.id, record);
            const storeWorks =
              wins > 0 || (!systemic && successes > Math.max(record.successesBefore, successesAtOutage));
            if (storeWorks && ++record.strikes >= PARK_AFTER_FAILURES)
              park.push({
                message: m,
                reason: `failed ${m.failures} deliveries, ${record.strikes} of them alone while others succeeded: ${lastError}`,
              });
          }
          if (systemic) successesAtOutage = successes;
          // Down until something goes through.
          outage = systemic || (outage && wins === 0);
          const parking = new Set(park.map((p) => p.message));
          const retry = batch.filter((m) => !done.has(m) && !parking.has(m));
          if (retry.length === 0 || healed) {
            stalled = 0;
            return { park, retry, attempt: 0, pause: false };
          }
          // Progress keeps the rounds quick; a store that refuses everything is left to heal.
          if (wins > 0) {
            stalled = 0;
            return { park, retry, attempt: 1, pause: false };
          }
          return { park, retry, attempt: ++stalled, pause: true };
        },
      };
    },

    parked(id) {
      records.delete(id);
    },
  };
}
