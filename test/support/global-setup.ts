// Once per run, before any service test file: fails fast when the services run cannot reach its
// servers, then migrates one set of stores that every test file starts from a copy of (see
// isolate() in ./service.ts). A fresh start builds and migrates PGlite and chDB in 8 to 12 s; a
// copy of a migrated data folder opens in about 2.5 s.
//
// The template is migrated by `src/cli/migrate.ts` in a child process, as `npm run migrate` does:
// chDB is one engine per process, and this process (vitest's own) must not hold one. Embedded, the
// template is a data folder (pg/ and ch/); on the services backend, a PostgreSQL database that each
// isolate() copies with CREATE DATABASE … TEMPLATE, plus the chDB folder (the services run keeps
// chDB unless TEST_CLICKHOUSE_URL names a server, which then migrates each test's database itself).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { backend, servicesEnv, type StoreTemplate } from './backend.js';

declare module 'vitest' {
  export interface ProvidedContext {
    storeTemplate: StoreTemplate;
  }
}

const root = path.resolve(import.meta.dirname, '..', '..');

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || defaultPort) });
    socket.setTimeout(3000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function adminSql() {
  return postgres(servicesEnv.postgresAdminUrl, { max: 1, onnotice: () => {} });
}

/** The template of this run and its users: two projects (service, shared) share one. */
interface SharedTemplate {
  ready: Promise<{ template: StoreTemplate; dispose: () => Promise<void> }>;
  users: number;
}
const shared = globalThis as { signpostTemplate?: SharedTemplate };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared.signpostTemplate ??= { ready: migrateTemplate(), users: 0 };
  const current = shared.signpostTemplate;
  current.users++;
  const { template, dispose } = await current.ready;
  project.provide('storeTemplate', template);
  return async () => {
    if (--current.users > 0) return;
    shared.signpostTemplate = undefined;
    await dispose();
  };
}

async function migrateTemplate(): Promise<{ template: StoreTemplate; dispose: () => Promise<void> }> {
  if (backend === 'services') {
    const missing: string[] = [];
    if (!(await reachable(servicesEnv.postgresAdminUrl, 5432)))
      missing.push(`PostgreSQL at ${servicesEnv.postgresAdminUrl}`);
    if (!(await reachable(servicesEnv.natsUrl, 4222))) missing.push(`NATS at ${servicesEnv.natsUrl}`);
    if (missing.length > 0) throw new Error(`test:services needs ${missing.join(' and ')}`);
  }

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-template-'));
  // The sp_test_ prefix: .ci/run drops what an interrupted run left behind.
  const database = backend === 'services' ? `sp_test_template_${randomBytes(4).toString('hex')}` : undefined;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Migrations store no secret; a key of its own keeps the folder free of a generated key file.
    PII_ENCRYPTION_KEY: `t1:${randomBytes(32).toString('hex')}`,
  };
  const dispose = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (database) {
      const admin = adminSql();
      await admin.unsafe(`drop database if exists ${database} with (force)`).catch(() => {});
      await admin.end();
    }
  };
  try {
    if (database) {
      const admin = adminSql();
      await admin.unsafe(`create database ${database}`);
      await admin.end();
      const url = new URL(servicesEnv.postgresAdminUrl);
      url.pathname = `/${database}`;
      env.DATABASE_URL = url.toString();
    }
    // No deadline of its own: on a loaded machine a first migration has taken minutes.
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/migrate.ts'], { cwd: root, env });
  } catch (err) {
    await dispose();
    const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
    throw new Error(`the template stores could not be migrated:\n${stdout}${stderr}`, { cause: err });
  }
  return { template: { dataDir, ...(database ? { database } : {}) }, dispose };
}
