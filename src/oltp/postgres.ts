// The PostgreSQL factory: postgres.js against a real server (DATABASE_URL) or against PGlite, the
// embedded Postgres, reached through a Unix socket by the very same postgres.js code.
import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import type { Logger } from '../shared/logger.js';

export type Sql = postgres.Sql<Record<string, never>>;

export interface Postgres {
  sql: Sql;
  /** Concurrent queries the pool can run; callers cap their fan-out at this. */
  poolSize: number;
  embedded: boolean;
  close(): Promise<void>;
}

export interface PostgresOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  poolSize?: number;
  /** PGlite only: its shared_buffers (PGLITE_SHARED_BUFFERS_MB); unset, its own 128 MB. */
  pgliteSharedBuffersMb?: number;
  log: Logger;
}

const commonOptions: postgres.Options<Record<string, postgres.PostgresType>> = {
  onnotice: () => {},
  // bigint columns (ids, counts) come back as JS numbers; ids stay far below 2^53.
  types: {
    bigint: {
      to: 20,
      from: [20],
      serialize: (v: number | bigint) => v.toString(),
      parse: (v: string) => Number(v),
    },
  },
  transform: { undefined: null },
  connect_timeout: 10,
};

export async function createPostgres(options: PostgresOptions): Promise<Postgres> {
  const log = options.log.child({ module: 'postgres' });
  if (options.databaseUrl) {
    const poolSize = options.poolSize ?? 10;
    const sql = postgres(options.databaseUrl, { ...commonOptions, max: poolSize }) as unknown as Sql;
    await sql`select 1`;
    log.info({ poolSize }, 'connected to PostgreSQL');
    return { sql, poolSize, embedded: false, close: () => sql.end({ timeout: 5 }) };
  }
  return createEmbeddedPostgres(options.dataDir, options.pgliteSharedBuffersMb, log);
}

async function createEmbeddedPostgres(
  dataDir: string,
  sharedBuffersMb: number | undefined,
  log: Logger,
): Promise<Postgres> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  // Real servers ship these contrib modules; PGlite loads them as WebAssembly extensions.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const dir = path.join(dataDir, 'pg');
  fs.mkdirSync(dataDir, { recursive: true });
  // PostgreSQL writes its whole buffer cache at start, so shared_buffers is resident from the first
  // second: PGlite's 128 MB would be the largest single item of an idle embedded service.
  const startParams =
    sharedBuffersMb === undefined
      ? undefined
      : [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`];
  const db = await PGlite.create(dir, { extensions: { pg_trgm }, ...(startParams ? { startParams } : {}) });
  // Unix socket paths are limited to ~107 bytes; a long DATA_DIR falls back to the temp dir.
  let socketPath = path.join(dataDir, '.pglite.sock');
  if (socketPath.length > 100) socketPath = path.join('/tmp', `signpost-pglite-${process.pid}-${Date.now()}.sock`);
  fs.rmSync(socketPath, { force: true });
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
  await server.start();
  // PGlite runs one query at a time and its socket interleaves connections per query, which would
  // mix transactions: one pooled connection keeps each transaction whole.
  const sql = postgres({
    ...commonOptions,
    path: socketPath,
    max: 1,
    database: 'postgres',
    username: 'postgres',
  }) as unknown as Sql;
  await sql`select 1`;
  log.info({ dir, sharedBuffersMb }, 'started embedded PostgreSQL (PGlite)');
  return {
    sql,
    poolSize: 1,
    embedded: true,
    async close() {
      await sql.end({ timeout: 5 });
      await server.stop();
      await db.close();
      fs.rmSync(socketPath, { force: true });
    },
  };
}
