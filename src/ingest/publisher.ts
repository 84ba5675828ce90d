// The edge's side of the bus: record() never blocks or throws. Events gather per subject and
// leave as one message per batch (on size, bytes or a short delay), serialised once. A batch the
// bus refuses stays queued and is retried with back-off. Memory holds a bounded backlog; beyond
// it, and whatever is still unsent when the process must stop, goes to the disk spool, which is
// sent when the bus takes messages again (after a restart too).
import { createHistogram } from 'node:perf_hooks';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import { uuidv7 } from '../shared/ids.js';
import { backoffMs, sleep, type Bus } from './bus.js';
import { encodeBatch, eventSubject } from './envelope.js';
import { EVENT_TYPES, type EventOf, type EventType, type RecordedEvent } from './event-registry.js';
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

/**
 * Batches on their way to the bus at once. JetStream acknowledges each after a round trip; a batch
 * waiting for a free slot is still in this process's memory, lost to a crash, while one sent is in
 * the kernel's socket buffer and reaches the server even if the process dies. With few slots the
 * unsent backlog grew whenever the round trip outlasted the batch delay times the slots (a busy
 * server: tens of milliseconds); 64 batches of at most the batch delay each cover hundreds of
 * milliseconds of round trip. One connection keeps them in the order sent; the in-process log
 * commits them as one group.
 */
const MAX_IN_FLIGHT = 64;

/** A sealed batch in memory, and whether it is on its way to the bus now. */
interface Outgoing extends SpooledBatch {
  sending: boolean;
}

export function createEventPublisher(options: PublisherOptions): EventPublisher {
  const { bus, metrics, maxBatch, maxDelayMs, spool } = options;
  const maxBytes = options.maxBytes ?? 900_000;
  const maxBufferedBytes = options.maxBufferedBytes ?? 64 * 1024 * 1024;
  const log = options.log.child({ module: 'publisher' });
  const buffers = new Map<string, RecordedEvent[]>();
  /** Sealed batches not yet held by the bus, oldest first; those in flight are among the first. */
  const outbox: Outgoing[] = [];
  let buffered = 0;
  let queued = 0;
  let queuedBytes = 0;
  let timer: NodeJS.Timeout | undefined;
  /** When the oldest event still in `buffers` was recorded (performance.now()). */
  let oldestAt = 0;
  let inFlight = 0;
  /** A batch of the spool on its way (they go one at a time, after memory's). */
  let spoolSending = false;
  /** Set while the bus refuses batches: nothing new goes until it ends. */
  let backOff: NodeJS.Timeout | undefined;
  let failures = 0;
  let closed = false;
  /** Stops sending at close, after the drain: ends the retries against a bus that is gone. */
  let stopped = false;
  /** Woken whenever a send ends, for flush and close. */
  let settled: (() => void)[] = [];

  metrics.define('events_accepted_total', 'counter', 'Events recorded at the edge', { labels: { type: EVENT_TYPES } });
  metrics.define('events_published_total', 'counter', 'Events held durably by the bus');
  metrics.define('event_publish_retries_total', 'counter', 'Batches the bus refused and that are retried');
  metrics.define(
    'events_spooled_total',
    'counter',
    'Events written to the disk spool while the bus could not take them',
  );
  metrics.define(
    'events_dropped_total',
    'counter',
    'Events lost (recorded after close, or no spool at a failed shutdown)',
    { labels: { reason: ['closed', 'shutdown'] } },
  );
  // How long the bus takes to hold a batch: with the batch delay and the loop's lateness, what a
  // crash of this process can lose (JetStream's round trip; the embedded log's write).
  const publishTime = createHistogram();
  metrics.define(
    'event_publish_delay_seconds',
    'gauge',
    'Time the bus took to hold a batch, since the previous scrape: p99 and max',
    {
      labels: { quantile: ['0.99', '1'] },
      collect: () => {
        const points =
          publishTime.count === 0
            ? []
            : [
                { labels: { quantile: '0.99' }, value: publishTime.percentile(99) / 1e9 },
                { labels: { quantile: '1' }, value: publishTime.max / 1e9 },
              ];
        publishTime.reset();
        return points;
      },
    },
  );

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
    outbox.push({ ...batch, sending: false });
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

  function wakeWaiters(): void {
    const waiting = settled;
    settled = [];
    for (const wake of waiting) wake();
  }

  /** The bus refused a batch: nothing new goes for a while, then everything unsent is tried again. */
  function refused(err: unknown): void {
    failures++;
    metrics.inc('event_publish_retries_total');
    if (backOff) return;
    const delay = backoffMs(failures, 200, 5_000);
    log.warn({ err, backlog: queued, delay }, 'bus refused a batch, retrying');
    backOff = setTimeout(() => {
      backOff = undefined;
      pump();
    }, delay);
  }

  function accepted(count: number): void {
    failures = 0;
    metrics.inc('events_published_total', {}, count);
  }

  function send(batch: Outgoing): void {
    batch.sending = true;
    inFlight++;
    const sentAt = process.hrtime.bigint();
    bus
      .publish(batch.subject, batch.data, batch.id)
      .then(
        () => {
          publishTime.record(Math.max(1, Number(process.hrtime.bigint() - sentAt)));
          // Near the front: it was among the oldest unsent when it left. Gone from the outbox only
          // when close spooled it, having waited for it in vain.
          const at = outbox.indexOf(batch);
          if (at >= 0) {
            outbox.splice(at, 1);
            queued -= batch.count;
            queuedBytes -= batch.data.byteLength;
          }
          accepted(batch.count);
        },
        (err: unknown) => {
          batch.sending = false;
          refused(err);
        },
      )
      .finally(() => {
        inFlight--;
        pump();
        wakeWaiters();
      });
  }

  /** The spool's oldest batch (outage overflow, earlier runs), once memory has nothing to send. */
  function sendSpooled(batch: SpooledBatch): void {
    spoolSending = true;
    bus
      .publish(batch.subject, batch.data, batch.id)
      .then(() => {
        spool!.remove(batch.id);
        accepted(batch.count);
      }, refused)
      .finally(() => {
        spoolSending = false;
        pump();
        wakeWaiters();
      });
  }

  /** Sends the oldest unsent batches, up to MAX_IN_FLIGHT at once. */
  function pump(): void {
    if (stopped || backOff) return;
    for (let i = 0; i < outbox.length && inFlight < MAX_IN_FLIGHT; i++) {
      const batch = outbox[i]!;
      if (!batch.sending) send(batch);
    }
    if (outbox.length > 0 || inFlight > 0 || spoolSending) return;
    const onDisk = spool?.peek();
    if (onDisk) sendSpooled(onDisk);
  }

  /** Until a send under way ends, or the deadline. */
  async function settling(deadline: number): Promise<void> {
    const wait = new AbortController();
    await Promise.race([
      new Promise<void>((resolve) => settled.push(resolve)),
      sleep(Math.max(1, deadline - Date.now()), wait.signal),
    ]);
    wait.abort();
  }

  async function waitUntilSent(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (outbox.length > 0 || buffered > 0) {
      if (Date.now() >= deadline) return false;
      if (buffered > 0) cut();
      pump();
      await settling(deadline);
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
      const now = performance.now();
      if (buffered++ === 0) oldestAt = now;
      countAccepted(event.type);
      // The timer alone would seal the batch only when the event loop comes round to it: on a busy
      // machine one turn answers many requests, and everything they recorded would wait, lost to a
      // crash, for as long as the loop runs late. Checked here as well, an event waits at most the
      // batch delay before it is on its way, however late the loop (the caller answers after this).
      if (buffered >= maxBatch || now - oldestAt >= maxDelayMs) cut();
      else if (!timer) timer = setTimeout(cut, maxDelayMs);
    },
    flush(timeoutMs = 10_000) {
      cut();
      return waitUntilSent(timeoutMs);
    },
    async close(timeoutMs) {
      cut();
      const deadline = Date.now() + timeoutMs;
      const sent = await waitUntilSent(timeoutMs);
      closed = true;
      stopped = true;
      clearTimeout(backOff);
      backOff = undefined;
      // What is on its way either lands or comes back: spooling it as well would send it twice.
      while ((inFlight > 0 || spoolSending) && Date.now() < deadline) await settling(deadline);
      if (sent) return true;
      if (!spool) {
        metrics.inc('events_dropped_total', { reason: 'shutdown' }, queued);
        log.error({ backlog: queued }, 'events still unsent at close and no spool to keep them');
        return false;
      }
      for (const { sending: _, ...batch } of outbox.splice(0)) toSpool(batch);
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
