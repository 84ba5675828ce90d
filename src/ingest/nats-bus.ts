// The bus on NATS JetStream: one stream per namespace holds every event subject, durable pull
// consumers are provisioned idempotently at start, messages are acked only after the handler
// resolved and redelivered with back-off otherwise. Broadcasts use plain NATS subjects.
//
// No consumer blocks on a poison message (poison-policy.ts decides, this file acts): the messages
// of a batch that keeps failing are handled one at a time, so the good ones go through; one that
// keeps failing alone while others succeed goes to the DLQ stream with its last error. When they
// all fail alike (ClickHouse down), each is only redelivered later.
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
  MAX_HELD_BATCHES,
  sleep,
  WaitForMore,
  type Bus,
  type BusMessage,
  type Consumer,
  type DeadLetter,
} from './bus.js';
import { createPoisonPolicy, type Outcome, type RoundResult, type Tracked } from './poison-policy.js';

export interface NatsBusOptions {
  url: string;
  /** Prefixes subjects (`ns.events.…`) and names the streams (`ns_EVENTS`, `ns_DLQ`). */
  namespace: string;
  log: Logger;
  /** The first retry delay of a failed batch (doubling up to 10 s); tests shorten it. */
  retryBaseMs?: number;
  /** How long JetStream waits for an acknowledgement before it delivers a message again; tests shorten it. */
  ackWaitMs?: number;
  /** Copies of each stream JetStream keeps (its cluster's servers); default 1. */
  replicas?: number;
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
/** A fetched message as the poison policy sees it. */
interface Suspect extends Tracked {
  m: JsMsg;
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
  const replicas = options.replicas ?? 1;
  await ensureStream(jsm, stream, [`${ns}.events.>`, `${ns}.work.>`], replicas);
  await ensureStream(jsm, dlqStream, [`${ns}.dlq.>`], replicas);
  const consumers = new Map<string, { stop(): Promise<void> }>();
  // A server killed before it wrote its latest messages and consumer state to disk delivers some
  // again after its restart as if for the first time, under new sequence numbers when a publisher
  // sends a message again whose acknowledgement it never got. So from a disconnect until the
  // deduplication window has passed after the reconnect, every delivery counts as a possible
  // redelivery, and the handler checks what was written already.
  let suspectUntil = 0;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') {
        suspectUntil = Infinity;
        log.warn('disconnected from NATS: deliveries count as possible redeliveries until after the reconnect');
      } else if (status.type === 'reconnect') {
        suspectUntil = Date.now() + DUPLICATE_WINDOW_MS;
        log.info({ suspectForMs: DUPLICATE_WINDOW_MS }, 'reconnected to NATS');
      }
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
      const policy = createPoisonPolicy();

      /** Dead-letters a poison message and acknowledges it; one it cannot park comes back later. */
      async function park(suspect: Suspect, reason: string, retryDelay: number): Promise<void> {
        const { m } = suspect;
        try {
          await bus.deadLetter(toBusMessage(m, true), reason);
        } catch (parkErr) {
          log.warn({ err: parkErr, durable: name, id: suspect.id }, 'could not park a poison message, will retry');
          m.nak(retryDelay);
          return;
        }
        m.ack();
        policy.parked(suspect.id);
        log.error({ durable: name, id: suspect.id, deliveries: m.info.deliveryCount }, 'poison message parked');
      }

      /** Each message of a failing batch alone, as the policy orders; the rest is handed back to JetStream. */
      async function isolate(suspects: Suspect[], batchError: unknown): Promise<RoundResult<Suspect>> {
        log.warn(
          { err: batchError, durable: name, size: suspects.length },
          'batch keeps failing: handling its messages one at a time',
        );
        const round = policy.isolate(suspects, batchError);
        await whileWorking(
          suspects.map((s) => s.m),
          async () => {
            for (let s = round.next(); s && !stopping.signal.aborted; s = round.next()) {
              try {
                await handler([toBusMessage(s.m, true)]);
                s.m.ack();
                round.record('ok');
              } catch (err) {
                round.record(err instanceof WaitForMore ? 'wait' : 'failed', err);
              }
            }
          },
        );
        const result = round.finish();
        const delay = result.attempt > 0 && !stopping.signal.aborted ? backoffMs(result.attempt, retryBaseMs) : 0;
        for (const { message, reason } of result.park) await park(message, reason, delay);
        for (const s of result.retry) s.m.nak(delay);
        return result;
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
        /** Fetches in a row that failed. */
        let fetchFailures = 0;
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
            fetchFailures = 0;
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
              await sleep(backoffMs(++fetchFailures, retryBaseMs), stopping.signal);
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
          const batch = jsMessages.map((m) => toBusMessage(m, m.seq <= highestSeq));
          for (const m of jsMessages) if (m.seq > highestSeq) highestSeq = m.seq;
          let outcome: Outcome = 'ok';
          let error: unknown;
          try {
            await whileWorking(jsMessages, () => handler(batch));
          } catch (err) {
            outcome = err instanceof WaitForMore ? 'wait' : 'failed';
            error = err;
          }
          // JetStream's delivery count: every delivery again follows a failure (or a lost process).
          const suspects = jsMessages.map((m, i) => ({ m, id: batch[i]!.id, failures: m.info.deliveryCount }));
          const step = policy.afterBatch(suspects, outcome);
          if (step.do === 'ack') for (const m of jsMessages) m.ack();
          else if (step.do === 'hold') {
            // Still ours: the ack wait starts again now, and the next round adds what comes.
            for (const m of jsMessages) m.working();
            held = jsMessages;
            log.debug(
              { durable: name, held: held.length, reason: (error as Error).message },
              'holding a batch for more of its messages',
            );
          } else if (step.do === 'retry') {
            const delay = backoffMs(step.attempt, retryBaseMs);
            log.warn({ err: error, durable: name, size: jsMessages.length, delay }, 'batch failed, will redeliver');
            for (const m of jsMessages) m.nak(delay);
            await sleep(delay, stopping.signal);
          } else {
            const result = await isolate(suspects, error);
            // Nothing went through: the store looks down, and fetching more would only fail too.
            if (result.pause) await sleep(backoffMs(result.attempt, retryBaseMs), stopping.signal);
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

async function ensureStream(jsm: JetStreamManager, name: string, subjects: string[], replicas: number): Promise<void> {
  try {
    const { config } = await jsm.streams.info(name);
    // NATS_STREAM_REPLICAS changed (a server grown into a cluster): JetStream copies the stream
    // to the new replicas itself.
    if (config.num_replicas !== replicas) await jsm.streams.update(name, { ...config, num_replicas: replicas });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    try {
      await jsm.streams.add({
        name,
        subjects,
        num_replicas: replicas,
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
