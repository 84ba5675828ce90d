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
//
// One bad event never holds up the rest: an event whose row cannot be built or holds text with a
// lone UTF-16 surrogate is dead-lettered before the insert, and an insert ClickHouse still refuses
// for its data (a value out of a column's range) is split until the refused rows stand alone; each
// of those events goes to the dead-letter store with the reason, the rest is written at once.
import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import type { EventRow, RowSink } from '../shared/event-rows.js';
import type { BatchHandler, Bus, BusMessage } from './bus.js';
import { decodeBatch, encodeBatch, type DecodedBatch, type EventEnvelope } from './envelope.js';

/** How one event type becomes rows of one ClickHouse table. */
export interface TableRoute {
  table: string;
  toRow(event: EventEnvelope): EventRow;
}

export interface OlapWriterOptions {
  bus: Bus;
  sink: RowSink;
  routes: Record<string, TableRoute>;
  log: Logger;
  metrics: Metrics;
}

/**
 * ClickHouse error codes that mean "this data can never be inserted": text, numbers, dates, UUIDs
 * or escapes that do not parse, values out of their type's range, constraints. An unreachable
 * server, a missing or read-only table, memory or part limits heal with time and are not here.
 */
const DATA_ERROR_CODES = new Set([
  6, // CANNOT_PARSE_TEXT
  25, // CANNOT_PARSE_ESCAPE_SEQUENCE (a lone UTF-16 surrogate in JSON)
  26, // CANNOT_PARSE_QUOTED_STRING
  27, // CANNOT_PARSE_INPUT_ASSERTION_FAILED (1.5 or 1e308 for an integer column)
  38, // CANNOT_PARSE_DATE
  41, // CANNOT_PARSE_DATETIME
  53, // TYPE_MISMATCH
  69, // ARGUMENT_OUT_OF_BOUND
  70, // CANNOT_CONVERT_TYPE
  72, // CANNOT_PARSE_NUMBER (a negative number for an unsigned column)
  117, // INCORRECT_DATA
  128, // TOO_LARGE_ARRAY_SIZE
  130, // CANNOT_READ_ARRAY_FROM_TEXT
  131, // TOO_LARGE_STRING_SIZE
  321, // VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
  349, // CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN
  376, // CANNOT_PARSE_UUID
  395, // FUNCTION_THROW_IF_VALUE_IS_NON_ZERO
  407, // DECIMAL_OVERFLOW
  441, // CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING
  467, // CANNOT_PARSE_BOOL
  469, // VIOLATED_CONSTRAINT
  563, // CANNOT_READ_MAP_FROM_TEXT
  632, // UNEXPECTED_DATA_AFTER_PARSED_VALUE
  675, // CANNOT_PARSE_IPV4
  676, // CANNOT_PARSE_IPV6
  691, // UNKNOWN_ELEMENT_OF_ENUM
].map(String));

function isDataError(err: unknown): boolean {
  // The server's errors and chDB's are both ClickHouseErrors with the numeric code as a string.
  // Network errors carry string codes (ECONNREFUSED) and never match.
  const code = (err as { code?: unknown })?.code;
  return code !== undefined && DATA_ERROR_CODES.has(String(code));
}

/** A string that is not well-formed UTF-16 (a lone surrogate); ES2024, present in Node 20. */
const isMalformed = (v: string) => !(v as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * The first column of a row holding text with a lone surrogate. ClickHouse refuses a high one
 * (code 25) and stores a low one as broken bytes; either way the event is dead-lettered before the
 * insert, so a flood of them costs one check each rather than a split of every insert.
 */
function malformedColumn(row: EventRow): string | undefined {
  for (const key in row) {
    const v = row[key];
    if (typeof v === 'string' && isMalformed(v)) return key;
  }
  return undefined;
}

/** ClickHouse's reason, on one line and short enough for a dead-letter header. */
const reasonOf = (err: unknown) => String((err as Error)?.message ?? err).replace(/\s+/g, ' ').slice(0, 300);

/** An event and the route that makes its row (several event types may share a table). */
interface Routed {
  event: EventEnvelope;
  route: TableRoute;
  /** The bus message that carried the event (a dead letter names it). */
  message: BusMessage;
}

/** One table's share of a batch. */
interface TableGroup {
  fresh: Routed[];
  /** Events of messages delivered before (maybe written already under another token). */
  redelivered: Routed[];
}

/** Rows built per turn of the event loop (about a millisecond of work). */
const ROWS_PER_TURN = 250;

const digest = (parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('base64url');

const tokenOf = (table: string, messages: BusMessage[]) => `${table}:${digest(messages.map((m) => m.id))}`;

/**
 * The token of a part of a split insert: the whole's token and the part's event ids. It differs
 * from the whole's and from every other part's, and the same rows of the same batch always get
 * the same token, so a retry that splits alike is dropped by the engine, and a retry that splits
 * otherwise (fewer rows after the redelivery check) never reuses a token for other rows.
 */
const partTokenOf = (token: string, part: Routed[]) => `${token}/${digest(part.map((r) => r.event.eventId))}`;

/** The index of the row ClickHouse's parser stopped at, when its error names one within the insert. */
function refusedRow(err: unknown, rowCount: number): number | undefined {
  const match = /\(at row (\d+)\)/.exec(String((err as Error)?.message ?? ''));
  const index = match ? Number(match[1]) - 1 : -1;
  return index >= 0 && index < rowCount ? index : undefined;
}

/** A message carrying just this event, for the dead-letter store; its id stays the same on a retry. */
const messageOfEvent = (message: BusMessage, event: unknown, eventKey: string): BusMessage => ({
  id: `${message.id}:${eventKey}`,
  subject: message.subject,
  data: encodeBatch([event as EventEnvelope]),
  deliveryCount: message.deliveryCount,
});

export function createOlapWriter(options: OlapWriterOptions): BatchHandler {
  const { bus, sink, routes, metrics } = options;
  const log = options.log.child({ module: 'olap-writer' });
  metrics.define('events_written_total', 'counter', 'Events inserted into ClickHouse');
  metrics.define('events_dead_lettered_total', 'counter', 'Events that could never be written');

  /** Parks one event of a message, alone, with the reason. */
  async function deadLetterEvent(message: BusMessage, event: unknown, eventKey: string, reason: string, label: string): Promise<void> {
    await bus.deadLetter(messageOfEvent(message, event, eventKey), reason);
    metrics.inc('events_dead_lettered_total', { reason: label });
  }

  /** Decodes the batch; dead-letters what cannot be decoded, and each invalid event alone. */
  async function decode(messages: BusMessage[]): Promise<{ message: BusMessage; events: EventEnvelope[] }[]> {
    const decoded = [];
    for (const message of messages) {
      // A batch is up to a second of traffic: let redirects in between its messages.
      if (decoded.length > 0) await yieldToLoop();
      let batch: DecodedBatch;
      try {
        batch = decodeBatch(message.data);
      } catch (err) {
        await bus.deadLetter(message, `undecodable batch: ${reasonOf(err)}`);
        metrics.inc('events_dead_lettered_total', { reason: 'undecodable' });
        continue;
      }
      if (batch.invalid.length > 0) {
        log.error({ id: message.id, invalid: batch.invalid.length, reason: batch.invalid[0]?.reason }, 'invalid events dead-lettered');
        for (const [i, { event, reason }] of batch.invalid.entries()) {
          await deadLetterEvent(message, event, `invalid-${i}`, `invalid event: ${reason.slice(0, 300)}`, 'invalid');
        }
      }
      decoded.push({ message, events: batch.events });
    }
    return decoded;
  }

  function groupByTable(decoded: { message: BusMessage; events: EventEnvelope[] }[]): Map<string, TableGroup> {
    const byTable = new Map<string, TableGroup>();
    // One event twice in a batch (a message the stream took again after a crash of its server,
    // delivered together with the first copy) is written once.
    const seen = new Set<string>();
    for (const { message, events } of decoded) {
      for (const event of events) {
        const route = routes[event.type];
        if (!route) continue; // Not every event type lands in ClickHouse (webhook-only types, say).
        if (seen.size === seen.add(event.eventId).size) continue;
        let group = byTable.get(route.table);
        if (!group) byTable.set(route.table, (group = { fresh: [], redelivered: [] }));
        (message.deliveryCount > 1 ? group.redelivered : group.fresh).push({ event, route, message });
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

  /**
   * Inserts the rows; when ClickHouse refuses them for their data, finds the refused rows and
   * dead-letters their events, writing the rest. ClickHouse names the row its parser stopped at
   * ("at row 18"): that row is tried alone first, then the rest, so each bad row costs about two
   * inserts. Where the hint is missing or proves wrong (a parser working in parallel chunks counts
   * rows per chunk), the rows are halved until each refused row stands alone. Anything else (the
   * server away) is thrown for the bus to retry: what went in before stays, and the redelivery
   * check leaves it out next time.
   */
  async function insertOrSplit(table: string, routed: Routed[], rows: EventRow[], wholeToken: string, token: string, trustHints: boolean): Promise<number> {
    try {
      await sink.insert(table, rows, token);
      return rows.length;
    } catch (err) {
      if (!isDataError(err)) throw err;
      if (rows.length === 1) {
        const { event, message } = routed[0]!;
        await deadLetterEvent(message, event, event.eventId, `ClickHouse refused the row for ${table}: ${reasonOf(err)}`, 'refused');
        return 0;
      }
      if (token === wholeToken) {
        log.warn({ table, rows: rows.length, reason: reasonOf(err) }, 'ClickHouse refused an insert for its data: splitting it to find the bad rows');
      }
      const part = (keep: (i: number) => boolean, hints: boolean) => {
        const r: Routed[] = [];
        const values: EventRow[] = [];
        for (let i = 0; i < rows.length; i++) {
          if (keep(i)) {
            r.push(routed[i]!);
            values.push(rows[i]!);
          }
        }
        return insertOrSplit(table, r, values, wholeToken, partTokenOf(wholeToken, r), hints);
      };
      const at = trustHints ? refusedRow(err, rows.length) : undefined;
      if (at !== undefined) {
        const written = await part((i) => i === at, false);
        // Written alone: the hint was wrong, so the rest is halved instead.
        return written + (await part((i) => i !== at, written === 0));
      }
      const mid = rows.length >>> 1;
      return (await part((i) => i < mid, trustHints)) + (await part((i) => i >= mid, trustHints));
    }
  }

  /** Builds the rows; an event whose row cannot be built, or holds broken text, is dead-lettered on its own. */
  async function toRows(table: string, routed: Routed[]): Promise<{ routed: Routed[]; rows: EventRow[] }> {
    const rows = new Array<EventRow>(routed.length);
    let failed: Set<number> | undefined;
    for (let i = 0; i < routed.length; i++) {
      // A second of clicks is thousands of rows, a few microseconds each: let redirects in between.
      if (i > 0 && i % ROWS_PER_TURN === 0) await yieldToLoop();
      const { event, route, message } = routed[i]!;
      let reason: string | undefined;
      let label = 'unmappable';
      try {
        const row = (rows[i] = route.toRow(event));
        const column = malformedColumn(row);
        if (column !== undefined) {
          reason = `text in column ${column} of ${table} is not well-formed UTF-16 (a lone surrogate)`;
          label = 'malformed';
        }
      } catch (err) {
        reason = `row for ${table} could not be built: ${reasonOf(err)}`;
      }
      if (reason !== undefined) {
        await deadLetterEvent(message, event, event.eventId, reason, label);
        (failed ??= new Set()).add(i);
      }
    }
    if (!failed) return { routed, rows };
    const keep = (_: unknown, i: number) => !failed.has(i);
    return { routed: routed.filter(keep), rows: rows.filter(keep) };
  }

  async function writeTables(messages: BusMessage[], byTable: Map<string, TableGroup>): Promise<void> {
    for (const [table, group] of byTable) {
      const pending = group.fresh.concat(await notYetWritten(table, group.redelivered));
      if (pending.length === 0) continue;
      const { routed, rows } = await toRows(table, pending);
      if (rows.length === 0) continue;
      const token = tokenOf(table, messages);
      const written = await insertOrSplit(table, routed, rows, token, token, true);
      if (written > 0) metrics.inc('events_written_total', { table }, written);
    }
  }

  return async (messages) => {
    await writeTables(messages, groupByTable(await decode(messages)));
  };
}
