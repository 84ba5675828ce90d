// The consumer that moves events from the bus into ClickHouse. A bus batch (several publisher
// batches) becomes one insert per table, whatever its number of messages: ClickHouse, and chDB
// even more, pays a fixed cost per insert (about 35 ms of CPU for a click insert with its rollups
// on chDB), so inserts of seconds of traffic rather than of 50 ms keep that cost small. Acks
// happen only after the inserts.
//
// Counting once: the insert's deduplication token is made from the batch's message ids, so a
// batch retried as it was (the in-process bus does; so does a handler retry) is dropped by the
// engine, in the raw table and in each rollup alike. A batch's messages are recorded as one insert
// group before its inserts. Delivered again (JetStream after a crash or a lost ack, the in-process
// bus after a restart), perhaps with other messages, a recorded group whose messages are all back
// is inserted again as it was (the same events, under the same token): an insert a crash cut
// between the raw rows and the rollups is completed, and nothing is counted twice. A recorded
// group back only in part waits for the rest (WaitForMore: JetStream redelivers a batch as each
// message's ack wait runs out, not always in one fetch), up to groupWaitMs. Redelivered messages
// outside such a group, and those of a group whose rest never came, are looked up in the table,
// and only the events it does not hold yet go in.
//
// One bad event never holds up the rest: an event whose row cannot be built or holds text with a
// lone UTF-16 surrogate is dead-lettered before the insert, and an insert ClickHouse still refuses
// for its data (a value out of a column's range) is split until the refused rows stand alone; each
// of those events goes to the dead-letter store with the reason, the rest is written at once.
import { createHash } from 'node:crypto';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import type { EventRow, RecordedGroup, RowSink } from '../shared/event-rows.js';
import { WaitForMore, type BatchHandler, type Bus, type BusMessage } from './bus.js';
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
  /** How long a recorded group back only in part waits for the rest of its messages; default GROUP_WAIT_MS. */
  groupWaitMs?: number;
}

/**
 * ClickHouse error codes that mean "this data can never be inserted": text, numbers, dates, UUIDs
 * or escapes that do not parse, values out of their type's range, constraints. An unreachable
 * server, a missing or read-only table, memory or part limits heal with time and are not here.
 */
const DATA_ERROR_CODES = new Set(
  [
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
  ].map(String),
);

function isDataError(err: unknown): boolean {
  // The server's errors and chDB's are both ClickHouseErrors with the numeric code as a string.
  // Network errors carry string codes (ECONNREFUSED) and never match.
  const code = (err as { code?: unknown })?.code;
  return code !== undefined && DATA_ERROR_CODES.has(String(code));
}

/** Why an event was dead-lettered, as `events_dead_lettered_total` labels it. */
const DEAD_LETTER_REASONS = ['undecodable', 'invalid', 'refused', 'malformed', 'unmappable'];

/** Seconds from the edge to ClickHouse: the batch delay and write interval (about a second) up to a long outage. */
const LAG_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800];

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
const reasonOf = (err: unknown) =>
  String((err as Error)?.message ?? err)
    .replace(/\s+/g, ' ')
    .slice(0, 300);

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

/** Messages inserted under one token: a new group, or a recorded one back again. */
interface InsertGroup {
  messages: BusMessage[];
  /** For a recorded group back again: the events its first insert left out as written already. */
  leftOut?: Set<string>;
}

/**
 * How long a recorded group may be replayed under its token: well within the tables'
 * deduplication windows (10,000 inserts, close to three hours at one insert a second).
 */
const REPLAY_WINDOW_MS = 60 * 60 * 1000;

/**
 * How long a recorded group back only in part waits for the rest. After a crash the rest comes
 * within a second or two (the spread of the first deliveries); a rest that never comes (acked
 * after all, or handed to another instance) costs this delay once.
 */
const GROUP_WAIT_MS = 20_000;

/** Groups remembered as waiting; beyond this the oldest is forgotten (it waits afresh if seen again). */
const MAX_WAITING_GROUPS = 1_000;

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
  const groupWaitMs = options.groupWaitMs ?? GROUP_WAIT_MS;
  const log = options.log.child({ module: 'olap-writer' });
  /** Recorded groups seen back only in part, by their first message id: since when, and whether the wait is over. */
  const waiting = new Map<string, { since: number; over: boolean }>();
  const tables = [...new Set(Object.values(routes).map((route) => route.table))];
  metrics.define('events_written_total', 'counter', 'Events inserted into ClickHouse', { labels: { table: tables } });
  metrics.define('events_dead_lettered_total', 'counter', 'Events that could never be written', {
    labels: { reason: DEAD_LETTER_REASONS },
  });
  const lag = metrics.histogram('event_write_lag_seconds', 'From an event at the edge to its row in ClickHouse', {
    labels: { table: tables },
    buckets: LAG_BUCKETS,
  });
  const lagOf = new Map(tables.map((table) => [table, lag.bind({ table })]));

  /** Parks one event of a message, alone, with the reason. */
  async function deadLetterEvent(
    message: BusMessage,
    event: unknown,
    eventKey: string,
    reason: string,
    label: string,
  ): Promise<void> {
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
        log.error(
          { id: message.id, invalid: batch.invalid.length, reason: batch.invalid[0]?.reason },
          'invalid events dead-lettered',
        );
        for (const [i, { event, reason }] of batch.invalid.entries()) {
          await deadLetterEvent(message, event, `invalid-${i}`, `invalid event: ${reason.slice(0, 300)}`, 'invalid');
        }
      }
      decoded.push({ message, events: batch.events });
    }
    return decoded;
  }

  /** `seen` spans the whole batch: one event twice in it (a message the stream took again after a crash of its server, delivered together with the first copy) is written once. */
  function groupByTable(
    decoded: { message: BusMessage; events: EventEnvelope[] }[],
    seen: Set<string>,
  ): Map<string, TableGroup> {
    const byTable = new Map<string, TableGroup>();
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
    // Only after a fault (a restart, a lost connection): worth a line when reading what happened.
    log.info({ table, redelivered: routed.length, held: held.size }, 'redelivered events looked up in the table');
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
  async function insertOrSplit(
    table: string,
    routed: Routed[],
    rows: EventRow[],
    wholeToken: string,
    token: string,
    trustHints: boolean,
  ): Promise<number> {
    try {
      await sink.insert(table, rows, token);
      return rows.length;
    } catch (err) {
      if (!isDataError(err)) throw err;
      if (rows.length === 1) {
        const { event, message } = routed[0]!;
        await deadLetterEvent(
          message,
          event,
          event.eventId,
          `ClickHouse refused the row for ${table}: ${reasonOf(err)}`,
          'refused',
        );
        return 0;
      }
      if (token === wholeToken) {
        log.warn(
          { table, rows: rows.length, reason: reasonOf(err) },
          'ClickHouse refused an insert for its data: splitting it to find the bad rows',
        );
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

  /**
   * Whether to wait for the rest of a recorded group back only in part: for groupWaitMs from the
   * first time it is seen so. After that its messages here are taken like any redelivered one.
   */
  function waitsForRest(group: RecordedGroup, missing: number): boolean {
    const key = group.messageIds[0]!;
    const now = Date.now();
    let wait = waiting.get(key);
    if (!wait) {
      if (waiting.size >= MAX_WAITING_GROUPS) waiting.delete(waiting.keys().next().value!);
      waiting.set(key, (wait = { since: now, over: false }));
    }
    if (wait.over) return false;
    if (now - wait.since < groupWaitMs) return true;
    wait.over = true;
    log.warn(
      { group: key, messages: group.messageIds.length, missing, waitedMs: now - wait.since },
      'the rest of a redelivered insert group never came: its messages here are written from the table lookup (if its insert was cut, its rollups may miss them)',
    );
    return false;
  }

  /**
   * Splits a batch into insert groups: each recorded group all of whose messages are here again
   * (inserted again as it was, under its own token), and the rest, a new group. A message belongs
   * to the newest group that recorded it. A group partly here cannot be inserted again (a subset
   * under its token would be dropped as written): the batch waits for the rest (WaitForMore), and
   * when the rest does not come, its messages are looked up in the table like any redelivered one.
   */
  async function insertGroups(messages: BusMessage[]): Promise<InsertGroup[]> {
    const groups: InsertGroup[] = [];
    let rest = messages;
    const redelivered = messages.filter((m) => m.deliveryCount > 1).map((m) => m.id);
    if (redelivered.length > 0) {
      const byId = new Map(messages.map((m) => [m.id, m]));
      const newest = new Map<string, RecordedGroup>();
      for (const group of await sink.recordedGroups(redelivered, Date.now() - REPLAY_WINDOW_MS)) {
        for (const id of group.messageIds) if (!newest.has(id)) newest.set(id, group);
      }
      const replayed = new Set<string>();
      let waitFor = 0;
      for (const group of new Set(newest.values())) {
        const ids = group.messageIds;
        const here = ids.filter((id) => byId.has(id));
        // A message here that a newer group took since belongs to that one: this group is over.
        if (!here.every((id) => newest.get(id) === group)) continue;
        if (here.length === ids.length) {
          groups.push({ messages: ids.map((id) => byId.get(id)!), leftOut: new Set(group.leftOut) });
          for (const id of ids) replayed.add(id);
          waiting.delete(ids[0]!);
        } else if (waitsForRest(group, ids.length - here.length)) {
          waitFor += ids.length - here.length;
        }
      }
      if (waitFor > 0) throw new WaitForMore(`${waitFor} messages of redelivered insert groups are not here yet`);
      if (replayed.size > 0)
        log.info(
          { groups: groups.length, messages: replayed.size },
          'inserting redelivered groups again under their tokens',
        );
      rest = messages.filter((m) => !replayed.has(m.id));
    }
    if (rest.length > 0) groups.push({ messages: rest });
    return groups;
  }

  /**
   * The events each table takes. A new group: every fresh event, and the redelivered ones the
   * table does not hold yet. A group inserted again: exactly what its first insert took.
   */
  async function pendingByTable(group: InsertGroup, byTable: Map<string, TableGroup>): Promise<Map<string, Routed[]>> {
    const pending = new Map<string, Routed[]>();
    for (const [table, events] of byTable) {
      const { leftOut } = group;
      pending.set(
        table,
        leftOut
          ? events.fresh.concat(events.redelivered).filter((r) => !leftOut.has(r.event.eventId))
          : events.fresh.concat(await notYetWritten(table, events.redelivered)),
      );
    }
    return pending;
  }

  /** Records a new group before its inserts, with the redelivered events it leaves out as written. */
  async function record(
    group: InsertGroup,
    byTable: Map<string, TableGroup>,
    pending: Map<string, Routed[]>,
  ): Promise<void> {
    const leftOut: string[] = [];
    for (const [table, events] of byTable) {
      if (events.redelivered.length === 0) continue;
      const taken = new Set(pending.get(table)!.map((r) => r.event.eventId));
      for (const { event } of events.redelivered) if (!taken.has(event.eventId)) leftOut.push(event.eventId);
    }
    await sink.recordGroup({ messageIds: group.messages.map((m) => m.id), leftOut });
  }

  async function writeTables(messages: BusMessage[], pendingOf: Map<string, Routed[]>): Promise<void> {
    for (const [table, pending] of pendingOf) {
      if (pending.length === 0) continue;
      const { routed, rows } = await toRows(table, pending);
      if (rows.length === 0) continue;
      const token = tokenOf(table, messages);
      const written = await insertOrSplit(table, routed, rows, token, token, true);
      if (written === 0) continue;
      metrics.inc('events_written_total', { table }, written);
      const observe = lagOf.get(table);
      const now = Date.now();
      if (observe) for (const { event } of routed) observe.observe((now - event.occurredAt) / 1000);
    }
  }

  async function writeGroup(group: InsertGroup, byTable: Map<string, TableGroup>): Promise<void> {
    const pending = await pendingByTable(group, byTable);
    if (![...pending.values()].some((p) => p.length > 0)) return;
    if (!group.leftOut) await record(group, byTable, pending);
    await writeTables(group.messages, pending);
  }

  return async (messages) => {
    const decoded = await decode(messages);
    const groups = await insertGroups(messages);
    const seen = new Set<string>();
    for (const group of groups) {
      const ids = new Set(group.messages.map((m) => m.id));
      await writeGroup(
        group,
        groupByTable(
          decoded.filter((d) => ids.has(d.message.id)),
          seen,
        ),
      );
    }
  };
}
