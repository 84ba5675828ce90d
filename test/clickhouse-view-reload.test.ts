// A materialized view altered in a process (a migration sets its comment) derived other
// deduplication tokens for its inserts than the same view loaded from disk by a later process. So
// a batch the first process wrote, written again after a restart under the same token (a crash
// before its acknowledgement), was dropped by the raw table and taken again by the rollups. On a
// new data directory the first process is the one that runs every migration: it now reopens the
// embedded engine after migrating. Real chDB, the project's migrations and row sink, two openings
// of the same data directory in turn.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores } from '../src/compose/stores.js';
import { createClickEnricher } from '../src/ingest/enrich.js';
import { createEventTableRoutes } from '../src/ingest/event-registry.js';
import { openGeoLookup } from '../src/ingest/geo.js';
import { createVisitorHasher } from '../src/ingest/visitors.js';
import { createRowSink } from '../src/olap/row-sink.js';
import { uuidv7 } from '../src/shared/ids.js';
import { loadConfig } from '../src/shared/config.js';
import { createLogger } from '../src/shared/logger.js';
import { backend } from './support/backend.js';
import { clickFigures } from './support/click-figures.js';
import { isolate, type Isolation } from './support/service.js';

const log = createLogger({ level: 'silent', pretty: false });
const ORG = 4_242;

let isolation: Isolation;

beforeAll(async () => {
  isolation = await isolate({ fresh: true });
});

afterAll(async () => {
  await isolation?.dispose();
});

describe(`a batch written again after a restart (${backend})`, () => {
  it('counts once in the raw table and in every rollup, also when the first process ran the migrations', async () => {
    const routes = createEventTableRoutes({
      enrich: createClickEnricher(await openGeoLookup()),
      visitor: createVisitorHasher(randomBytes(32)),
    });
    const rows = Array.from({ length: 60 }, (_, i) =>
      routes.click!.toRow({
        eventId: uuidv7(),
        type: 'click',
        occurredAt: Date.now() - i * 1_000,
        organizationId: ORG,
        data: {
          linkType: 'url',
          linkId: 1 + (i % 3),
          host: 'sp.test',
          userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0',
          ip: `203.0.113.${i}`,
        },
      }),
    );
    const config = loadConfig({ ...isolation.env, LOG_LEVEL: 'silent' });
    const figures = (stores: Awaited<ReturnType<typeof openStores>>) => clickFigures(stores.clickhouse.client, ORG);
    const everywhere = { raw: 60, totals: 60, series15m: 60, series1h: 60 };

    // The first opening of the data directory migrates it, then writes the batch; after a restart
    // the same batch comes again under its token.
    for (const opening of ['first', 'after a restart']) {
      const stores = await openStores(config, log);
      try {
        await createRowSink(stores.clickhouse).insert('clicks', rows, 'clicks:view-reload');
        expect(await figures(stores), opening).toEqual(everywhere);
      } finally {
        await stores.clickhouse.close();
        await stores.postgres.close();
      }
    }
  });
});
