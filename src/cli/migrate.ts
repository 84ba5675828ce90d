// `npm run migrate`: applies pending PostgreSQL and ClickHouse migrations and exits.
import { openStores } from '../compose/stores.js';
import { loadConfig } from '../shared/config.js';
import { createLogger } from '../shared/logger.js';

const config = loadConfig();
const log = createLogger({ level: config.log.level, pretty: config.log.pretty });
const { postgres, clickhouse } = await openStores(config, log);
await clickhouse.close();
await postgres.close();
log.info('migrations are up to date');
