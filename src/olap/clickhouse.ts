// The ClickHouse factory: @clickhouse/client over HTTP to a server (CLICKHOUSE_URL), or the same
// client on chDB, the embedded engine, through chdb/connection. Both run the same SQL with
// unqualified table names in the configured database.
import fs from 'node:fs';
import path from 'node:path';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import type { Logger } from '../shared/logger.js';

export type { ClickHouseClient };

/** A ClickHouse string literal, for the few places a value cannot be a query parameter (SETTINGS). */
export const literal = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export interface Clickhouse {
  client: ClickHouseClient;
  database: string;
  embedded: boolean;
  close(): Promise<void>;
}

export interface ClickhouseOptions {
  url: string | undefined;
  database: string;
  dataDir: string;
  log: Logger;
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

/**
 * chDB hands the rows a query had produced when it failed (a result limit, a timeout, a throwIf
 * half-way) to the next query of the session, as that query's answer. Its session runs one query
 * at a time anyway; here they also go one at a time from this side, and after a failure a
 * throwaway query takes the leftovers before anything else runs.
 */
function oneAtATime(connection: ChdbConnection): ChdbConnection {
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
    close: () => last.then(() => connection.close()),
  };
}

export async function createClickhouse(options: ClickhouseOptions): Promise<Clickhouse> {
  const log = options.log.child({ module: 'clickhouse' });
  const { database } = options;
  if (options.url) {
    const url = new URL(options.url);
    url.pathname = '';
    // Create the database first through a client without a default database.
    const bootstrap = createClient({ url: url.toString(), request_timeout: 30_000 });
    await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS \`${database}\`` });
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
  const { createChdbConnection } = await import('chdb/connection');
  const dir = path.join(options.dataDir, 'ch');
  fs.mkdirSync(dir, { recursive: true });
  const client = createClient({
    // chdb builds against its own copy of @clickhouse/client-common: same shape, distinct types.
    connection: oneAtATime(createChdbConnection({ path: dir }) as unknown as ChdbConnection) as unknown as NonNullable<Parameters<typeof createClient>[0]>['connection'],
    clickhouse_settings: { date_time_input_format: 'best_effort' },
  });
  // chDB ignores the client's `database` option; its session keeps a USE, so the same unqualified
  // SQL reaches the same database on both engines.
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS \`${database}\`` });
  await client.command({ query: `USE \`${database}\`` });
  log.info({ dir, database }, 'started embedded ClickHouse (chDB)');
  return { client, database, embedded: true, close: () => client.close() };
}
