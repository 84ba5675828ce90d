// Wiring of the event pipeline around the bus: the durable consumers that write events into
// ClickHouse (one per entry of the event registry that has a table), and the edge's publisher.
import path from 'node:path';
import type { Bus, Consumer } from '../ingest/bus.js';
import type { ClickEnricher } from '../ingest/enrich.js';
import { createEventTableRoutes, olapConsumers } from '../ingest/event-registry.js';
import { createOlapWriter } from '../ingest/olap-writer.js';
import { createEventPublisher, type EventPublisher } from '../ingest/publisher.js';
import { createSpool } from '../ingest/spool.js';
import type { VisitorHasher } from '../ingest/visitors.js';
import type { RowSink } from '../shared/event-rows.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';

/** Starts the OLAP consumers of the registry's event types; they share one writer. */
export async function composeOlapConsumers(ctx: {
  config: Pick<Config, 'bus'>;
  log: Logger;
  metrics: Metrics;
  bus: Bus;
  sink: RowSink;
  enrich: ClickEnricher;
  visitor: VisitorHasher;
}): Promise<Consumer[]> {
  const { config, log, metrics, bus } = ctx;
  const handler = createOlapWriter({
    bus,
    sink: ctx.sink,
    routes: createEventTableRoutes({ enrich: ctx.enrich, visitor: ctx.visitor }),
    log,
    metrics,
  });
  // Steady traffic is written in inserts of eventWriteIntervalMs (a fixed cost per insert): a
  // batch holds every message the publisher sends in that span (one per eventBatchDelayMs at most).
  const maxBatch = Math.max(64, 2 * Math.ceil(config.bus.eventWriteIntervalMs / config.bus.eventBatchDelayMs));
  const consumers: Consumer[] = [];
  for (const { durable, subject } of olapConsumers()) {
    consumers.push(
      await bus.consume({ durable, subject, maxBatch, batchIntervalMs: config.bus.eventWriteIntervalMs, handler }),
    );
  }
  return consumers;
}

/** The edge's publisher, with a disk spool under DATA_DIR and its backlog as a gauge. */
export function composePublisher(ctx: {
  config: Pick<Config, 'bus' | 'stores'>;
  log: Logger;
  metrics: Metrics;
  bus: Bus;
}): EventPublisher {
  const { config, metrics } = ctx;
  const events = createEventPublisher({
    bus: ctx.bus,
    log: ctx.log,
    metrics,
    spool: createSpool(path.join(config.stores.dataDir, 'spool', 'publisher')),
    maxBatch: config.bus.eventBatchMax,
    maxDelayMs: config.bus.eventBatchDelayMs,
  });
  metrics.define('event_backlog', 'gauge', 'Events recorded and not yet held by the bus', {
    collect: () => [{ labels: {}, value: events.backlog() }],
  });
  return events;
}
