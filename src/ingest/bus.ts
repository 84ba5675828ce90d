// The event bus as the rest of the service sees it: durable, deduplicated publishing to subjects,
// durable batch consumers with ack-after-success, and non-durable broadcasts (cache invalidation).
// Two implementations keep this contract: NATS JetStream (nats-bus.ts) and in-process (memory-bus.ts).
// What both do when a handler keeps failing (retry, isolate, park) is poison-policy.ts's rule.

export interface BusMessage {
  /** The publisher's message id: JetStream deduplicates on it. */
  id: string;
  subject: string;
  data: Uint8Array;
  /** 1 on first delivery. */
  deliveryCount: number;
}

/**
 * Processes one batch. Resolving acknowledges every message of the batch; throwing leaves them all
 * to be delivered again after a back-off. A message that can never succeed is the handler's to
 * dead-letter (bus.deadLetter) before it resolves.
 */
export type BatchHandler = (messages: BusMessage[]) => Promise<void>;

/**
 * Thrown by a handler that cannot write a batch until more messages delivered again with it are
 * here: the OLAP writer replays an insert group a crash cut only whole, and after a crash
 * JetStream hands a group's messages back as their ack waits run out, not always in one fetch.
 * Not a failure: the bus keeps the batch in hand (nothing counts as a delivery or a strike) and
 * hands it over again together with what comes next. The handler bounds the wait itself.
 */
export class WaitForMore extends Error {
  override name = 'WaitForMore';
}

/** A held batch grows by at most this many fetches' worth before the bus stops adding to it. */
export const MAX_HELD_BATCHES = 4;

export interface ConsumerOptions {
  /** Durable name: one logical reader; instances sharing it split the work. */
  durable: string;
  /** Subject filter relative to the bus namespace; `>` matches the rest. */
  subject: string;
  maxBatch: number;
  /**
   * At most one batch per this many milliseconds unless maxBatch messages are waiting: a message
   * after a quiet spell goes at once, a steady stream in batches of this span. JetStream fetches
   * behave alike on their own (a pull waits up to a second for a full batch). Default 0.
   */
  batchIntervalMs?: number;
  handler: BatchHandler;
}

export interface Consumer {
  readonly durable: string;
  stop(): Promise<void>;
}

export interface BusStats {
  /** Messages published but not yet acknowledged by each consumer. */
  pending: Record<string, number>;
}

/** A parked message as an operator lists it. */
export interface DeadLetter {
  /** The subject it was published on (`events.click`). */
  subject: string;
  /** Its message id (for one event of a batch: the batch's id and the event's). */
  id: string;
  reason: string;
  at: Date;
}

export interface Bus {
  readonly kind: 'memory' | 'nats';
  /** Resolves once the bus holds the message durably (a JetStream ack); throws when it cannot. */
  publish(subject: string, data: Uint8Array, messageId: string): Promise<void>;
  consume(options: ConsumerOptions): Promise<Consumer>;
  /** Parks a message that can never be processed, with the reason, on `dlq.<subject>`. */
  deadLetter(message: BusMessage, reason: string): Promise<void>;
  /** The most recent dead letters, newest first, where the bus keeps them in a store it can list. */
  recentDeadLetters?(limit: number): Promise<DeadLetter[]>;
  /** Best-effort message to every instance (including this one); not stored. */
  broadcast(subject: string, data: Uint8Array): void;
  onBroadcast(subject: string, listener: (data: Uint8Array) => void): () => void;
  /** Waits until every consumer has acknowledged everything published so far, or the deadline. */
  drain(timeoutMs: number): Promise<boolean>;
  stats(): Promise<BusStats>;
  close(): Promise<void>;
}

/** NATS-style subject matching: `*` one token, `>` the rest. */
export function subjectMatches(filter: string, subject: string): boolean {
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (f[i] !== '*' && f[i] !== s[i]) return false;
  }
  return f.length === s.length;
}

/** Exponential back-off with full jitter, capped. */
export function backoffMs(attempt: number, baseMs = 100, capMs = 10_000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    // The listener goes with the timer: a consumer retrying for days must not pile them up.
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
