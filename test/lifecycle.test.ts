// Start-up and shutdown: migrations run once and are safe to repeat, readiness turns off first,
// and a graceful shutdown drains every pending event into ClickHouse before the stores close.
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores } from '../src/compose/stores.js';
import { loadConfig } from '../src/shared/config.js';
import { createLogger } from '../src/shared/logger.js';
import { backend, servicesEnv } from './support/backend.js';
import { isolate, startService, type Isolation } from './support/service.js';

let isolation: Isolation;
const log = createLogger({ level: 'silent', pretty: false });

beforeAll(async () => {
  isolation = await isolate({ fresh: true });
});

afterAll(async () => {
  await isolation?.dispose();
});

const configFor = (env: Record<string, string> = {}) => loadConfig({ ...isolation.env, LOG_LEVEL: 'silent', ...env });

describe('migrations', () => {
  // A first migration of fresh stores: a loaded machine can need more than the default 30 s.
  it('apply once, record each version, and apply nothing the second time', async () => {
    const first = await openStores(configFor(), log);
    const pgVersions = await first.postgres.sql<
      { version: number }[]
    >`select version from schema_migrations order by version`;
    const chVersions = await (
      await first.clickhouse.client.query({
        query: 'SELECT version FROM schema_migrations FINAL ORDER BY version',
        format: 'JSONEachRow',
      })
    ).json<{ version: number }>();
    expect(pgVersions.map((r) => r.version)).toContain(1);
    expect(chVersions.map((r) => Number(r.version))).toContain(1);
    const tables = await first.postgres.sql<{ table_name: string }[]>`
      select table_name from information_schema.tables where table_schema = 'public' order by table_name`;
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining([
        'organizations',
        'api_keys',
        'api_usage',
        'custom_domains',
        'webhook_endpoints',
        'sso_partners',
      ]),
    );
    await first.clickhouse.close();
    await first.postgres.close();

    const second = await openStores(configFor(), log);
    const again = await second.postgres.sql<{ n: number }[]>`select count(*)::int as n from schema_migrations`;
    expect(again[0]!.n).toBe(pgVersions.length);
    const chAgain = await (
      await second.clickhouse.client.query({
        query: 'SELECT count() AS n FROM schema_migrations',
        format: 'JSONEachRow',
      })
    ).json<{ n: string }>();
    expect(Number(chAgain[0]!.n)).toBe(chVersions.length);
    await second.clickhouse.close();
    await second.postgres.close();
  }, 120_000);

  it.runIf(backend === 'services')('are safe when several instances start at the same moment', async () => {
    const fresh = await isolate({ fresh: true });
    try {
      const config = loadConfig({ ...fresh.env, LOG_LEVEL: 'silent' });
      const opened = await Promise.all([openStores(config, log), openStores(config, log), openStores(config, log)]);
      const [row] = await opened[0]!.postgres.sql<{ n: number; distinct_versions: number }[]>`
        select count(*)::int as n, count(distinct version)::int as distinct_versions from schema_migrations`;
      expect(row!.n).toBe(row!.distinct_versions);
      for (const o of opened) {
        await o.clickhouse.close();
        await o.postgres.close();
      }
    } finally {
      await fresh.dispose();
    }
  });
});

describe('a failed start', () => {
  it('closes what it had opened, so the next start on the same stores works', async () => {
    // Nothing listens on port 1: the bus fails after both stores are open.
    await expect(startService(isolation, { NATS_URL: 'nats://127.0.0.1:1' })).rejects.toThrow();
    if (backend === 'services') {
      // No connection of the failed start stays open on its database.
      const url = new URL(isolation.env.DATABASE_URL!);
      const admin = postgres(servicesEnv.postgresAdminUrl, { max: 1, onnotice: () => {} });
      const [row] = await admin<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity where datname = ${url.pathname.slice(1)}`;
      await admin.end();
      expect(row!.n).toBe(0);
    } else {
      // The embedded PostgreSQL was stopped: its socket is gone.
      expect(fs.existsSync(path.join(isolation.dataDir, '.pglite.sock'))).toBe(false);
    }
    const svc = await startService(isolation);
    try {
      expect((await svc.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await svc.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('turns readiness off, then drains every pending event into ClickHouse', async () => {
    // A long batch delay: without the drain at shutdown these events would still sit in memory.
    const svc = await startService(isolation, { EVENT_BATCH_DELAY_MS: '60000', EVENT_BATCH_MAX: '100000' });
    const org = await svc.createOrganization('Draining');
    const calls = 25;
    for (let i = 0; i < calls; i++) expect((await svc.service('GET', '/usage', org.apiKey)).statusCode).toBe(200);
    expect(svc.container.events.backlog()).toBeGreaterThanOrEqual(calls);
    const readyBefore = (await svc.inject({ method: 'GET', url: '/readyz' })).statusCode;
    expect(readyBefore).toBe(200);

    const closing = svc.close();
    expect(svc.container.deps.lifecycle.isReady()).toBe(false);
    await closing;

    // Reopen the stores as the next start would and count what reached ClickHouse.
    const reopened = await openStores(configFor(), log);
    try {
      const rows = await (
        await reopened.clickhouse.client.query({
          query: 'SELECT count() AS c, uniqExact(event_id) AS u FROM api_requests WHERE organization_id = {org:UInt64}',
          query_params: { org: org.id },
          format: 'JSONEachRow',
        })
      ).json<{ c: string; u: string }>();
      // The organization-creating call was on the operator API, which is not metered.
      expect(Number(rows[0]!.c)).toBe(calls);
      expect(Number(rows[0]!.u)).toBe(calls);
      const [usage] = await reopened.postgres.sql<
        { calls: number }[]
      >`select calls from api_usage where organization_id = ${org.id}`;
      expect(usage!.calls).toBe(calls);
    } finally {
      await reopened.clickhouse.close();
      await reopened.postgres.close();
    }
  });
});
