// The edge's side of the bus: record() never blocks or throws. Events gather per subject and
// leave as one message per batch (on size, bytes or a short delay), serialised once. A batch the
// bus refuses stays queued, in order, and is retried with back-off; close() drains everything.
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import { uuidv7 } from '../shared/ids.js';
import { backoffMs, sleep, type Bus } from './bus.js';
import { encodeBatch, eventSubject, type EventEnvelope } from './envelope.js';

export interface EventPublisher {
  record(event: EventEnvelope): void;
  /** Sends everything recorded so far; resolves when the bus holds it (or the deadline passes). */
  flush(timeoutMs?: number): Promise<boolean>;
  close(timeoutMs: number): Promise<boolean>;
  /** Events recorded and not yet held by the bus. */
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
}

interface Outgoing {
  subject: string;
  id: string;
  data: Uint8Array;
  count: number;
}

export function createEventPublisher(options: PublisherOptions): EventPublisher {
  const { bus, metrics, maxBatch, maxDelayMs } = options;
  const maxBytes = options.maxBytes ?? 900_000;
  const log = options.log.child({ module: 'publisher' });
  const buffers = new Map<string, EventEnvelope[]>();
  const outbox: Outgoing[] = [];
  let buffered = 0;
  let queued = 0;
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> | undefined;
  let failures = 0;
  let closed = false;
  // Aborted at close, after the drain: ends a retry loop against a bus that is gone.
  const stop = new AbortController();

  metrics.define('events_accepted_total', 'counter', 'Events recorded at the edge');
  metrics.define('events_published_total', 'counter', 'Events held durably by the bus');
  metrics.define('event_publish_retries_total', 'counter', 'Batches the bus refused and that are retried');

  function seal(subject: string, events: EventEnvelope[]): void {
    const data = encodeBatch(events);
    if (data.byteLength > maxBytes && events.length > 1) {
      const half = Math.ceil(events.length / 2);
      seal(subject, events.slice(0, half));
      seal(subject, events.slice(half));
      return;
    }
    outbox.push({ subject, id: uuidv7(), data, count: events.length });
    queued += events.length;
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

  /** One sender at a time keeps batches in order and bounds what is in flight. */
  function pump(): void {
    if (sending || outbox.length === 0) return;
    sending = (async () => {
      while (outbox.length > 0) {
        const next = outbox[0]!;
        try {
          await bus.publish(next.subject, next.data, next.id);
          outbox.shift();
          queued -= next.count;
          failures = 0;
          metrics.inc('events_published_total', {}, next.count);
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
      if (outbox.length > 0 && !stop.signal.aborted) pump();
    });
  }

  async function waitUntilSent(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (outbox.length > 0 || buffered > 0) {
      if (Date.now() >= deadline) return false;
      if (buffered > 0) cut();
      if (sending) await Promise.race([sending, sleep(Math.max(1, deadline - Date.now()))]);
      else pump();
    }
    return true;
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
      list.push(event);
      buffered++;
      metrics.inc('events_accepted_total', { type: event.type });
      if (buffered >= maxBatch) cut();
      else if (!timer) timer = setTimeout(cut, maxDelayMs);
    },
    flush(timeoutMs = 10_000) {
      cut();
      return waitUntilSent(timeoutMs);
    },
    async close(timeoutMs) {
      cut();
      const ok = await waitUntilSent(timeoutMs);
      closed = true;
      stop.abort();
      if (!ok) log.error({ backlog: queued + buffered }, 'events still unsent at close');
      return ok;
    },
    backlog() {
      return queued + buffered;
    },
  };
}
