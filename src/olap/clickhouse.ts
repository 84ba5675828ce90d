// The ClickHouse factory: @clickhouse/client over HTTP to a server (CLICKHOUSE_URL), or the same
// client on chDB, the embedded engine, through chdb/connection. Both run the same SQL with
// unqualified table names in the configured database.
import fs from 'node:fs';
import path from 'node:path';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { ConfigError } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import { onCluster } from './cluster-ddl.js';

export type { ClickHouseClient };

/** A ClickHouse string literal, for the few places a value cannot be a query parameter (SETTINGS). */
export const literal = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export interface Clickhouse {
  client: ClickHouseClient;
  database: string;
  embedded: boolean;
  /**
   * The embedded engine's insert of rows already in `format`, handed over as bytes (chDB parses
   * them on its own threads). Absent on a server, where the client streams them over HTTP.
   */
  insertRaw?: (insert: RawInsert) => Promise<void>;
  close(): Promise<void>;
}

export interface RawInsert {
  table: string;
  format: 'JSONEachRow';
  payload: Buffer;
  settings: Record<string, string | number>;
}

export interface ClickhouseOptions {
  url: string | undefined;
  database: string;
  dataDir: string;
  log: Logger;
  /** CLICKHOUSE_CLUSTER: the database is created on every server of it (a server URL only). */
  cluster?: string;
  /** chDB only: its memory; unset, the engine's own defaults (caches of 5 GiB each). */
  embeddedMemory?: EmbeddedClickhouseMemory;
}

/** What chDB may hold in memory (CLICKHOUSE_EMBEDDED_*), in MiB; a limit of 0 is the engine's own. */
export interface EmbeddedClickhouseMemory {
  markCacheMb: number;
  indexCacheMb: number;
  maxMemoryMb: number;
}

const MIB = 1024 * 1024;

/** The engine's server settings for these sizes, as `clickhouse local` takes them on its command line. */
function embeddedServerArgs(memory: EmbeddedClickhouseMemory): string[] {
  return [
    `--mark_cache_size=${memory.markCacheMb * MIB}`,
    `--primary_index_cache_size=${memory.indexCacheMb * MIB}`,
    `--index_mark_cache_size=${memory.indexCacheMb * MIB}`,
    ...(memory.maxMemoryMb > 0 ? [`--max_server_memory_usage=${memory.maxMemoryMb * MIB}`] : []),
  ];
}

/** The connection calls the client makes; chdb/connection implements them. */
interface ChdbConnection {
  ping(params: unknown): Promise<unknown>;
  query(params: unknown): Promise<unknown>;
  insert(params: unknown): Promise<unknown>;
  command(params: unknown): Promise<unknown>;
  exec(params: unknown): Promise<unknown>;
  close(): Promise<void>;
}

/** chDB's own insert of bytes, beside the client's calls. */
interface ChdbRawInsert {
  rawInsert(params: {
    table: string;
    values: Buffer;
    format: string;
    settings: Record<string, string | number>;
  }): Promise<unknown>;
}

/**
 * chDB's own insert fails with its numeric code apart (`clickhouseCode`); the client's calls, on
 * chDB as on a server, fail with that code as a string in `code`, which the writer reads to tell
 * refused data from a store that is down.
 */
function likeClientError(err: unknown): unknown {
  const code = (err as { clickhouseCode?: unknown } | undefined)?.clickhouseCode;
  if (typeof code !== 'number') return err;
  return Object.assign(new Error((err as Error).message, { cause: err }), { code: String(code) });
}

/**
 * chDB hands the rows a query had produced when it failed (a result limit, a timeout, a throwIf
 * half-way) to the next query of the session, as that query's answer. Its session runs one query
 * at a time anyway; here they also go one at a time from this side, and after a failure a
 * throwaway query takes the leftovers before anything else runs.
 */
function oneAtATime(
  connection: ChdbConnection,
  raw: ChdbRawInsert,
): ChdbConnection & { rawInsert: (insert: RawInsert) => Promise<void> } {
  let last: Promise<unknown> = Promise.resolve();
  const takeLeftovers = () => connection.query({ query: 'SELECT 1', query_id: 'signpost-leftovers' }).catch(() => {});
  function inTurn<T>(call: () => Promise<T>): Promise<T> {
    const turn = last.then(call).catch(async (err: unknown) => {
      await takeLeftovers();
      throw err;
    });
    last = turn.catch(() => {});
    return turn;
  }
  return {
    ping: (params) => inTurn(() => connection.ping(params)),
    query: (params) => inTurn(() => connection.query(params)),
    insert: (params) => inTurn(() => connection.insert(params)),
    command: (params) => inTurn(() => connection.command(params)),
    exec: (params) => inTurn(() => connection.exec(params)),
    rawInsert: (insert) =>
      inTurn(async () => {
        try {
          await raw.rawInsert({
            table: insert.table,
            values: insert.payload,
            format: insert.format,
            settings: insert.settings,
          });
        } catch (err) {
          throw likeClientError(err);
        }
      }),
    close: () => last.then(() => connection.close()),
  };
}

/**
 * chDB is an optional dependency: an install for a ClickHouse server may leave its 543 MB engine out
 * (the image's build argument EMBEDDED_CLICKHOUSE=false, `npm ci --omit=optional`).
 */
async function loadChdb(): Promise<
  Pick<typeof import('chdb/connection'), 'createChdbConnection'> & Pick<typeof import('chdb'), 'Session'>
> {
  try {
    const [{ createChdbConnection }, { Session }] = await Promise.all([import('chdb/connection'), import('chdb')]);
    return { createChdbConnection, Session };
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    throw new ConfigError(
      'CLICKHOUSE_URL is not set and the embedded ClickHouse engine (the optional package chdb) is not installed: ' +
        'set CLICKHOUSE_URL to a ClickHouse server (http://user:pass@host:8123/db), or install with optional dependencies',
    );
  }
}

export async function createClickhouse(options: ClickhouseOptions): Promise<Clickhouse> {
  const log = options.log.child({ module: 'clickhouse' });
  const { database } = options;
  if (options.url) {
    const url = new URL(options.url);
    url.pathname = '';
    // Create the database first through a client without a default database.
    const bootstrap = createClient({ url: url.toString(), request_timeout: 30_000 });
    await bootstrap.command({ query: onCluster(`CREATE DATABASE IF NOT EXISTS \`${database}\``, options.cluster) });
    await bootstrap.close();
    const client = createClient({
      url: url.toString(),
      database,
      request_timeout: 30_000,
      clickhouse_settings: { date_time_input_format: 'best_effort' },
    });
    log.info({ host: url.host, database }, 'connected to ClickHouse');
    return { client, database, embedded: false, close: () => client.close() };
  }
  const { createChdbConnection, Session } = await loadChdb();
  const dir = path.join(options.dataDir, 'ch');
  fs.mkdirSync(dir, { recursive: true });
  // The engine takes its server settings (the caches' sizes) once, from the first connection to
  // its directory; the client's connection cannot pass them, so a session opened first does, and
  // stays open as long as the client.
  const serverArgs = options.embeddedMemory ? embeddedServerArgs(options.embeddedMemory) : [];
  const engine = new Session(dir, { connectionArgs: serverArgs });
  const chdb = createChdbConnection({ path: dir });
  const connection = oneAtATime(chdb as unknown as ChdbConnection, chdb.chdb as unknown as ChdbRawInsert);
  const client = createClient({
    // chdb builds against its own copy of @clickhouse/client-common: same shape, distinct types.
    connection: connection as unknown as NonNullable<Parameters<typeof createClient>[0]>['connection'],
    clickhouse_settings: { date_time_input_format: 'best_effort' },
  });
  // chDB ignores the client's `database` option; its session keeps a USE, so the same unqualified
  // SQL reaches the same database on both engines.
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS \`${database}\`` });
  await client.command({ query: `USE \`${database}\`` });
  log.info({ dir, database, serverArgs }, 'started embedded ClickHouse (chDB)');
  return {
    client,
    database,
    embedded: true,
    insertRaw: connection.rawInsert,
    async close() {
      await client.close();
      engine.close();
    },
  };
}
