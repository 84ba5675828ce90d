// The consumer that moves events from the bus into ClickHouse. Each bus message (one publisher
// batch) becomes one insert per table whose deduplication token is the message id, so a batch
// delivered again after a lost ack is not counted twice. Acks happen only after the inserts.
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import type { BatchHandler, Bus, BusMessage } from './bus.js';
import { decodeBatch, type EventEnvelope } from './envelope.js';

/** How one event type becomes rows of one ClickHouse table. */
export interface TableRoute {
  table: string;
  toRow(event: EventEnvelope): Record<string, unknown>;
}

/** The writing side of ClickHouse the consumer needs; src/olap supplies it. */
export interface RowSink {
  insert(table: string, rows: Record<string, unknown>[], dedupToken: string): Promise<void>;
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
const DATA_ERROR_CODES = new Set(['6', '26', '27', '38', '41', '53', '69', '70', '72', '117', '131', '321']);
/** Deliveries of a batch that ClickHouse refuses for its data before it is dead-lettered. */
const DATA_ERROR_ATTEMPTS = 3;

function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return (err as Error)?.name === 'ClickHouseError' && DATA_ERROR_CODES.has(String(code));
}

export function createOlapWriter(options: OlapWriterOptions): BatchHandler {
  const { bus, sink, routes, metrics } = options;
  const log = options.log.child({ module: 'olap-writer' });
  metrics.define('events_written_total', 'counter', 'Events inserted into ClickHouse');
  metrics.define('events_dead_lettered_total', 'counter', 'Events that could never be written');

  async function writeMessage(message: BusMessage): Promise<void> {
    let decoded;
    try {
      decoded = decodeBatch(message.data);
    } catch (err) {
      await bus.deadLetter(message, `undecodable batch: ${(err as Error).message}`);
      metrics.inc('events_dead_lettered_total', { reason: 'undecodable' });
      return;
    }
    if (decoded.invalid.length > 0) {
      log.error({ id: message.id, invalid: decoded.invalid.length, reason: decoded.invalid[0]?.reason }, 'invalid events skipped');
      metrics.inc('events_dead_lettered_total', { reason: 'invalid' }, decoded.invalid.length);
    }
    const byTable = new Map<string, { route: TableRoute; rows: Record<string, unknown>[] }>();
    for (const event of decoded.events) {
      const route = routes[event.type];
      if (!route) continue; // Not every event type lands in ClickHouse (webhook-only types, say).
      let group = byTable.get(route.table);
      if (!group) byTable.set(route.table, (group = { route, rows: [] }));
      group.rows.push(route.toRow(event));
    }
    for (const [table, group] of byTable) {
      try {
        await sink.insert(table, group.rows, `${message.id}:${table}`);
      } catch (err) {
        // A batch that can never be written must not hold up everything behind it forever.
        if (isDataError(err) && message.deliveryCount >= DATA_ERROR_ATTEMPTS) {
          await bus.deadLetter(message, `ClickHouse refused the rows of ${table}: ${(err as Error).message.slice(0, 300)}`);
          metrics.inc('events_dead_lettered_total', { reason: 'refused' }, group.rows.length);
          continue;
        }
        throw err;
      }
      metrics.inc('events_written_total', { table }, group.rows.length);
    }
  }

  return async (messages) => {
    // Sequential: bounded work in flight, and a failure stops the batch before later messages.
    for (const message of messages) await writeMessage(message);
  };
}
