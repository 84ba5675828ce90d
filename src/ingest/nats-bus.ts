// The bus on NATS JetStream: one stream per namespace holds every event subject, durable pull
// consumers are provisioned idempotently at start, messages are acked only after the handler
// resolved and redelivered with back-off otherwise. Broadcasts use plain NATS subjects.
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
import { backoffMs, sleep, type Bus, type BusMessage, type Consumer } from './bus.js';

export interface NatsBusOptions {
  url: string;
  /** Prefixes subjects (`ns.events.…`) and names the streams (`ns_EVENTS`, `ns_DLQ`). */
  namespace: string;
  log: Logger;
}

const ACK_WAIT_MS = 60_000;

export async function createNatsBus(options: NatsBusOptions): Promise<Bus> {
  const log = options.log.child({ module: 'nats-bus' });
  const ns = options.namespace;
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
      ack_wait: ACK_WAIT_MS * 1_000_000,
      max_ack_pending: 20_000,
    };
    try {
      await jsm.consumers.info(stream, durable);
      await jsm.consumers.update(stream, durable, { filter_subject: config.filter_subject, ack_wait: config.ack_wait, max_ack_pending: config.max_ack_pending });
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

  return {
    kind: 'nats',
    async publish(subject, data, messageId) {
      await js.publish(full(subject), data, { msgID: messageId, timeout: 5_000 });
    },
    async consume({ durable, subject, maxBatch, handler }) {
      const name = `${durable}`;
      await provisionConsumer(name, subject);
      const consumer = await js.consumers.get(stream, name);
      const stopping = new AbortController();
      const loop = (async () => {
        let failures = 0;
        while (!stopping.signal.aborted) {
          let jsMessages: JsMsg[] = [];
          try {
            const iter = await consumer.fetch({ max_messages: maxBatch, expires: 1_000 });
            for await (const m of iter) jsMessages.push(m);
          } catch (err) {
            if (stopping.signal.aborted) break;
            log.warn({ err, durable: name }, 'fetch failed');
            await sleep(backoffMs(++failures), stopping.signal);
            continue;
          }
          if (jsMessages.length === 0) continue;
          const batch: BusMessage[] = jsMessages.map((m) => ({
            id: m.headers?.get('Nats-Msg-Id') || `${m.info.stream}:${m.seq}`,
            subject: relative(m.subject),
            data: m.data,
            deliveryCount: m.info.deliveryCount,
          }));
          try {
            await handler(batch);
            for (const m of jsMessages) m.ack();
            failures = 0;
          } catch (err) {
            failures++;
            const delay = backoffMs(failures);
            log.warn({ err, durable: name, size: batch.length, delay }, 'batch failed, will redeliver');
            for (const m of jsMessages) m.nak(delay);
            await sleep(delay, stopping.signal);
          }
          jsMessages = [];
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
      headers.set('Signpost-Dead-Letter-Reason', reason.replace(/[\r\n]+/g, ' ').slice(0, 500));
      await js.publish(full(`dlq.${message.subject}`), message.data, { msgID: `dlq:${message.id}`, headers });
      log.error({ subject: message.subject, id: message.id, reason }, 'message dead-lettered');
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
        duplicate_window: 2 * 60 * 1_000_000_000,
      });
    } catch (addErr) {
      if (!/already in use|already exists/i.test(String(addErr))) throw addErr;
    }
  }
}

function isNotFound(err: unknown): boolean {
  return /not found/i.test(String((err as Error)?.message ?? err));
}
