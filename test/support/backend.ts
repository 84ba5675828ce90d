// Which engines the suite runs on: `npm test` embedded (PGlite, chDB, in-process bus);
// `npm run test:services` real PostgreSQL and NATS JetStream (chDB still, or CLICKHOUSE_URL).
export type Backend = 'embedded' | 'services';

export const backend: Backend = process.env.SIGNPOST_TEST_BACKEND === 'services' ? 'services' : 'embedded';

export const servicesEnv = {
  /** Any database of the server; each test file creates its own database from here. */
  postgresAdminUrl: process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  natsUrl: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
  clickhouseUrl: process.env.TEST_CLICKHOUSE_URL,
};

/** The stores migrated once per run (test/support/global-setup.ts) that each test file copies. */
export interface StoreTemplate {
  /** A data folder holding migrated pg/ (PGlite) and ch/ (chDB) folders. */
  dataDir: string;
  /** On the services backend: the migrated PostgreSQL database, copied with CREATE DATABASE … TEMPLATE. */
  database?: string;
}
