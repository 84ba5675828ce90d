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
import { afterAll, beforeAll, inject } from 'vitest';
import { createContainer, type Container } from '../../src/container.js';
import type { NewMobileApp, Platform } from '../../src/core/apps/mobile-apps.service.js';
import type { ServiceCaller } from '../../src/core/caller.js';
import type { NewCampaign } from '../../src/core/links/campaigns.js';
import { linkAddress } from '../../src/core/links/link-rules.js';
import type { NewShortUrl } from '../../src/core/links/short-urls.js';
import { createApiKeysRepo } from '../../src/oltp/api-keys.repo.js';
import { utcMonthStart } from '../../src/shared/time.js';
import { loadConfig, type Config } from '../../src/shared/config.js';
import type { Plan } from '../../src/shared/plans.js';
import { createLogger } from '../../src/shared/logger.js';
import { backend, servicesEnv } from './backend.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdefghij';

export interface Isolation {
  env: Record<string, string>;
  dataDir: string;
  /** Drops the database and the NATS streams, removes the data directory. */
  dispose(): Promise<void>;
}

/**
 * Stores of one test file. The same isolation can back several starts (restarts) in a row.
 *
 * It starts from a copy of the stores migrated once per run (test/support/global-setup.ts): the
 * data folder copied (chDB keeps relative links inside it, copied as they are), and on the services
 * backend a database created from the template database. `fresh: true` starts from nothing
 * instead, for the tests whose point is a first start that migrates (main-process, lifecycle,
 * multi-instance, clickhouse-view-reload, production-build).
 */
export async function isolate(options: { fresh?: boolean } = {}): Promise<Isolation> {
  const template = options.fresh ? undefined : inject('storeTemplate');
  const suffix = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-test-'));
  if (template) {
    // Only chDB's folder when PostgreSQL is a server; nothing of it when ClickHouse is one too.
    const parts = backend === 'services' ? (servicesEnv.clickhouseUrl ? [] : ['ch']) : ['pg', 'ch'];
    for (const part of parts) {
      fs.cpSync(path.join(template.dataDir, part), path.join(dataDir, part), {
        recursive: true,
        verbatimSymlinks: true,
      });
    }
  }
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PII_ENCRYPTION_KEY: `t1:${randomBytes(32).toString('hex')}`,
  };
  let dropDatabase = async () => {};
  let dropStreams = async () => {};
  if (backend === 'services') {
    const dbName = `sp_test_${suffix}`;
    const admin = postgres(servicesEnv.postgresAdminUrl, { max: 1, onnotice: () => {} });
    try {
      await createDatabase(admin, dbName, template?.database);
    } finally {
      await admin.end();
    }
    const url = new URL(servicesEnv.postgresAdminUrl);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
    env.NATS_URL = servicesEnv.natsUrl;
    env.NATS_NAMESPACE = `sp_test_${suffix}`;
    // chDB lives in the test's own data folder, under the template's database name; a server
    // gets a database per test file.
    if (servicesEnv.clickhouseUrl) {
      env.CLICKHOUSE_URL = servicesEnv.clickhouseUrl;
      env.CLICKHOUSE_DATABASE = `sp_test_${suffix}`;
    }
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

/**
 * CREATE DATABASE, from the template when there is one. PostgreSQL refuses to copy a database
 * another session is connected to (55006); two copies at once can meet that way, so it retries.
 */
async function createDatabase(admin: postgres.Sql, name: string, template: string | undefined): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.unsafe(template ? `create database ${name} template ${template}` : `create database ${name}`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
}

/** A short URL's settings for a factory: the core's create input, the destination named `url` as in the API body. */
export type TestLinkInput = Omit<NewShortUrl, 'originalUrl'> & { url: string };

/** What tests read of a short URL they made (the fields of the API's answer). */
export interface TestLink {
  id: number;
  shortCode: string;
  shortUrl: string;
}

/** What tests read of a campaign they made (the fields of the API's answer). */
export interface TestCampaign {
  id: number;
  name: string;
  alias: string;
  campaignUrl: string;
}

/** What tests read of a mobile app they registered: its id, SDK key and URL namespace. */
export interface TestApp {
  id: number;
  apiKey: string;
  path: string;
  platform: Platform;
  bundleId: string;
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
  /**
   * Factories for set-up, not HTTP: each makes the one core call the Service API's POST route
   * makes, as the organization of `org.apiKey` (which must be valid). The input is the core's, so
   * nothing of the route's body parsing applies: values are stored as given (no trimming, no
   * scheme or fingerprint normalisation) and an expiry is a Date. The core call tells the link
   * caches, as through the route; no api_request event is recorded and no quota call is counted.
   */
  createLink(org: { apiKey: string }, input: TestLinkInput): Promise<TestLink>;
  createCampaign(org: { apiKey: string }, input: NewCampaign): Promise<TestCampaign>;
  createApp(org: { apiKey: string }, input: NewMobileApp): Promise<TestApp>;
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

  // The caller the Service API's key check makes, without metering the call.
  const apiKeys = createApiKeysRepo({ sql: container.postgres.sql });
  const callerOf = async (apiKey: string): Promise<ServiceCaller> => {
    const found = await apiKeys.authenticate(apiKey, utcMonthStart(new Date()));
    if (!found) throw new Error('test factory: no organization has this Service API key');
    return { organization: found.organization, app: null, channel: 'service', apiKeyId: found.apiKeyId };
  };
  const { publicBaseUrl } = config.server;

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
    // A factory, not HTTP: the same core call the operator API's POST /organizations makes
    // (test/admin-api.test.ts covers that route).
    async createOrganization(name = 'Acme', plan = 'FREE') {
      const { organization, apiKey } = await container.deps.organizations.accounts.create({ name, plan: plan as Plan });
      return { id: organization.id, apiKey: apiKey.apiKey };
    },
    // POST /urls (test/short-urls.test.ts covers the route).
    async createLink(org, { url, ...rest }) {
      const link = await container.deps.links.shortUrls.create(await callerOf(org.apiKey), {
        ...rest,
        originalUrl: url,
      });
      const shortUrl = linkAddress(publicBaseUrl, link.customDomainName, link.shortCode);
      return { id: link.id, shortCode: link.shortCode, shortUrl };
    },
    // POST /campaigns (test/campaigns.test.ts covers the route).
    async createCampaign(org, input) {
      const c = await container.deps.links.campaigns.create(await callerOf(org.apiKey), input);
      return {
        id: c.id,
        name: c.name,
        alias: c.alias,
        campaignUrl: linkAddress(publicBaseUrl, c.customDomainName, c.alias),
      };
    },
    // POST /mobile-apps (test/mobile-apps.test.ts covers the route).
    async createApp(org, input) {
      const created = await container.deps.apps.mobileApps.create(await callerOf(org.apiKey), input);
      return {
        id: created.id,
        apiKey: created.apiKey,
        path: created.path,
        platform: created.platform,
        bundleId: created.bundleId,
      };
    },
    async clickhouse<T>(query: string, params: Record<string, unknown> = {}) {
      const result = await container.clickhouse.client.query({ query, query_params: params, format: 'JSONEachRow' });
      return result.json<T>();
    },
    close: () => container.close(),
  };
}

/** What serviceForFile() returns: the file's service, and the stores under it. */
export interface FileService extends TestService {
  readonly isolation: Isolation;
  /** Stops the service and starts it again on the same stores (a restart mid-job). */
  restart(): Promise<void>;
}

/**
 * The service of one test file, the set-up every integration test file shares: before the file's
 * tests (and before the file's own beforeAll, registered after this call) a copy of the migrated
 * stores and the service started on it; after them, the service closed and the stores removed.
 * The returned object is that service, usable from the file's beforeAll on. `env` may be a
 * function when it depends on something made before the hooks run.
 */
export function serviceForFile(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: { fresh?: boolean; logDestination?: DestinationStream } = {},
): FileService {
  let isolation: Isolation | undefined;
  let current: TestService | undefined;
  beforeAll(async () => {
    isolation = await isolate({ fresh: options.fresh ?? false });
    current = await startService(isolation, typeof env === 'function' ? env() : env, options);
  });
  afterAll(async () => {
    await current?.close();
    await isolation?.dispose();
  });
  const restart = async () => {
    await current?.close();
    current = undefined;
    current = await startService(isolation!, typeof env === 'function' ? env() : env, options);
  };
  return new Proxy({} as FileService, {
    get(_, key) {
      // Not a promise; and printing it before the start is no error.
      if (key === 'then' || typeof key === 'symbol') return undefined;
      if (key === 'restart') return restart;
      const target = key === 'isolation' ? isolation : current;
      if (!target) throw new Error(`serviceForFile(): .${key} before the service started (use it from beforeAll on)`);
      return key === 'isolation' ? target : Reflect.get(target, key);
    },
  });
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
