// Starts the real service (the same container main.ts builds) on the backend under test, isolated
// per test file: its own data directory, its own PostgreSQL database and NATS namespace.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import type { LightMyRequestResponse } from 'fastify';
import type { DestinationStream } from 'pino';
import { createContainer, type Container } from '../../src/container.js';
import { loadConfig, type Config } from '../../src/shared/config.js';
import { createLogger } from '../../src/shared/logger.js';
import { backend, servicesEnv } from './backend.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdefghij';

export interface Isolation {
  env: Record<string, string>;
  dataDir: string;
  /** Drops the database and the NATS streams, removes the data directory. */
  dispose(): Promise<void>;
}

/** Stores of one test file. The same isolation can back several starts (restarts) in a row. */
export async function isolate(): Promise<Isolation> {
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-test-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PII_ENCRYPTION_KEY: `t1:${randomBytes(32).toString('hex')}`,
  };
  let dropDatabase = async () => {};
  let dropStreams = async () => {};
  if (backend === 'services') {
    const dbName = `sp_test_${suffix}`;
    const admin = postgres(servicesEnv.postgresAdminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${dbName}`);
    await admin.end();
    const url = new URL(servicesEnv.postgresAdminUrl);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
    env.NATS_URL = servicesEnv.natsUrl;
    env.NATS_NAMESPACE = `sp_test_${suffix}`;
    if (servicesEnv.clickhouseUrl) env.CLICKHOUSE_URL = servicesEnv.clickhouseUrl;
    env.CLICKHOUSE_DATABASE = `sp_test_${suffix}`;
    dropDatabase = async () => {
      const conn = postgres(servicesEnv.postgresAdminUrl, { max: 1, onnotice: () => {} });
      await conn.unsafe(`drop database if exists ${dbName} with (force)`);
      await conn.end();
    };
    dropStreams = async () => {
      const nc = await connect({ servers: servicesEnv.natsUrl });
      const jsm = await jetstreamManager(nc);
      for (const name of [`${env.NATS_NAMESPACE}_EVENTS`, `${env.NATS_NAMESPACE}_DLQ`]) {
        await jsm.streams.delete(name).catch(() => {});
      }
      await nc.close();
    };
  }
  return {
    env,
    dataDir,
    async dispose() {
      await dropStreams().catch(() => {});
      await dropDatabase().catch(() => {});
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestService {
  container: Container;
  config: Config;
  /** Injects a request into the app (no socket). */
  inject: Container['app']['inject'];
  admin(method: string, url: string, body?: unknown): Promise<LightMyRequestResponse>;
  service(
    method: string,
    url: string,
    apiKey: string,
    body?: unknown,
    extra?: { remoteAddress?: string; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  createOrganization(name?: string, plan?: string): Promise<{ id: number; apiKey: string }>;
  /** Rows of a ClickHouse query, parameters typed in the SQL ({name:Type}). */
  clickhouse<T = Record<string, unknown>>(query: string, params?: Record<string, unknown>): Promise<T[]>;
  close(): Promise<void>;
}

export async function startService(
  isolation: Isolation,
  env: Record<string, string> = {},
  options: { logDestination?: DestinationStream } = {},
): Promise<TestService> {
  const config = loadConfig({
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SIGNPOST_ADMIN_TOKEN: ADMIN_TOKEN,
    EVENT_BATCH_DELAY_MS: '20',
    ...isolation.env,
    ...env,
  });
  const log = createLogger({
    level: config.log.level,
    pretty: false,
    ...(options.logDestination ? { destination: options.logDestination } : {}),
  });
  const container = await createContainer(config, log);
  const { app } = container;
  const inject = app.inject.bind(app) as Container['app']['inject'];

  const admin = (method: string, url: string, body?: unknown) =>
    app.inject({
      method: method as 'GET',
      url: `/api/admin/v1${url}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  return {
    container,
    config,
    inject,
    admin,
    service: (method, url, apiKey, body, extra = {}) =>
      app.inject({
        method: method as 'GET',
        url: `/api/v1/service${url}`,
        headers: { 'x-api-key': apiKey, ...extra.headers },
        ...(extra.remoteAddress ? { remoteAddress: extra.remoteAddress } : {}),
        ...(body === undefined ? {} : { payload: body as object }),
      }),
    async createOrganization(name = 'Acme', plan = 'FREE') {
      const res = await admin('POST', '/organizations', { name, plan });
      if (res.statusCode !== 201) throw new Error(`organization not created: ${res.statusCode} ${res.body}`);
      const body = res.json() as { id: number; apiKey: string };
      return { id: body.id, apiKey: body.apiKey };
    },
    async clickhouse<T>(query: string, params: Record<string, unknown> = {}) {
      const result = await container.clickhouse.client.query({ query, query_params: params, format: 'JSONEachRow' });
      return result.json<T>();
    },
    close: () => container.close(),
  };
}

/** Polls until `check` returns a value that is not undefined/false, or fails after the timeout. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
