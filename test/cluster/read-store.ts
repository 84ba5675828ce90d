// What one worker's embedded ClickHouse (its DATA_DIR) holds of the cluster run, as one JSON line
// on stdout. chDB binds one data folder per process, so the run starts this once per folder, after
// the workers stopped. Arguments: the organization of the redirects, the one of the webhooks and
// journey events. Environment: the service's (DATA_DIR, DATABASE_URL, ...).
import { openStores } from '../../src/compose/stores.js';
import { loadConfig } from '../../src/shared/config.js';
import { createLogger } from '../../src/shared/logger.js';
import { clickFigures, type ClickFigures } from '../support/click-figures.js';

export interface StoreContents {
  /** Click rows of the redirect load: [request number (utm_term), event id]. */
  clicks: [string, string][];
  /** Event ids of the clicks of the webhook organization. */
  hookedClicks: string[];
  /** Its click rows as the redirect load's: [request number, event id]. */
  hookedNumbers: [string, string][];
  /** Event ids of the journey events (session_event). */
  journeyEvents: string[];
  figures: ClickFigures[];
}

const [loadOrg, hookedOrg] = process.argv.slice(2).map(Number);
const stores = await openStores(
  loadConfig({ ...process.env, LOG_LEVEL: 'silent' }),
  createLogger({ level: 'silent', pretty: false }),
);
try {
  const client = stores.clickhouse.client;
  const rows = async <T>(query: string, org: number) =>
    (await client.query({ query, query_params: { org }, format: 'JSONEachRow' })).json<T>();
  const clicks = await rows<{ n: string; id: string }>(
    'SELECT utm_term AS n, toString(event_id) AS id FROM clicks WHERE organization_id = {org:UInt64}',
    loadOrg!,
  );
  const hooked = await rows<{ n: string; id: string }>(
    'SELECT utm_term AS n, toString(event_id) AS id FROM clicks WHERE organization_id = {org:UInt64}',
    hookedOrg!,
  );
  const journey = await rows<{ id: string }>(
    'SELECT toString(event_id) AS id FROM journey_events WHERE organization_id = {org:UInt64}',
    hookedOrg!,
  );
  const contents: StoreContents = {
    clicks: clicks.map((r) => [r.n, r.id]),
    hookedClicks: hooked.map((r) => r.id),
    hookedNumbers: hooked.map((r) => [r.n, r.id]),
    journeyEvents: journey.map((r) => r.id),
    figures: [await clickFigures(client, loadOrg!), await clickFigures(client, hookedOrg!)],
  };
  process.stdout.write(`${JSON.stringify(contents)}\n`);
} finally {
  await stores.clickhouse.close();
  await stores.postgres.close();
}
