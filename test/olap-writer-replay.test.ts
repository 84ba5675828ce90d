// An insert cut between the raw rows and their rollups (a crash, a lost connection), then the same
// messages again, on real chDB through the project's row sink. A materialized view on clicks that
// fails while a flag is set stands in for the cut: ClickHouse commits the raw rows first, the way
// a process killed in the middle of the insert leaves them. Afterwards the raw table and every
// rollup must count each click once, however the messages come back.
import { beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { WaitForMore, type BusMessage } from '../src/ingest/bus.js';
import { createClickEnricher } from '../src/ingest/enrich.js';
import { encodeBatch, type EventEnvelope } from '../src/ingest/envelope.js';
import { createEventTableRoutes } from '../src/ingest/event-registry.js';
import { openGeoLookup } from '../src/ingest/geo.js';
import { createOlapWriter } from '../src/ingest/olap-writer.js';
import { createVisitorHasher } from '../src/ingest/visitors.js';
import { createRowSink } from '../src/olap/row-sink.js';
import { uuidv7 } from '../src/shared/ids.js';
import { createLogger } from '../src/shared/logger.js';
import { createMetrics } from '../src/shared/metrics.js';
import { backend } from './support/backend.js';
import { clickFigures } from './support/click-figures.js';
import { serviceForFile } from './support/service.js';

const log = createLogger({ level: 'silent', pretty: false });
const routes = createEventTableRoutes({
  enrich: createClickEnricher(await openGeoLookup()),
  visitor: createVisitorHasher(randomBytes(32)),
});

const run = (query: string) => svc.container.clickhouse.client.command({ query });

const svc = serviceForFile();

beforeAll(async () => {
  await run('CREATE TABLE cut_flag (x UInt8) ENGINE = Memory');
  await run('CREATE TABLE cut_view_rows (id UUID) ENGINE = MergeTree ORDER BY id');
  // 210 is NETWORK_ERROR: not a data error, so the writer throws for the bus to retry, as it
  // does when the store goes away.
  await run(`CREATE MATERIALIZED VIEW cut_view TO cut_view_rows AS
             SELECT event_id AS id FROM clicks
             WHERE throwIf((SELECT count() FROM cut_flag) > 0, 'connection lost', toInt32(210)) = 0
             SETTINGS allow_custom_error_code_in_throwif = 1`);
});

let lastOrg = 9_000_000 + Math.floor(Math.random() * 1_000_000);

function clicks(organizationId: number, linkId: number, n: number): EventEnvelope[] {
  return Array.from({ length: n }, () => ({
    eventId: uuidv7(),
    type: 'click',
    occurredAt: Date.now(),
    organizationId,
    data: {
      linkType: 'url',
      linkId,
      host: 'sp.test',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0',
      ip: '203.0.113.9',
    },
  }));
}

const message = (id: string, events: EventEnvelope[], deliveryCount = 1): BusMessage => ({
  id,
  subject: 'events.click',
  data: encodeBatch(events),
  deliveryCount,
});
const again = (m: BusMessage): BusMessage => ({ ...m, deliveryCount: m.deliveryCount + 1 });

/** The link's clicks as the raw table and each rollup count them. */
const figures = (organizationId: number, linkId: number) =>
  clickFigures(svc.container.clickhouse.client, organizationId, linkId);
const everywhere = (n: number) => ({ raw: n, totals: n, series15m: n, series1h: n });

/** Writes through a writer whose inserts fail after the raw rows went in. */
async function cutInsert(write: (messages: BusMessage[]) => Promise<void>, messages: BusMessage[]): Promise<void> {
  await run('INSERT INTO cut_flag VALUES (1)');
  try {
    await expect(write(messages)).rejects.toThrow(/connection lost/);
  } finally {
    await run('TRUNCATE TABLE cut_flag');
  }
}

describe(`an insert cut between the raw rows and the rollups (${backend})`, () => {
  it('is completed when the same batch comes again, and a later repetition counts nothing twice', async () => {
    const org = ++lastOrg;
    const writer = createOlapWriter({
      bus: svc.container.bus,
      sink: createRowSink(svc.container.clickhouse),
      routes,
      log,
      metrics: createMetrics(),
    });
    const messages = [message(`cut-a-${org}-1`, clicks(org, 1, 40)), message(`cut-a-${org}-2`, clicks(org, 1, 60))];

    await cutInsert(writer, messages);
    expect((await figures(org, 1)).raw).toBe(100);

    // The in-process bus retries a failed batch as it was; JetStream redelivers after a crash.
    await writer(messages);
    expect(await figures(org, 1)).toEqual(everywhere(100));
    await writer(messages);
    await writer(messages.map(again));
    expect(await figures(org, 1)).toEqual(everywhere(100));
  });

  it('is completed when its messages come back grouped with new ones', async () => {
    const org = ++lastOrg;
    const realSink = createRowSink(svc.container.clickhouse);
    const tokens: string[][] = [];
    const sink = {
      ...realSink,
      insert: async (table: string, rows: Record<string, unknown>[], token: string) => {
        tokens.at(-1)!.push(token);
        await realSink.insert(table, rows, token);
      },
    };
    const writer = createOlapWriter({ bus: svc.container.bus, sink, routes, log, metrics: createMetrics() });
    const write = (messages: BusMessage[]) => {
      tokens.push([]);
      return writer(messages);
    };
    const cut = [message(`cut-b-${org}-1`, clicks(org, 2, 30)), message(`cut-b-${org}-2`, clicks(org, 2, 20))];
    const later = message(`cut-b-${org}-3`, clicks(org, 2, 7));

    await cutInsert(write, cut);
    expect((await figures(org, 2)).raw).toBe(50);

    // After a restart: the cut batch's messages again (in another order), with a message new to the writer.
    await write([later, ...cut.map(again).reverse()]);
    expect(await figures(org, 2)).toEqual(everywhere(57));
    // The cut group went in again under its first token; the new message under one of its own.
    const [first, second] = tokens;
    expect(second).toContain(first![0]);
    expect(second).toHaveLength(2);

    await write([later, ...cut].map(again));
    expect(await figures(org, 2)).toEqual(everywhere(57));
  });

  it('inserts a group again as it was: without the redelivered events its first insert left out as written', async () => {
    const org = ++lastOrg;
    // No wait for the rest of a group back in part: here its rest was acknowledged and never comes.
    const writer = createOlapWriter({
      bus: svc.container.bus,
      sink: createRowSink(svc.container.clickhouse),
      routes,
      log,
      metrics: createMetrics(),
      groupWaitMs: 0,
    });
    const written = [message(`cut-d-${org}-1`, clicks(org, 4, 10)), message(`cut-d-${org}-2`, clicks(org, 4, 5))];
    const fresh = message(`cut-d-${org}-3`, clicks(org, 4, 6));
    await writer(written);
    expect(await figures(org, 4)).toEqual(everywhere(15));

    // One written message again (its ack was lost; its group is not all back) with a new one: the
    // new group leaves the first's events out as written, and its insert is cut after the raw rows.
    await cutInsert(writer, [again(written[0]!), fresh]);
    expect((await figures(org, 4)).raw).toBe(21);
    // Both again: the group goes in as it was, the new message's events only.
    await writer([again(again(written[0]!)), again(fresh)]);
    expect(await figures(org, 4)).toEqual(everywhere(21));
  });

  it('waits for the rest of a cut group that is back only in part, then completes it', async () => {
    const org = ++lastOrg;
    const writer = createOlapWriter({
      bus: svc.container.bus,
      sink: createRowSink(svc.container.clickhouse),
      routes,
      log,
      metrics: createMetrics(),
    });
    const cut = [
      message(`cut-e-${org}-1`, clicks(org, 5, 12)),
      message(`cut-e-${org}-2`, clicks(org, 5, 8)),
      message(`cut-e-${org}-3`, clicks(org, 5, 5)),
    ];
    const later = message(`cut-e-${org}-4`, clicks(org, 5, 3));
    await cutInsert(writer, cut);
    expect((await figures(org, 5)).raw).toBe(25);

    // JetStream hands the messages back as their ack waits run out: the first fetch has two of them.
    await expect(writer([cut[0]!, cut[2]!].map(again))).rejects.toBeInstanceOf(WaitForMore);
    await expect(writer([later, ...[cut[0]!, cut[2]!].map(again)])).rejects.toBeInstanceOf(WaitForMore);
    expect((await figures(org, 5)).raw).toBe(25);
    // The bus holds them and adds the rest when it comes.
    await writer([later, ...cut.map(again)]);
    expect(await figures(org, 5)).toEqual(everywhere(28));
  });

  it('writes a group that is back only in part from the raw table, each event once, once its rest is given up', async () => {
    const org = ++lastOrg;
    const writer = createOlapWriter({
      bus: svc.container.bus,
      sink: createRowSink(svc.container.clickhouse),
      routes,
      log,
      metrics: createMetrics(),
      groupWaitMs: 300,
    });
    const first = message(`cut-c-${org}-1`, clicks(org, 3, 10));
    const second = message(`cut-c-${org}-2`, clicks(org, 3, 15));
    // The whole store away: nothing of the group went in.
    await run(`DETACH TABLE clicks`);
    try {
      await expect(writer([first, second])).rejects.toThrow();
    } finally {
      await run(`ATTACH TABLE clicks`);
    }
    // Only one of its messages comes back (its rest was handed to another instance, say): it
    // waits for the rest, then goes in from the table lookup, then the other comes.
    await expect(writer([again(first)])).rejects.toBeInstanceOf(WaitForMore);
    await new Promise((r) => setTimeout(r, 350));
    await writer([again(first)]);
    expect(await figures(org, 3)).toEqual(everywhere(10));
    await writer([again(second)]);
    await writer([again(again(first)), again(second)]);
    expect(await figures(org, 3)).toEqual(everywhere(25));
  });

  it('rests on a deduplication window in every table the writer or a view writes to', async () => {
    // Without one, a table takes every repetition of an insert again (a replayed group, a retried batch).
    const tables = await svc.clickhouse<{ name: string; engine: string; create_table_query: string }>(
      'SELECT name, engine, create_table_query FROM system.tables WHERE database = currentDatabase()',
    );
    const byName = new Map(tables.map((t) => [t.name, t]));
    const viewTargets = tables
      .filter((t) => t.engine === 'MaterializedView' && !t.name.startsWith('cut_'))
      .map((t) => /\bTO\s+`?[\w]+`?\.`?(\w+)`?/i.exec(t.create_table_query)?.[1] ?? `${t.name}: no TO table`);
    const written = [...new Set([...Object.values(routes).map((r) => r.table), ...viewTargets])].sort();
    expect(viewTargets.length).toBeGreaterThan(5);
    const withoutWindow = written.filter(
      (name) => !/non_replicated_deduplication_window = [1-9]/.test(byName.get(name)?.create_table_query ?? ''),
    );
    expect(withoutWindow).toEqual([]);
  });
});
