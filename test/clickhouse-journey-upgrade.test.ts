// Upgrading a ClickHouse database that already holds user-journey sessions: migration 0011 moves
// every session's state into journey_sessions (keyed by the session's start), and sessions that go
// on after the upgrade keep adding to the same session.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickhouse, type Clickhouse } from '../src/olap/clickhouse.js';
import { migrateClickhouse } from '../src/olap/migrate.js';
import { createLogger } from '../src/shared/logger.js';
import { sqlRoot } from '../src/shared/migration-files.js';

const log = createLogger({ level: 'warn', pretty: false });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-ch-upgrade-'));
const before = path.join(dataDir, 'migrations-before-0011');
let ch: Clickhouse;

/** A session id as the service issues it: a UUIDv7 carrying the session's start. */
function sessionIdAt(startedAt: string, n: number): string {
  const ms = Date.parse(startedAt).toString(16).padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7000-8000-${String(n).padStart(12, '0')}`;
}
const A = sessionIdAt('2026-03-01T23:50:00Z', 1);
const B = sessionIdAt('2026-03-02T08:00:00Z', 2);

async function rows<T>(query: string): Promise<T[]> {
  return (await ch.client.query({ query, format: 'JSONEachRow' })).json<T>();
}
const insert = (table: string, values: Record<string, unknown>[]) =>
  ch.client.insert({
    table,
    values: values.map((v) => ({ event_id: crypto.randomUUID(), organization_id: 7, app_id: 3, ...v })),
    format: 'JSONEachRow',
  });
const sessionsOf = () =>
  rows<Record<string, unknown>>(
    'SELECT session_id, started_at, last_seen_at, platform, utm_source, events, transitions FROM sessions_v1 ORDER BY session_id',
  );

beforeAll(async () => {
  fs.mkdirSync(before);
  for (const file of fs.readdirSync(path.join(sqlRoot, 'clickhouse'))) {
    if (Number(file.slice(0, 4)) < 11) fs.copyFileSync(path.join(sqlRoot, 'clickhouse', file), path.join(before, file));
  }
  ch = await createClickhouse({ url: undefined, database: 'upgrade', dataDir, log });
  await migrateClickhouse(ch.client, log, before);
  await insert('journey_session_starts', [
    { ts: '2026-03-01 23:50:00.000', session_id: A, platform: 'WEB', utm_source: 'kakao' },
    { ts: '2026-03-02 08:00:00.000', session_id: B, platform: 'IOS' },
  ]);
  await insert('journey_events', [
    { ts: '2026-03-01 23:51:00.000', session_id: A, platform: 'WEB', event_type: 'page_view', properties: '{}' },
    { ts: '2026-03-02 00:10:00.000', session_id: A, platform: 'WEB', event_type: 'page_view', properties: '{}' },
  ]);
  await insert('journey_transitions', [
    { ts: '2026-03-02 08:01:00.000', session_id: B, from_platform: 'IOS', to_platform: 'WEB' },
  ]);
});

afterAll(async () => {
  await ch?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('ClickHouse upgrade to sessions keyed by their start (0011)', () => {
  it('keeps every session as sessions_v1 showed it, now read from journey_sessions', async () => {
    const shown = await sessionsOf();
    expect(shown).toHaveLength(2);
    expect(await migrateClickhouse(ch.client, log)).toContain(11);
    expect(await sessionsOf()).toEqual(shown);
    const tables = await rows<{ name: string }>(
      "SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'journey_session%' ORDER BY name",
    );
    expect(tables.map((t) => t.name)).toEqual([
      'journey_session_starts',
      'journey_sessions',
      'journey_sessions_events_mv',
      'journey_sessions_funnel_mv',
      'journey_sessions_starts_mv',
      'journey_sessions_transitions_mv',
    ]);
    const starts = await rows<{ session_id: string; started_at: string }>(
      'SELECT DISTINCT session_id, toString(started_at) AS started_at FROM journey_sessions ORDER BY session_id',
    );
    expect(starts).toEqual([
      { session_id: A, started_at: '2026-03-01 23:50:00.000' },
      { session_id: B, started_at: '2026-03-02 08:00:00.000' },
    ]);
  });

  it('adds what a session does after the upgrade to the state it had before', async () => {
    await insert('journey_events', [
      { ts: '2026-03-02 00:20:00.000', session_id: A, platform: 'WEB', event_type: 'purchase', properties: '{}' },
    ]);
    const [a] = (await sessionsOf()).filter((s) => s.session_id === A);
    expect(a).toMatchObject({
      events: 3,
      utm_source: 'kakao',
      platform: 'WEB',
      started_at: '2026-03-01 23:50:00.000',
      last_seen_at: '2026-03-02 00:20:00.000',
    });
  });
});
