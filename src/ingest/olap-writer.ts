// The consumer that moves events from the bus into ClickHouse. A bus batch (several publisher
// batches) becomes one insert per table, whatever its number of messages: ClickHouse, and chDB
// even more, pays a fixed cost per insert (about 35 ms of CPU for a click insert with its rollups
// on chDB), so inserts of seconds of traffic rather than of 50 ms keep that cost small. Acks
// happen only after the inserts.
//
// Counting once: the insert's deduplication token is made from the batch's message ids, so a
// batch retried as it was (the in-process bus does; so does a handler retry) is dropped by the
// engine. A message delivered again in another company (JetStream after a crash or a lost ack)
// would carry another token, so for redelivered messages the writer first asks the table which
// of their event ids it holds already and leaves those out.
import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import type { BatchHandler, Bus, BusMessage } from './bus.js';
import { decodeBatch, type EventEnvelope } from './envelope.js';

/** How one event type becomes rows of one ClickHouse table. */
export interface TableRoute {
  table: string;
  toRow(event: EventEnvelope): Record<string, unknown>;
}

/** Which of these events a table holds already (by event id, within their tenants and time span). */
export interface WrittenQuery {
  organizationIds: number[];
  fromMs: number;
  toMs: number;
  eventIds: string[];
}

/** The writing side of ClickHouse the consumer needs; src/olap supplies it. */
export interface RowSink {
  insert(table: string, rows: Record<string, unknown>[], dedupToken: string): Promise<void>;
  written(table: string, query: WrittenQuery): Promise<Set<string>>;
}

export interface OlapWriterOptions {
  bus: Bus;
  sink: RowSink;
  routes: Record<string, TableRoute>;
  log: Logger;
  metrics: Metrics;
}

/**
 * ClickHouse error codes that mean "this data can never be inserted" (unparsable or out-of-range
 * values), as opposed to an unreachable server or a missing table, which heal with time.
 */
const DATA_ERROR_CODES = new Set(['6', '26', '27', '38', '41', '53', '69', '70', '72', '117', '131', '321', '376']);
/** Deliveries of a batch that ClickHouse refuses for its data before its messages are tried alone. */
const DATA_ERROR_ATTEMPTS = 3;

function isDataError(err: unknown): boolean {
  // The server's errors are ClickHouseErrors; chDB's, from an insert's stream, plain Errors with
  // the same numeric code. Network errors carry string codes (ECONNREFUSED) and never match.
  const code = (err as { code?: unknown })?.code;
  return code !== undefined && DATA_ERROR_CODES.has(String(code));
}

/** An event and the route that makes its row (several event types may share a table). */
interface Routed {
  event: EventEnvelope;
  route: TableRoute;
}

/** One table's share of a batch. */
interface TableGroup {
  fresh: Routed[];
  /** Events of messages delivered before (maybe written already under another token). */
  redelivered: Routed[];
}

const tokenOf = (table: string, messages: BusMessage[]) =>
  `${table}:${createHash('sha256').update(messages.map((m) => m.id).join('\n')).digest('base64url')}`;

export function createOlapWriter(options: OlapWriterOptions): BatchHandler {
  const { bus, sink, routes, metrics } = options;
  const log = options.log.child({ module: 'olap-writer' });
  metrics.define('events_written_total', 'counter', 'Events inserted into ClickHouse');
  metrics.define('events_dead_lettered_total', 'counter', 'Events that could never be written');

  /** Decodes the batch; dead-letters what cannot be decoded and counts invalid events. */
  async function decode(messages: BusMessage[]): Promise<{ message: BusMessage; events: EventEnvelope[] }[]> {
    const decoded = [];
    for (const message of messages) {
      // A batch is up to a second of traffic: let redirects in between its messages.
      if (decoded.length > 0) await yieldToLoop();
      let batch;
      try {
        batch = decodeBatch(message.data);
      } catch (err) {
        await bus.deadLetter(message, `undecodable batch: ${(err as Error).message}`);
        metrics.inc('events_dead_lettered_total', { reason: 'undecodable' });
        continue;
      }
      if (batch.invalid.length > 0) {
        log.error({ id: message.id, invalid: batch.invalid.length, reason: batch.invalid[0]?.reason }, 'invalid events skipped');
        metrics.inc('events_dead_lettered_total', { reason: 'invalid' }, batch.invalid.length);
      }
      decoded.push({ message, events: batch.events });
    }
    return decoded;
  }

  function groupByTable(decoded: { message: BusMessage; events: EventEnvelope[] }[]): Map<string, TableGroup> {
    const byTable = new Map<string, TableGroup>();
    for (const { message, events } of decoded) {
      for (const event of events) {
        const route = routes[event.type];
        if (!route) continue; // Not every event type lands in ClickHouse (webhook-only types, say).
        let group = byTable.get(route.table);
        if (!group) byTable.set(route.table, (group = { fresh: [], redelivered: [] }));
        (message.deliveryCount > 1 ? group.redelivered : group.fresh).push({ event, route });
      }
    }
    return byTable;
  }

  /** The redelivered events the table does not hold yet. */
  async function notYetWritten(table: string, routed: Routed[]): Promise<Routed[]> {
    if (routed.length === 0) return routed;
    let fromMs = Infinity;
    let toMs = -Infinity;
    for (const { event } of routed) {
      if (event.occurredAt < fromMs) fromMs = event.occurredAt;
      if (event.occurredAt > toMs) toMs = event.occurredAt;
    }
    const held = await sink.written(table, {
      organizationIds: [...new Set(routed.map((r) => r.event.organizationId))],
      fromMs,
      toMs,
      eventIds: routed.map((r) => r.event.eventId),
    });
    return held.size === 0 ? routed : routed.filter((r) => !held.has(r.event.eventId));
  }

  async function writeTables(messages: BusMessage[], byTable: Map<string, TableGroup>): Promise<void> {
    for (const [table, group] of byTable) {
      const routed = group.fresh.concat(await notYetWritten(table, group.redelivered));
      if (routed.length === 0) continue;
      const rows = new Array<Record<string, unknown>>(routed.length);
      for (let i = 0; i < routed.length; i++) rows[i] = routed[i]!.route.toRow(routed[i]!.event);
      await sink.insert(table, rows, tokenOf(table, messages));
      metrics.inc('events_written_total', { table }, rows.length);
    }
  }

  /** After repeated data errors: each message alone, so one bad message cannot hold up the rest. */
  async function writeOneByOne(decoded: { message: BusMessage; events: EventEnvelope[] }[]): Promise<void> {
    for (const item of decoded) {
      try {
        await writeTables([item.message], groupByTable([item]));
      } catch (err) {
        if (!isDataError(err)) throw err;
        await bus.deadLetter(item.message, `ClickHouse refused the rows: ${(err as Error).message.slice(0, 300)}`);
        metrics.inc('events_dead_lettered_total', { reason: 'refused' }, item.events.length);
      }
    }
  }

  return async (messages) => {
    const decoded = await decode(messages);
    try {
      await writeTables(messages, groupByTable(decoded));
    } catch (err) {
      if (isDataError(err) && messages.some((m) => m.deliveryCount >= DATA_ERROR_ATTEMPTS)) {
        log.warn({ err, messages: messages.length }, 'ClickHouse keeps refusing this batch: writing its messages one by one');
        await writeOneByOne(decoded);
        return;
      }
      throw err;
    }
  };
}
