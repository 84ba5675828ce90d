// The bus on NATS JetStream: one stream per namespace holds every event subject, durable pull
// consumers are provisioned idempotently at start, messages are acked only after the handler
// resolved and redelivered with back-off otherwise. Broadcasts use plain NATS subjects.
//
// No consumer blocks on a poison message (the rule in bus.ts): a batch that failed
// ISOLATE_AFTER_FAILURES deliveries has its messages handled one at a time, so the good ones go
// through; one that keeps failing alone while others succeed goes to the DLQ stream with its last
// error. When they all fail alike (ClickHouse down), each is only redelivered later.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type { Logger } from '../shared/logger.js';
import {
  backoffMs,
  ISOLATE_AFTER_FAILURES,
  MAX_HELD_BATCHES,
  PARK_AFTER_FAILURES,
  sleep,
  WaitForMore,
  type Bus,
  type BusMessage,
  type Consumer,
  type DeadLetter,
} from './bus.js';

export interface NatsBusOptions {
  url: string;
  /** Prefixes subjects (`ns.events.…`) and names the streams (`ns_EVENTS`, `ns_DLQ`). */
  namespace: string;
  log: Logger;
  /** The first retry delay of a failed batch (doubling up to 10 s); tests shorten it. */
  retryBaseMs?: number;
  /** How long JetStream waits for an acknowledgement before it delivers a message again; tests shorten it. */
  ackWaitMs?: number;
}

/**
 * Messages a process fetched and never acknowledged (it was killed) go to another consumer, or to
 * the same one restarted, after this long: the delay of the counts after a crash. A handler
 * working longer tells JetStream so (working()), up to MAX_WORKING_ACK_WAITS ack waits, after
 * which its messages are deemed lost with it and delivered again.
 */
const ACK_WAIT_MS = 15_000;
const MAX_WORKING_ACK_WAITS = 20;
/** The stream drops a message id published again within this span. */
const DUPLICATE_WINDOW_MS = 2 * 60_000;
const DEAD_LETTER_REASON = 'Signpost-Dead-Letter-Reason';
/**
 * Messages tried alone that fail in a row, none succeeding, before the rest of the batch is left
 * for later: the store is down, and trying every message against it only slows its return.
 */
const SYSTEMIC_AFTER_FAILURES = 3;
/** Messages whose solo failures are being counted, per consumer; more are forgotten oldest first. */
const MAX_TRACKED_FAILURES = 10_000;

/** Solo failures of one message, and the consumer's successes when they began. */
interface SoloFailures {
  count: number;
  successesBefore: number;
}

export async function createNatsBus(options: NatsBusOptions): Promise<Bus> {
  const log = options.log.child({ module: 'nats-bus' });
  const ns = options.namespace;
  const ackWaitMs = options.ackWaitMs ?? ACK_WAIT_MS;
  const stream = `${ns}_EVENTS`;
  const dlqStream = `${ns}_DLQ`;
  const nc: NatsConnection = await connect({
    servers: options.url.split(','),
    name: `signpost-${process.pid}`,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
  });
  const jsm: JetStreamManager = await jetstreamManager(nc);
  const js: JetStreamClient = jetstream(nc);
  await ensureStream(jsm, stream, [`${ns}.events.>`, `${ns}.work.>`]);
  await ensureStream(jsm, dlqStream, [`${ns}.dlq.>`]);
  const consumers = new Map<string, { stop(): Promise<void> }>();
  // A server killed before it wrote its latest messages and consumer state to disk delivers some
  // again after its restart as if for the first time, under new sequence numbers when a publisher
  // sends a message again whose acknowledgement it never got. So from a disconnect until the
  // deduplication window has passed after the reconnect, every delivery counts as a possible
  // redelivery, and the handler checks what was written already.
  let suspectUntil = 0;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') suspectUntil = Infinity;
      else if (status.type === 'reconnect') suspectUntil = Date.now() + DUPLICATE_WINDOW_MS;
    }
  })().catch(() => {});
  const closing = new AbortController();
  log.info({ servers: options.url, stream }, 'connected to NATS JetStream');

  const full = (subject: string) => `${ns}.${subject}`;
  const relative = (subject: string) => subject.slice(ns.length + 1);

  async function provisionConsumer(durable: string, filter: string): Promise<void> {
    const config = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: full(filter),
      ack_wait: ackWaitMs * 1_000_000,
      max_ack_pending: 20_000,
    };
    try {
      await jsm.consumers.info(stream, durable);
      await jsm.consumers.update(stream, durable, {
        filter_subject: config.filter_subject,
        ack_wait: config.ack_wait,
        max_ack_pending: config.max_ack_pending,
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      try {
        await jsm.consumers.add(stream, config);
      } catch (addErr) {
        // Another instance created it between our look-up and our add.
        if (!/already (exists|in use)/i.test(String(addErr))) throw addErr;
      }
    }
  }

  /** Runs the handler, telling JetStream every third of the ack wait that the messages are still in hand. */
  async function whileWorking(jsMessages: JsMsg[], work: () => Promise<void>): Promise<void> {
    let beats = 0;
    const beat = setInterval(() => {
      if (++beats > 3 * MAX_WORKING_ACK_WAITS) return clearInterval(beat);
      for (const m of jsMessages) m.working();
    }, ackWaitMs / 3);
    try {
      await work();
    } finally {
      clearInterval(beat);
    }
  }

  const bus: Bus = {
    kind: 'nats',
    async publish(subject, data, messageId) {
      await js.publish(full(subject), data, { msgID: messageId, timeout: 5_000 });
    },
    async consume({ durable, subject, maxBatch, handler }) {
      const name = `${durable}`;
      await provisionConsumer(name, subject);
      const consumer = await js.consumers.get(stream, name);
      const stopping = new AbortController();
      const retryBaseMs = options.retryBaseMs ?? 100;
      /** The highest stream sequence this consumer has been handed in this process. */
      let highestSeq = 0;
      /**
       * A message handed over before counts as delivered again, whatever JetStream says: a server
       * killed before it stored its latest deliveries and acks delivers them again as firsts, and a
       * message tried alone after its batch failed may have been written in part. Either way the
       * handler must check what was written already (the OLAP writer does for redeliveries). So
       * must every delivery around a reconnect (suspectUntil).
       */
      const toBusMessage = (m: JsMsg, seenBefore: boolean): BusMessage => ({
        id: m.headers?.get('Nats-Msg-Id') || `${m.info.stream}:${m.seq}`,
        subject: relative(m.subject),
        data: m.data,
        deliveryCount:
          seenBefore || Date.now() < suspectUntil ? Math.max(2, m.info.deliveryCount) : m.info.deliveryCount,
      });
      /** Messages this consumer handled successfully: poison fails while others succeed, an outage fails them all. */
      let successes = 0;
      const soloFailures = new Map<string, SoloFailures>();

      /** Dead-letters a message that fails alone while others succeed, and acknowledges it. */
      async function park(m: JsMsg, message: BusMessage, failures: number, err: unknown): Promise<void> {
        const reason = `failed ${failures} deliveries alone while other messages succeeded: ${String((err as Error)?.message ?? err)}`;
        try {
          await bus.deadLetter(message, reason);
        } catch (parkErr) {
          log.warn({ err: parkErr, durable: name, id: message.id }, 'could not park a poison message, will retry');
          m.nak(backoffMs(failures, retryBaseMs));
          return;
        }
        m.ack();
        log.error({ durable: name, id: message.id, deliveries: m.info.deliveryCount }, 'poison message parked');
      }

      /**
       * Each message alone, fresh ones first; true when any went through. A batch of one message
       * has just been tried alone: its error stands for the solo attempt.
       */
      async function oneByOne(jsMessages: JsMsg[], consecutive: number, batchError: unknown): Promise<boolean> {
        const order = [...jsMessages].sort((a, b) => a.info.deliveryCount - b.info.deliveryCount);
        let succeeded = 0;
        let failedInRow = 0;
        for (const [i, m] of order.entries()) {
          if (stopping.signal.aborted) {
            for (const rest of order.slice(i)) rest.nak();
            break;
          }
          if (succeeded === 0 && failedInRow >= SYSTEMIC_AFTER_FAILURES) {
            // Everything fails alike: the rest waits for the store instead of each failing in turn.
            const delay = backoffMs(consecutive, retryBaseMs);
            for (const rest of order.slice(i)) rest.nak(delay);
            break;
          }
          const message = toBusMessage(m, true);
          try {
            if (order.length === 1) throw batchError;
            await whileWorking([m], () => handler([message]));
            m.ack();
            soloFailures.delete(message.id);
            successes++;
            succeeded++;
            failedInRow = 0;
          } catch (err) {
            if (err instanceof WaitForMore) {
              // Not a failure of this message: it comes back once the handler stops waiting.
              m.nak(1_000);
              continue;
            }
            failedInRow++;
            const record = soloFailures.get(message.id) ?? { count: 0, successesBefore: successes };
            record.count++;
            soloFailures.delete(message.id);
            if (record.count >= PARK_AFTER_FAILURES && successes > record.successesBefore) {
              await park(m, message, record.count, err);
              continue;
            }
            soloFailures.set(message.id, record);
            if (soloFailures.size > MAX_TRACKED_FAILURES) soloFailures.delete(soloFailures.keys().next().value!);
            m.nak(backoffMs(record.count, retryBaseMs));
          }
        }
        return succeeded > 0;
      }

      /**
       * Merges what a fetch brought into the batch held for the handler: a message the server
       * delivered again meanwhile (its ack wait ran out) replaces its older delivery.
       */
      const merge = (held: JsMsg[], fetched: JsMsg[]): JsMsg[] => {
        if (held.length === 0) return fetched;
        const bySeq = new Map(held.map((m) => [m.seq, m]));
        for (const m of fetched) bySeq.set(m.seq, m);
        return [...bySeq.values()];
      };

      const loop = (async () => {
        /** Rounds in a row in which nothing went through. */
        let failures = 0;
        /** A batch the handler waits to see more of (WaitForMore), kept in hand meanwhile. */
        let held: JsMsg[] = [];
        while (!stopping.signal.aborted) {
          const fetched: JsMsg[] = [];
          const room = MAX_HELD_BATCHES * maxBatch - held.length;
          try {
            if (room <= 0) await sleep(1_000, stopping.signal);
            else {
              const iter = await consumer.fetch({ max_messages: Math.min(maxBatch, room), expires: 1_000 });
              for await (const m of iter) fetched.push(m);
            }
          } catch (err) {
            // A fetch can fail after it delivered messages (`heartbeats missed` when this process
            // was too busy to read the server's heartbeats in time). Those are ours until their
            // ack wait runs out: handled now, not left to come back then.
            if (stopping.signal.aborted) {
              for (const m of merge(held, fetched)) m.nak();
              break;
            }
            log.warn({ err, durable: name, delivered: fetched.length }, 'fetch failed');
            if (fetched.length === 0) {
              // A held batch goes to the handler again, but not in a tight loop while NATS is away.
              await sleep(backoffMs(++failures, retryBaseMs), stopping.signal);
              if (held.length === 0) continue;
            }
          }
          if (stopping.signal.aborted && held.length > 0) {
            for (const m of merge(held, fetched)) m.nak();
            break;
          }
          const jsMessages = merge(held, fetched);
          held = [];
          if (jsMessages.length === 0) continue;
          try {
            const batch = jsMessages.map((m) => toBusMessage(m, m.seq <= highestSeq));
            for (const m of jsMessages) if (m.seq > highestSeq) highestSeq = m.seq;
            await whileWorking(jsMessages, () => handler(batch));
            for (const m of jsMessages) m.ack();
            successes += jsMessages.length;
            failures = 0;
          } catch (err) {
            if (err instanceof WaitForMore) {
              // Still ours: the ack wait starts again now, and the next round adds what comes.
              for (const m of jsMessages) m.working();
              held = jsMessages;
              log.debug(
                { durable: name, held: held.length, reason: err.message },
                'holding a batch for more of its messages',
              );
              continue;
            }
            const isolate = jsMessages.some((m) => m.info.deliveryCount >= ISOLATE_AFTER_FAILURES);
            if (isolate) {
              log.warn(
                { err, durable: name, size: jsMessages.length },
                'batch keeps failing: handling its messages one at a time',
              );
              if (await oneByOne(jsMessages, failures + 1, err)) {
                failures = 0;
                continue;
              }
            }
            failures++;
            const delay = backoffMs(failures, retryBaseMs);
            if (!isolate) {
              log.warn({ err, durable: name, size: jsMessages.length, delay }, 'batch failed, will redeliver');
              for (const m of jsMessages) m.nak(delay);
            }
            await sleep(delay, stopping.signal);
          }
        }
      })();
      const handle: Consumer = {
        durable: name,
        async stop() {
          stopping.abort();
          await loop;
          consumers.delete(name);
        },
      };
      consumers.set(name, handle);
      return handle;
    },
    async deadLetter(message, reason) {
      const headers = (await import('@nats-io/transport-node')).headers();
      // Header values are one line: database errors often span several.
      headers.set(DEAD_LETTER_REASON, reason.replace(/[\r\n]+/g, ' ').slice(0, 500));
      await js.publish(full(`dlq.${message.subject}`), message.data, { msgID: `dlq:${message.id}`, headers });
      log.error({ subject: message.subject, id: message.id, reason }, 'message dead-lettered');
    },
    async recentDeadLetters(limit) {
      const { state } = await jsm.streams.info(dlqStream);
      const letters: DeadLetter[] = [];
      // Sequence numbers of expired or deleted messages are gaps: skip them.
      for (let seq = state.last_seq; seq >= state.first_seq && state.messages > 0 && letters.length < limit; seq--) {
        const m = await jsm.streams.getMessage(dlqStream, { seq }).catch((err: unknown) => {
          if (isNotFound(err)) return null;
          throw err;
        });
        if (!m) continue;
        letters.push({
          subject: relative(m.subject).replace(/^dlq\./, ''),
          id: (m.header?.get('Nats-Msg-Id') ?? `${dlqStream}:${m.seq}`).replace(/^dlq:/, ''),
          reason: m.header?.get(DEAD_LETTER_REASON) ?? '',
          at: m.time,
        });
      }
      return letters;
    },
    broadcast(subject, data) {
      if (!nc.isClosed()) nc.publish(full(`bcast.${subject}`), data);
    },
    onBroadcast(subject, listener) {
      const sub = nc.subscribe(full(`bcast.${subject}`), {
        callback: (err, msg) => {
          if (!err) listener(msg.data);
        },
      });
      return () => sub.unsubscribe();
    },
    async drain(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline && !closing.signal.aborted) {
        let idle = true;
        for (const name of consumers.keys()) {
          const info = await jsm.consumers.info(stream, name);
          if (info.num_pending > 0 || info.num_ack_pending > 0) idle = false;
        }
        if (idle) return true;
        await sleep(50);
      }
      return false;
    },
    async stats() {
      const pending: Record<string, number> = {};
      for (const name of consumers.keys()) {
        const info = await jsm.consumers.info(stream, name);
        pending[name] = info.num_pending + info.num_ack_pending;
      }
      return { pending };
    },
    async close() {
      closing.abort();
      await Promise.all([...consumers.values()].map((c) => c.stop()));
      await nc.drain().catch(() => nc.close());
    },
  };
  return bus;
}

async function ensureStream(jsm: JetStreamManager, name: string, subjects: string[]): Promise<void> {
  try {
    await jsm.streams.info(name);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    try {
      await jsm.streams.add({
        name,
        subjects,
        // Seven days of backlog survive a long ClickHouse outage; dedup window for message ids.
        max_age: 7 * 24 * 3600 * 1_000_000_000,
        duplicate_window: DUPLICATE_WINDOW_MS * 1_000_000,
      });
    } catch (addErr) {
      if (!/already in use|already exists/i.test(String(addErr))) throw addErr;
    }
  }
}

function isNotFound(err: unknown): boolean {
  return /not found/i.test(String((err as Error)?.message ?? err));
}
