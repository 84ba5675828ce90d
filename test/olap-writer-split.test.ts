// The OLAP writer against real chDB through the project's row sink: a batch ClickHouse refuses for
// the data of a few rows is split until those rows stand alone; they go to the dead-letter store
// with ClickHouse's reason, and every other row is written exactly once, on the first delivery,
// however often the same batch comes again.
import { describe, expect, it } from 'vitest';
import type { Bus, BusMessage } from '../src/ingest/bus.js';
import { createClickEnricher } from '../src/ingest/enrich.js';
import { decodeBatch, encodeBatch, type EventEnvelope } from '../src/ingest/envelope.js';
import { createEventTableRoutes } from '../src/ingest/event-registry.js';
import { openGeoLookup } from '../src/ingest/geo.js';
import { createOlapWriter } from '../src/ingest/olap-writer.js';
import type { RowSink } from '../src/shared/event-rows.js';
import { createRowSink } from '../src/olap/row-sink.js';
import { uuidv7 } from '../src/shared/ids.js';
import { createLogger } from '../src/shared/logger.js';
import { createMetrics } from '../src/shared/metrics.js';
import { backend } from './support/backend.js';
import { serviceForFile } from './support/service.js';
import { randomBytes } from 'node:crypto';
import { createVisitorHasher } from '../src/ingest/visitors.js';

const log = createLogger({ level: 'silent', pretty: false });
const routes = createEventTableRoutes({
  enrich: createClickEnricher(await openGeoLookup()),
  visitor: createVisitorHasher(randomBytes(32)),
});

const svc = serviceForFile();

let lastOrg = 8_000_000 + Math.floor(Math.random() * 1_000_000);

function click(organizationId: number, linkId: number, data: Record<string, unknown> = {}): EventEnvelope {
  return {
    eventId: uuidv7(),
    type: 'click',
    occurredAt: Date.now(),
    organizationId,
    data: {
      linkType: 'url',
      linkId,
      host: 'sp.test',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0',
      ip: '203.0.113.7',
      ...data,
    },
  };
}

/** The service's own bus, its dead letters recorded on their way through. */
function recordDeadLetters(bus: Bus): { letters: { message: BusMessage; reason: string }[]; bus: Bus } {
  const letters: { message: BusMessage; reason: string }[] = [];
  const recording: Bus = Object.create(bus) as Bus;
  recording.deadLetter = async (message, reason) => {
    await bus.deadLetter(message, reason);
    letters.push({ message, reason });
  };
  return { letters, bus: recording };
}

async function counts(organizationId: number, linkId: number) {
  const [raw] = await svc.clickhouse<{ c: string; u: string }>(
    `SELECT count() AS c, uniqExact(event_id) AS u FROM clicks WHERE organization_id = {org:UInt64} AND link_id = {id:UInt64}`,
    { org: organizationId, id: linkId },
  );
  const [total] = await svc.clickhouse<{ s: string }>(
    `SELECT sum(clicks) AS s FROM link_click_totals WHERE organization_id = {org:UInt64} AND link_type = 'url' AND link_id = {id:UInt64}`,
    { org: organizationId, id: linkId },
  );
  return { rows: Number(raw?.c ?? 0), unique: Number(raw?.u ?? 0), total: Number(total?.s ?? 0) };
}

describe(`splitting a refused insert (${backend})`, () => {
  it('writes every good row once and dead-letters each refused one with the reason, on the first delivery', async () => {
    const org = ++lastOrg;
    const linkId = 77;
    const good = Array.from({ length: 300 }, () => click(org, linkId));
    // Values ClickHouse refuses, and broken text, scattered through the batch.
    const refused = [
      click(org, linkId, { linkId: -5 }), // a negative number for an unsigned column (code 72)
      click(org, linkId, { linkId: 1.5 }), // not an integer (code 27)
    ];
    const malformed = [
      click(org, linkId, { host: 'x\ud800y' }), // a lone high surrogate: ClickHouse refuses it (code 25)
      click(org, linkId, { tracker: '\udfff' }), // a lone low one: ClickHouse would store broken bytes
    ];
    const bad = [...refused, ...malformed];
    const events = [...good];
    events.splice(17, 0, refused[0]!);
    events.splice(150, 0, malformed[0]!);
    events.splice(230, 0, refused[1]!);
    events.splice(300, 0, malformed[1]!);
    const realSink = createRowSink(svc.container.clickhouse);
    const tokens: string[] = [];
    const sink: RowSink = {
      async insert(table, rows, token) {
        tokens.push(token);
        await realSink.insert(table, rows, token);
      },
      written: realSink.written,
      recordGroup: realSink.recordGroup,
      recordedGroups: realSink.recordedGroups,
    };
    const { letters, bus } = recordDeadLetters(svc.container.bus);
    const metrics = createMetrics();
    const writer = createOlapWriter({ bus, sink, routes, log, metrics });
    const messages: BusMessage[] = [0, 1, 2].map((m) => ({
      id: `split-${org}-${m}`,
      subject: 'events.click',
      data: encodeBatch(events.slice(m * 102, (m + 1) * 102)),
      deliveryCount: 1,
    }));

    await writer(messages);

    expect(await counts(org, linkId)).toEqual({ rows: 300, unique: 300, total: 300 });
    expect(letters).toHaveLength(4);
    const byEvent = new Map(
      letters.map((l) => [
        decodeBatch(l.message.data)
          .events.map((e) => e.eventId)
          .join(),
        l,
      ]),
    );
    for (const event of bad) {
      const letter = byEvent.get(event.eventId);
      expect(letter, `dead letter of ${event.eventId}`).toBeDefined();
      const carrier = messages.find((m) => decodeBatch(m.data).events.some((e) => e.eventId === event.eventId))!;
      expect(letter!.message.id).toBe(`${carrier.id}:${event.eventId}`);
      expect(letter!.message.subject).toBe('events.click');
      expect(decodeBatch(letter!.message.data).events).toEqual([event]);
    }
    for (const event of refused)
      expect(byEvent.get(event.eventId)!.reason).toMatch(
        /^ClickHouse refused the row for clicks: .*(CANNOT_PARSE|Cannot parse|Unsigned type)/i,
      );
    expect(byEvent.get(malformed[0]!.eventId)!.reason).toBe(
      'text in column host of clicks is not well-formed UTF-16 (a lone surrogate)',
    );
    expect(byEvent.get(malformed[1]!.eventId)!.reason).toBe(
      'text in column tracker of clicks is not well-formed UTF-16 (a lone surrogate)',
    );
    expect(await metrics.get('events_dead_lettered_total', { reason: 'refused' })).toBe(2);
    expect(await metrics.get('events_dead_lettered_total', { reason: 'malformed' })).toBe(2);
    expect(await metrics.get('events_written_total', { table: 'clicks' })).toBe(300);
    // Each part of the split has a token of its own, not the whole's.
    expect(new Set(tokens).size).toBe(tokens.length);
    // ClickHouse names the row it stopped at: about two inserts per refused row, not one per row.
    console.log(
      `${events.length} rows with ${refused.length} refused by ClickHouse and ${malformed.length} malformed: ${tokens.length} inserts`,
    );
    expect(tokens.length).toBeLessThanOrEqual(1 + 2 * refused.length);

    // The same batch again, as it was (a lost ack), and then redelivered: nothing counted twice.
    const firstTokens = [...tokens];
    tokens.length = 0;
    await writer(messages);
    expect(tokens).toEqual(firstTokens);
    await writer(messages.map((m) => ({ ...m, deliveryCount: 2 })));
    expect(await counts(org, linkId)).toEqual({ rows: 300, unique: 300, total: 300 });
  });

  it('keeps the other tables of the batch and the other organizations whole', async () => {
    const orgA = ++lastOrg;
    const orgB = ++lastOrg;
    const apiRequest = (organizationId: number, status: unknown): EventEnvelope => ({
      eventId: uuidv7(),
      type: 'api_request',
      occurredAt: Date.now(),
      organizationId,
      data: { apiKeyId: 1, method: 'GET', route: '/x', status, durationMs: 1, ip: '203.0.113.1', requestId: 'r' },
    });
    // status is a UInt16: -1 cannot be inserted.
    const events = [click(orgA, 5), apiRequest(orgA, 200), apiRequest(orgB, -1), click(orgB, 6), apiRequest(orgB, 201)];
    const { letters, bus } = recordDeadLetters(svc.container.bus);
    const writer = createOlapWriter({
      bus,
      sink: createRowSink(svc.container.clickhouse),
      routes,
      log,
      metrics: createMetrics(),
    });
    await writer([{ id: `mixed-${orgA}`, subject: 'events.api_request', data: encodeBatch(events), deliveryCount: 1 }]);
    expect((await counts(orgA, 5)).rows).toBe(1);
    expect((await counts(orgB, 6)).rows).toBe(1);
    const requests = await svc.clickhouse<{ org: string; status: number }>(
      'SELECT toString(organization_id) AS org, status FROM api_requests WHERE organization_id IN ({a:UInt64}, {b:UInt64}) ORDER BY status',
      { a: orgA, b: orgB },
    );
    expect(requests).toEqual([
      { org: String(orgA), status: 200 },
      { org: String(orgB), status: 201 },
    ]);
    expect(letters.map((l) => l.message.id)).toEqual([`mixed-${orgA}:${events[2]!.eventId}`]);
    expect(letters[0]!.reason).toMatch(/ClickHouse refused the row for api_requests/);
  });

  it('halves the rows when the error names no row, and still writes every good one once', async () => {
    const org = ++lastOrg;
    const linkId = 78;
    const events = Array.from({ length: 200 }, () => click(org, linkId));
    const bad = [click(org, linkId, { linkId: -7 }), click(org, linkId, { linkId: 2.5 })];
    events.splice(33, 0, bad[0]!);
    events.splice(160, 0, bad[1]!);
    const realSink = createRowSink(svc.container.clickhouse);
    let inserts = 0;
    // The same engine and rows; only the row number is taken out of ClickHouse's message, as when a
    // parser working in parallel chunks numbers rows per chunk.
    const sink: RowSink = {
      async insert(table, rows, token) {
        inserts++;
        try {
          await realSink.insert(table, rows, token);
        } catch (err) {
          (err as Error).message = (err as Error).message.replace(/\(at row \d+\)/g, '');
          throw err;
        }
      },
      written: realSink.written,
      recordGroup: realSink.recordGroup,
      recordedGroups: realSink.recordedGroups,
    };
    const { letters, bus } = recordDeadLetters(svc.container.bus);
    const writer = createOlapWriter({ bus, sink, routes, log, metrics: createMetrics() });
    const message: BusMessage = {
      id: `halves-${org}`,
      subject: 'events.click',
      data: encodeBatch(events),
      deliveryCount: 1,
    };
    await writer([message]);
    expect(await counts(org, linkId)).toEqual({ rows: 200, unique: 200, total: 200 });
    expect(letters.map((l) => l.message.id).sort()).toEqual(bad.map((e) => `${message.id}:${e.eventId}`).sort());
    console.log(`${events.length} rows with ${bad.length} refused, no row named: ${inserts} inserts`);
    expect(inserts).toBeLessThan(2 * bad.length * Math.ceil(Math.log2(events.length)) + 2);
    await writer([{ ...message, deliveryCount: 2 }]);
    await writer([message]);
    expect(await counts(org, linkId)).toEqual({ rows: 200, unique: 200, total: 200 });
  });
});
