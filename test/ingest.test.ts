// Ingest end to end on the backend under test: events recorded at the edge reach ClickHouse through
// the bus and the OLAP writer; redelivery and retries never count a row twice; an undecodable
// message is parked without stalling the rest; the publisher splits large batches in order.
// (The drain at shutdown is covered in lifecycle.test.ts.)
import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import type { Bus, BusMessage } from '../src/ingest/bus.js';
import { decodeBatch, encodeBatch, type EventEnvelope } from '../src/ingest/envelope.js';
import { createClickEnricher } from '../src/ingest/enrich.js';
import { createEventTableRoutes } from '../src/ingest/event-registry.js';
import { openGeoLookup } from '../src/ingest/geo.js';
import { createMemoryBus } from '../src/ingest/memory-bus.js';
import { createNatsBus } from '../src/ingest/nats-bus.js';
import { createOlapWriter } from '../src/ingest/olap-writer.js';
import type { RowSink } from '../src/shared/event-rows.js';
import { createEventPublisher } from '../src/ingest/publisher.js';
import { createRowSink } from '../src/olap/row-sink.js';
import { uuidv7 } from '../src/shared/ids.js';
import { createLogger } from '../src/shared/logger.js';
import { createMetrics } from '../src/shared/metrics.js';
import { backend, servicesEnv } from './support/backend.js';
import { eventually, serviceForFile } from './support/service.js';
import { looseEvent } from './support/loose-event.js';
import { createVisitorHasher } from '../src/ingest/visitors.js';

const eventTableRoutes = createEventTableRoutes({
  enrich: createClickEnricher(await openGeoLookup()),
  visitor: createVisitorHasher(randomBytes(32)),
});

const log = createLogger({ level: 'silent', pretty: false });

const svc = serviceForFile();

/** A fresh organization id per test, so tests never count each other's rows. */
let lastOrg = 7_000_000 + Math.floor(Math.random() * 1_000_000);
const newOrg = () => ++lastOrg;

/** An api_request envelope as the Service API records it (src/api/service/index.ts). */
function apiRequest(organizationId: number, i: number, occurredAt = Date.now()): EventEnvelope {
  return {
    eventId: uuidv7(),
    type: 'api_request',
    occurredAt,
    organizationId,
    data: {
      apiKeyId: 42,
      method: i % 2 === 0 ? 'GET' : 'POST',
      route: '/api/v1/service/usage',
      status: i % 5 === 0 ? 429 : 200,
      durationMs: 1.25,
      ip: '203.0.113.9',
      requestId: `req-${i}`,
    },
  };
}

async function countRows(organizationId: number, table = 'api_requests'): Promise<number> {
  const rows = await svc.clickhouse<{ c: string | number }>(
    `SELECT count() AS c FROM ${table} WHERE organization_id = {org:UInt64}`,
    {
      org: organizationId,
    },
  );
  return Number(rows[0]?.c);
}

const rowsReach = (organizationId: number, n: number, table = 'api_requests') =>
  eventually(
    async () => (await countRows(organizationId, table)) === n,
    15_000,
    `${n} rows in ${table} for ${organizationId}`,
  );

/** A bus of the backend under test that is not the service's, closed (and its streams deleted) by the caller. */
async function ownBus(): Promise<{ bus: Bus; dispose(): Promise<void> }> {
  if (backend !== 'services') {
    const bus = createMemoryBus({ log });
    return { bus, dispose: () => bus.close() };
  }
  const namespace = `sp_ingest_${process.pid}_${randomBytes(4).toString('hex')}`;
  const bus = await createNatsBus({ url: servicesEnv.natsUrl, namespace, log });
  return {
    bus,
    async dispose() {
      await bus.close();
      const nc = await connect({ servers: servicesEnv.natsUrl });
      const jsm = await jetstreamManager(nc);
      for (const stream of [`${namespace}_EVENTS`, `${namespace}_DLQ`])
        await jsm.streams.delete(stream).catch(() => {});
      await nc.close();
    },
  };
}

describe(`ingest (${backend})`, () => {
  it('moves recorded events through the bus into ClickHouse, one row each, with UTC times', async () => {
    const org = newOrg();
    const start = Date.now() - 60_000;
    const events = Array.from({ length: 37 }, (_, i) => apiRequest(org, i, start + i * 1_001));
    for (const event of events) svc.container.events.record(looseEvent(event));

    await rowsReach(org, events.length);

    const sample = events[3]!;
    const [row] = await svc.clickhouse<Record<string, unknown>>(
      `SELECT toString(event_id) AS id, toString(ts) AS ts_text, toString(toUnixTimestamp64Milli(ts)) AS ms, toTypeName(ts) AS ts_type,
              toString(api_key_id) AS api_key_id, method, route, status, duration_ms, ip, request_id
         FROM api_requests WHERE organization_id = {org:UInt64} AND event_id = {id:UUID}`,
      { org, id: sample.eventId },
    );
    expect(row).toEqual({
      id: sample.eventId,
      // The stored instant is the event's, and it reads back in UTC whatever the session's zone.
      ts_text: new Date(sample.occurredAt).toISOString().replace('T', ' ').replace('Z', ''),
      ms: String(sample.occurredAt),
      ts_type: "DateTime64(3, 'UTC')",
      api_key_id: '42',
      method: 'POST',
      route: '/api/v1/service/usage',
      status: 200,
      duration_ms: 1.25,
      ip: '203.0.113.9',
      request_id: 'req-3',
    });
    const statuses = await svc.clickhouse<{ status: number; c: string | number }>(
      'SELECT status, count() AS c FROM api_requests WHERE organization_id = {org:UInt64} GROUP BY status ORDER BY status',
      { org },
    );
    expect(statuses.map((r) => [r.status, Number(r.c)])).toEqual([
      [200, 29],
      [429, 8],
    ]);
    expect(await svc.container.deps.metrics.get('events_published_total')).toBeGreaterThanOrEqual(events.length);
    expect(svc.container.events.backlog()).toBe(0);
  });

  it('writes a redelivered message (same id, same data) only once', async () => {
    const org = newOrg();
    const writer = createOlapWriter({
      bus: svc.container.bus,
      sink: createRowSink(svc.container.clickhouse),
      routes: eventTableRoutes,
      log,
      metrics: createMetrics(),
    });
    const events = Array.from({ length: 12 }, (_, i) => apiRequest(org, i));
    const message: BusMessage = {
      id: uuidv7(),
      subject: 'events.api_request',
      data: encodeBatch(events),
      deliveryCount: 1,
    };

    await writer([message]);
    expect(await countRows(org)).toBe(events.length);
    // The ack was lost: the bus delivers the same message again, alone and then within a batch.
    await writer([{ ...message, deliveryCount: 2 }]);
    const other = apiRequest(org, 99);
    await writer([
      { ...message, deliveryCount: 3 },
      { id: uuidv7(), subject: 'events.api_request', data: encodeBatch([other]), deliveryCount: 1 },
    ]);

    expect(await countRows(org)).toBe(events.length + 1);
    const ids = await svc.clickhouse<{ id: string }>(
      'SELECT toString(event_id) AS id FROM api_requests WHERE organization_id = {org:UInt64}',
      { org },
    );
    expect(ids.map((r) => r.id).sort()).toEqual([...events, other].map((e) => e.eventId).sort());
  });

  it('writes a batch of several messages with one insert per table', async () => {
    const org = newOrg();
    const realSink = createRowSink(svc.container.clickhouse);
    const inserts: { table: string; rows: number }[] = [];
    const sink: RowSink = {
      async insert(table, rows, token) {
        await realSink.insert(table, rows, token);
        inserts.push({ table, rows: rows.length });
      },
      written: realSink.written,
      recordGroup: realSink.recordGroup,
      recordedGroups: realSink.recordedGroups,
    };
    const writer = createOlapWriter({
      bus: svc.container.bus,
      sink,
      routes: eventTableRoutes,
      log,
      metrics: createMetrics(),
    });
    const messages: BusMessage[] = [0, 1, 2].map((m) => ({
      id: uuidv7(),
      subject: 'events.api_request',
      data: encodeBatch(Array.from({ length: 4 }, (_, i) => apiRequest(org, m * 10 + i))),
      deliveryCount: 1,
    }));
    await writer(messages);
    expect(inserts).toEqual([{ table: 'api_requests', rows: 12 }]);
    expect(await countRows(org)).toBe(12);
    // The same batch again (a retry after a lost ack): the engine drops it by its token.
    await writer(messages);
    expect(await countRows(org)).toBe(12);
  });

  it('writes the good messages of a batch ClickHouse refuses, and dead-letters the bad one, on the first delivery', async () => {
    const org = newOrg();
    const metrics = createMetrics();
    const toRow = eventTableRoutes.api_request!.toRow;
    // A route whose rows ClickHouse cannot parse (a word in a UUID column).
    const routes = {
      ...eventTableRoutes,
      bad_probe: { table: 'api_requests', toRow: (e: EventEnvelope) => ({ ...toRow(e), event_id: 'not a uuid' }) },
    };
    const writer = createOlapWriter({
      bus: svc.container.bus,
      sink: createRowSink(svc.container.clickhouse),
      routes,
      log,
      metrics,
    });
    const good = [apiRequest(org, 1), apiRequest(org, 2)];
    const messages: BusMessage[] = [
      { id: `good-1-${org}`, subject: 'events.api_request', data: encodeBatch([good[0]!]), deliveryCount: 1 },
      {
        id: `bad-${org}`,
        subject: 'events.bad_probe',
        data: encodeBatch([{ ...apiRequest(org, 3), type: 'bad_probe' }]),
        deliveryCount: 1,
      },
      { id: `good-2-${org}`, subject: 'events.api_request', data: encodeBatch([good[1]!]), deliveryCount: 1 },
    ];
    await writer(messages);
    expect(await countRows(org)).toBe(2);
    expect(await metrics.get('events_dead_lettered_total', { reason: 'refused' })).toBe(1);
    // Delivered again (a lost ack): still once, and the bad event is not written either.
    await writer(messages.map((m) => ({ ...m, deliveryCount: 2 })));
    expect(await countRows(org)).toBe(2);
  });

  it('leaves later plain inserts alone after a deduplicated write', async () => {
    // The writer's deduplication token must apply to its own insert only: a plain insert into the
    // same table afterwards (a backfill, a repair) is not mistaken for a repeat.
    const org = newOrg();
    const writer = createOlapWriter({
      bus: svc.container.bus,
      sink: createRowSink(svc.container.clickhouse),
      routes: eventTableRoutes,
      log,
      metrics: createMetrics(),
    });
    await writer([
      { id: uuidv7(), subject: 'events.api_request', data: encodeBatch([apiRequest(org, 0)]), deliveryCount: 1 },
    ]);
    const toRow = eventTableRoutes.api_request!.toRow;
    for (const i of [1, 2]) {
      await svc.container.clickhouse.client.insert({
        table: 'api_requests',
        values: [toRow(apiRequest(org, i))],
        format: 'JSONEachRow',
      });
    }
    expect(await countRows(org)).toBe(3);
  });

  it('retries a batch whose insert failed, through the bus, and ends with every row exactly once', async () => {
    const org = newOrg();
    const table = `retry_rows_${randomBytes(4).toString('hex')}`;
    const client = svc.container.clickhouse.client;
    const realSink = createRowSink(svc.container.clickhouse);
    const attempts: { table: string; token: string; error?: string }[] = [];
    const sink: RowSink = {
      async insert(target, rows, dedupToken) {
        try {
          await realSink.insert(target, rows, dedupToken);
          attempts.push({ table: target, token: dedupToken });
        } catch (err) {
          attempts.push({ table: target, token: dedupToken, error: String(err) });
          throw err;
        }
      },
      written: realSink.written,
      recordGroup: realSink.recordGroup,
      recordedGroups: realSink.recordedGroups,
    };
    // api_request rows go to api_requests (exists), retry_probe rows to a table not created yet:
    // the first insert of each delivery succeeds, the second fails until the table exists.
    const routes = { ...eventTableRoutes, retry_probe: { table, toRow: eventTableRoutes.api_request!.toRow } };
    const writer = createOlapWriter({ bus: svc.container.bus, sink, routes, log, metrics: createMetrics() });
    const deliveries: number[][] = [];
    const consumer = await svc.container.bus.consume({
      durable: 'retry-writer',
      subject: 'work.retry',
      maxBatch: 10,
      handler: async (messages) => {
        deliveries.push(messages.map((m) => m.deliveryCount));
        await writer(messages);
      },
    });
    try {
      const requests = Array.from({ length: 8 }, (_, i) => apiRequest(org, i));
      const probes = Array.from({ length: 5 }, (_, i) => ({ ...apiRequest(org, 100 + i), type: 'retry_probe' }));
      await svc.container.bus.publish('work.retry', encodeBatch([...requests, ...probes]), uuidv7());

      await eventually(async () => attempts.some((a) => a.table === table && a.error), 15_000, 'a failed insert');
      expect(attempts.find((a) => a.error)?.error).toMatch(/UNKNOWN_TABLE|does ?n[o']t exist/i);
      // The part that went in before the failure is there once, and stays once.
      expect(await countRows(org)).toBe(requests.length);

      await client.command({ query: `CREATE TABLE ${table} AS api_requests` });
      await rowsReach(org, probes.length, table);
      expect(await svc.container.bus.drain(15_000)).toBe(true);

      expect(await countRows(org)).toBe(requests.length);
      expect(await countRows(org, table)).toBe(probes.length);
      // It really was the bus that delivered the batch again.
      expect(deliveries.length).toBeGreaterThanOrEqual(2);
      expect(deliveries.at(-1)![0]).toBe(deliveries.length);
      // The redelivered batch went in again as the group it was, under the same token each time:
      // the engine dropped the api_requests rows it held already.
      const requestInserts = attempts.filter((a) => a.table === 'api_requests');
      expect(requestInserts.length).toBe(deliveries.length);
      expect(new Set(requestInserts.map((a) => a.token)).size).toBe(1);
    } finally {
      await consumer.stop();
      await client.command({ query: `DROP TABLE IF EXISTS ${table}` });
    }
  });

  it('dead-letters an undecodable message and keeps consuming the messages after it', async () => {
    const org = newOrg();
    const { metrics } = svc.container.deps;
    const undecodableBefore = await metrics.get('events_dead_lettered_total', { reason: 'undecodable' });
    const invalidBefore = await metrics.get('events_dead_lettered_total', { reason: 'invalid' });

    const badId = uuidv7();
    await svc.container.bus.publish('events.api_request', new TextEncoder().encode('{"not": "a batch"'), badId);
    // A decodable batch with one broken event: the others are written, the broken one counted.
    const mixed = [apiRequest(org, 0), { ...apiRequest(org, 1), eventId: 'not-a-uuid' }, apiRequest(org, 2)];
    await svc.container.bus.publish('events.api_request', encodeBatch(mixed), uuidv7());
    const later = Array.from({ length: 6 }, (_, i) => apiRequest(org, 10 + i));
    for (const event of later) svc.container.events.record(looseEvent(event));

    await rowsReach(org, 2 + later.length);
    expect(await svc.container.bus.drain(15_000)).toBe(true);
    expect(await metrics.get('events_dead_lettered_total', { reason: 'undecodable' })).toBe(undecodableBefore + 1);
    expect(await metrics.get('events_dead_lettered_total', { reason: 'invalid' })).toBe(invalidBefore + 1);
    expect(await svc.container.deps.metrics.render()).toMatch(
      /signpost_events_dead_lettered_total\{reason="undecodable"\} \d+/,
    );

    if (backend === 'services') {
      // On JetStream the message is parked, bytes unchanged, with the reason.
      const ns = svc.config.bus.natsNamespace;
      const nc = await connect({ servers: servicesEnv.natsUrl });
      try {
        const jsm = await jetstreamManager(nc);
        const { state } = await jsm.streams.info(`${ns}_DLQ`);
        const parked = [];
        for (let seq = state.first_seq; state.messages > 0 && seq <= state.last_seq; seq++) {
          const m = await jsm.streams.getMessage(`${ns}_DLQ`, { seq });
          if (m?.subject === `${ns}.dlq.events.api_request`)
            parked.push({ body: m.string(), reason: m.header.get('Signpost-Dead-Letter-Reason') });
        }
        const undecodable = parked.find((p) => p.body === '{"not": "a batch"');
        expect(undecodable?.reason).toMatch(/^undecodable batch/);
        // The invalid event is parked alone, with what was wrong with it.
        const invalid = parked.find((p) => p.body.includes('"eventId":"not-a-uuid"'));
        expect(JSON.parse(invalid!.body).events).toEqual([mixed[1]]);
        expect(invalid?.reason).toMatch(/^invalid event: eventId/);
      } finally {
        await nc.close();
      }
    }
  });

  it('keeps several batches on their way to a bus that acknowledges slowly, and sends every event once when some are refused', async () => {
    const { bus, dispose } = await ownBus();
    const received: string[] = [];
    try {
      await bus.consume({
        durable: 'slow-ack-reader',
        subject: 'events.>',
        maxBatch: 100,
        handler: async (messages) => {
          for (const m of messages) received.push(...decodeBatch(m.data).events.map((e) => e.eventId));
        },
      });
      // A busy JetStream: every acknowledgement takes 20 ms, and every fifth publish is refused.
      let publishes = 0;
      let inFlight = 0;
      let most = 0;
      const slow: Bus = {
        ...bus,
        async publish(subject, data, id) {
          const n = ++publishes;
          inFlight++;
          most = Math.max(most, inFlight);
          try {
            await new Promise((r) => setTimeout(r, 20));
            if (n % 5 === 0) throw new Error('stream busy');
            await bus.publish(subject, data, id);
          } finally {
            inFlight--;
          }
        },
      };
      const metrics = createMetrics();
      const publisher = createEventPublisher({ bus: slow, log, metrics, maxBatch: 10, maxDelayMs: 60_000 });
      const org = newOrg();
      // 100 batches: more than may be on their way at once.
      const events = Array.from({ length: 1_000 }, (_, i) => apiRequest(org, i));
      for (const event of events) publisher.record(looseEvent(event));

      expect(await publisher.flush(15_000)).toBe(true);
      // Not one batch per round trip: many were under way together, and never unboundedly many.
      expect(most).toBeGreaterThan(8);
      expect(most).toBeLessThanOrEqual(64);
      expect(await metrics.get('event_publish_retries_total')).toBeGreaterThan(0);
      expect(await metrics.get('events_published_total')).toBe(events.length);
      expect(await bus.drain(15_000)).toBe(true);
      expect(received.toSorted()).toEqual(events.map((e) => e.eventId).toSorted());
      expect(await publisher.close(5_000)).toBe(true);
    } finally {
      await dispose();
    }
  });

  it('splits a batch larger than maxBytes into several messages, keeping the events in order', async () => {
    const { bus, dispose } = await ownBus();
    const received: { id: string; bytes: number; eventIds: string[] }[] = [];
    try {
      await bus.consume({
        durable: 'split-reader',
        subject: 'events.>',
        maxBatch: 100,
        handler: async (messages) => {
          for (const m of messages)
            received.push({
              id: m.id,
              bytes: m.data.byteLength,
              eventIds: decodeBatch(m.data).events.map((e) => e.eventId),
            });
        },
      });
      const metrics = createMetrics();
      const maxBytes = 2_000;
      const publisher = createEventPublisher({ bus, log, metrics, maxBatch: 10_000, maxDelayMs: 60_000, maxBytes });
      const org = newOrg();
      const events = Array.from({ length: 60 }, (_, i) => apiRequest(org, i));
      // One event bigger than maxBytes on its own still travels, alone.
      const big = { ...apiRequest(org, 60), data: { note: 'x'.repeat(3 * maxBytes) } };
      events.splice(30, 0, big);
      for (const event of events) publisher.record(looseEvent(event));
      expect(publisher.backlog()).toBe(events.length);

      expect(await publisher.flush(15_000)).toBe(true);
      expect(publisher.backlog()).toBe(0);
      expect(await metrics.get('events_published_total')).toBe(events.length);
      expect(await bus.drain(15_000)).toBe(true);

      const totalBytes = new TextEncoder().encode(JSON.stringify(events)).byteLength;
      expect(received.length).toBeGreaterThanOrEqual(Math.ceil(totalBytes / maxBytes));
      expect(new Set(received.map((m) => m.id)).size).toBe(received.length);
      for (const m of received) {
        if (m.eventIds.includes(big.eventId)) expect(m.eventIds).toEqual([big.eventId]);
        else expect(m.bytes).toBeLessThanOrEqual(maxBytes);
      }
      expect(received.flatMap((m) => m.eventIds)).toEqual(events.map((e) => e.eventId));
      await publisher.close(5_000);
    } finally {
      await dispose();
    }
  });
});
