// The edge's side of the bus: record() never blocks or throws. Events gather per subject and
// leave as one message per batch (on size, bytes or a short delay), serialised once. A batch the
// bus refuses stays queued and is retried with back-off. Memory holds a bounded backlog; beyond
// it, and whatever is still unsent when the process must stop, goes to the disk spool, which is
// sent when the bus takes messages again (after a restart too).
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import { uuidv7 } from '../shared/ids.js';
import { backoffMs, sleep, type Bus } from './bus.js';
import { encodeBatch, eventSubject } from './envelope.js';
import type { EventOf, EventType, RecordedEvent } from './event-registry.js';
import type { Spool, SpooledBatch } from './spool.js';

export interface EventPublisher {
  /** The payload must be of the type's shape (event-registry.ts); the compiler refuses another. */
  record<T extends EventType>(event: EventOf<T>): void;
  /** Sends everything recorded so far; resolves when the bus holds it (or the deadline passes). */
  flush(timeoutMs?: number): Promise<boolean>;
  /** Sends what it can before the deadline and spools the rest; false if anything was lost. */
  close(timeoutMs: number): Promise<boolean>;
  /** Events recorded and not yet held by the bus, in memory. */
  backlog(): number;
}

export interface PublisherOptions {
  bus: Bus;
  log: Logger;
  metrics: Metrics;
  maxBatch: number;
  maxDelayMs: number;
  /** NATS refuses messages over 1 MB by default; stay well below. */
  maxBytes?: number;
  /** Bytes of sealed batches kept in memory while the bus refuses them; more goes to the spool. */
  maxBufferedBytes?: number;
  spool?: Spool;
}

export function createEventPublisher(options: PublisherOptions): EventPublisher {
  const { bus, metrics, maxBatch, maxDelayMs, spool } = options;
  const maxBytes = options.maxBytes ?? 900_000;
  const maxBufferedBytes = options.maxBufferedBytes ?? 64 * 1024 * 1024;
  const log = options.log.child({ module: 'publisher' });
  const buffers = new Map<string, RecordedEvent[]>();
  const outbox: SpooledBatch[] = [];
  let buffered = 0;
  let queued = 0;
  let queuedBytes = 0;
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> | undefined;
  let failures = 0;
  let closed = false;
  // Aborted at close, after the drain: ends a retry loop against a bus that is gone.
  const stop = new AbortController();

  metrics.define('events_accepted_total', 'counter', 'Events recorded at the edge');
  metrics.define('events_published_total', 'counter', 'Events held durably by the bus');
  metrics.define('event_publish_retries_total', 'counter', 'Batches the bus refused and that are retried');
  metrics.define('events_spooled_total', 'counter', 'Events written to the disk spool while the bus could not take them');
  metrics.define('events_dropped_total', 'counter', 'Events lost (recorded after close, or no spool at a failed shutdown)');

  const acceptedByType = new Map<string, { inc(by?: number): void }>();
  const countAccepted = (type: string) => {
    let counter = acceptedByType.get(type);
    if (!counter) acceptedByType.set(type, (counter = metrics.counter('events_accepted_total', { type })));
    counter.inc();
  };

  function toSpool(batch: SpooledBatch): void {
    spool!.put(batch);
    metrics.inc('events_spooled_total', {}, batch.count);
  }

  function seal(subject: string, events: RecordedEvent[]): void {
    const data = encodeBatch(events);
    if (data.byteLength > maxBytes && events.length > 1) {
      const half = Math.ceil(events.length / 2);
      seal(subject, events.slice(0, half));
      seal(subject, events.slice(half));
      return;
    }
    const batch = { subject, id: uuidv7(), data, count: events.length };
    if (spool && queuedBytes + data.byteLength > maxBufferedBytes) {
      toSpool(batch);
      return;
    }
    outbox.push(batch);
    queued += batch.count;
    queuedBytes += data.byteLength;
  }

  function cut(): void {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    for (const [subject, events] of buffers) {
      if (events.length > 0) seal(subject, events);
    }
    buffers.clear();
    buffered = 0;
    pump();
  }

  /** The next batch to send: memory first, then the spool (outage overflow, earlier runs). */
  function next(): { batch: SpooledBatch; spooled: boolean } | undefined {
    const inMemory = outbox[0];
    if (inMemory) return { batch: inMemory, spooled: false };
    const onDisk = spool?.peek();
    return onDisk && { batch: onDisk, spooled: true };
  }

  /** One sender at a time keeps batches in order and bounds what is in flight. */
  function pump(): void {
    if (sending || stop.signal.aborted) return;
    if (outbox.length === 0 && !(spool && spool.count() > 0)) return;
    sending = (async () => {
      for (let item = next(); item && !stop.signal.aborted; item = next()) {
        const { batch, spooled } = item;
        try {
          await bus.publish(batch.subject, batch.data, batch.id);
          if (spooled) {
            spool!.remove(batch.id);
          } else {
            outbox.shift();
            queued -= batch.count;
            queuedBytes -= batch.data.byteLength;
          }
          failures = 0;
          metrics.inc('events_published_total', {}, batch.count);
        } catch (err) {
          failures++;
          metrics.inc('event_publish_retries_total');
          const delay = backoffMs(failures, 200, 5_000);
          log.warn({ err, backlog: queued, delay }, 'bus refused a batch, retrying');
          await sleep(delay, stop.signal);
          if (stop.signal.aborted) break;
        }
      }
    })().finally(() => {
      sending = undefined;
    });
  }

  async function waitUntilSent(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (outbox.length > 0 || buffered > 0) {
      if (Date.now() >= deadline) return false;
      if (buffered > 0) cut();
      if (!sending) pump();
      const wait = new AbortController();
      await Promise.race([sending, sleep(Math.max(1, deadline - Date.now()), wait.signal)]);
      wait.abort();
    }
    return true;
  }

  // Batches an earlier run could not send.
  if (spool && spool.count() > 0) {
    log.info({ batches: spool.count() }, 'sending spooled event batches');
    pump();
  }

  return {
    record(event) {
      if (closed) {
        // After close the process is going away; a late event is counted, never silently lost.
        metrics.inc('events_dropped_total', { reason: 'closed' });
        log.error({ type: event.type, eventId: event.eventId }, 'event recorded after close');
        return;
      }
      const subject = eventSubject(event.type);
      let list = buffers.get(subject);
      if (!list) buffers.set(subject, (list = []));
      list.push(event as RecordedEvent);
      buffered++;
      countAccepted(event.type);
      if (buffered >= maxBatch) cut();
      else if (!timer) timer = setTimeout(cut, maxDelayMs);
    },
    flush(timeoutMs = 10_000) {
      cut();
      return waitUntilSent(timeoutMs);
    },
    async close(timeoutMs) {
      cut();
      const sent = await waitUntilSent(timeoutMs);
      closed = true;
      stop.abort();
      if (sending) await sending;
      if (sent) return true;
      if (!spool) {
        metrics.inc('events_dropped_total', { reason: 'shutdown' }, queued);
        log.error({ backlog: queued }, 'events still unsent at close and no spool to keep them');
        return false;
      }
      for (const batch of outbox.splice(0)) toSpool(batch);
      log.warn({ events: queued }, 'bus unavailable at shutdown: events spooled to disk, sent at next start');
      queued = 0;
      queuedBytes = 0;
      return true;
    },
    backlog() {
      return queued + buffered;
    },
  };
}
