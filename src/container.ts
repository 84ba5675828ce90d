// The composition root: opens the stores, migrates them, starts the bus and its consumers, wires
// repositories and services into the HTTP app, and takes it all down again in order. main.ts and
// the tests build the service through this one function.
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './api/app.js';
import type { AppDeps } from './api/deps.js';
import { composeDeepLinks } from './compose/deeplinks.js';
import type { Bus, Consumer } from './ingest/bus.js';
import { createClickEnricher } from './ingest/enrich.js';
import { openGeoLookup } from './ingest/geo.js';
import { createVisitorHasher } from './ingest/visitors.js';
import { createBlindIndex } from './oltp/blind-index.js';
import { createMemoryBus } from './ingest/memory-bus.js';
import { createNatsBus } from './ingest/nats-bus.js';
import type { EventPublisher } from './ingest/publisher.js';
import { composeOlapConsumers, composePublisher } from './compose/events.js';
import { composeWebhooks } from './compose/webhooks.js';
import { createClickhouse, type Clickhouse } from './olap/clickhouse.js';
import { createClickCounts } from './olap/click-counts.js';
import { migrateClickhouse } from './olap/migrate.js';
import { createRowSink } from './olap/row-sink.js';
import { createSdkAuthenticator } from './api/sdk/app-auth.js';
import { composeAccess } from './compose/access.js';
import { composeOrganizations } from './compose/organizations.js';
import { composeAccounts, composeAuditTrail } from './compose/accounts.js';
import { withMobileKeyFailures } from './api/sdk/mobile-key-failures.js';
import { createAuthFailureLimiters } from './api/auth-failures.js';
import { composeApps, composeAssociationFiles } from './compose/apps.js';
import { composeDomains } from './compose/domains.js';
import { createSdkRateLimiter } from './api/sdk/rate-limit.js';
import { createApiKeysRepo } from './oltp/api-keys.repo.js';
import { createCampaignsRepo } from './oltp/campaigns.repo.js';
import { createMobileAppsRepo } from './oltp/mobile-apps.repo.js';
import { createShortUrlsRepo } from './oltp/short-urls.repo.js';
import { createCustomDomainsRepo } from './oltp/custom-domains.repo.js';
import { migratePostgres, withMigrationLock } from './oltp/migrate.js';
import { createOrganizationsRepo } from './oltp/organizations.repo.js';
import { createPostgres, type Postgres } from './oltp/postgres.js';
import { createUsageMeter, type UsageMeter } from './oltp/usage-meter.js';
import { createUsageRepo } from './oltp/usage.repo.js';
import { composeGoalTypes, composeLinks } from './compose/links.js';
import { composeRedirect } from './compose/redirect.js';
import { composeJourney } from './compose/journey.js';
import { composeStats } from './compose/stats.js';
import { createReadOnlySql } from './core/data-access/read-only-sql.js';
import { createReadOnlyRunner } from './olap/read-only-sql.js';
import type { SharedRepos, Wiring } from './compose/wiring.js';
import type { Config } from './shared/config.js';
import type { Logger } from './shared/logger.js';
import { uuidv7 } from './shared/ids.js';
import { createMetrics, type Metrics } from './shared/metrics.js';
import { createMetricsServer } from './api/metrics-server.js';
import { loadSecretBox, type SecretBox } from './shared/secret-box.js';

export interface Container {
  config: Config;
  log: Logger;
  app: FastifyInstance;
  deps: AppDeps;
  postgres: Postgres;
  clickhouse: Clickhouse;
  bus: Bus;
  /** Binds the HTTP port (and METRICS_PORT when set); the service reports ready once it listens. */
  listen(): Promise<string>;
  /** The address of METRICS_PORT's server once listening; undefined without one. */
  metricsAddress(): string | undefined;
  /** Stops accepting, finishes requests in flight, drains events into ClickHouse, closes stores. */
  close(): Promise<void>;
}

/** Opens both stores and applies every pending migration under the cluster-wide lock. */
export async function openStores(config: Config, log: Logger): Promise<{ postgres: Postgres; clickhouse: Clickhouse }> {
  const postgres = await createPostgres({
    databaseUrl: config.stores.databaseUrl,
    dataDir: config.stores.dataDir,
    log,
  });
  try {
    const clickhouseOptions = {
      url: config.stores.clickhouseUrl,
      database: config.stores.clickhouseDatabase,
      dataDir: config.stores.dataDir,
      log,
    };
    let clickhouse = await createClickhouse(clickhouseOptions);
    const applied = await withMigrationLock(postgres.sql, async (tx) => {
      await migratePostgres(tx, log);
      return migrateClickhouse(clickhouse.client, log);
    });
    if (clickhouse.embedded && applied.length > 0) {
      // A materialized view altered in this process (its comment, by a migration) derives other
      // deduplication tokens for its inserts than the same view loaded from disk, so an insert
      // repeated after a restart went into the rollups twice. A fresh session loads every view
      // from disk, as every later start does. test/clickhouse-view-reload.test.ts shows it.
      await clickhouse.close();
      clickhouse = await createClickhouse(clickhouseOptions);
    }
    return { postgres, clickhouse };
  } catch (err) {
    await postgres.close().catch(() => {});
    throw err;
  }
}

export async function createContainer(config: Config, log: Logger): Promise<Container> {
  const { box: secretBox, generated } = loadSecretBox({
    keySpec: config.stores.piiEncryptionKey,
    dataDir: config.stores.dataDir,
  });
  if (generated)
    log.warn(
      { dataDir: config.stores.dataDir },
      'generated an encryption key in DATA_DIR; set PII_ENCRYPTION_KEY when several instances run',
    );
  const { postgres, clickhouse } = await openStores(config, log);
  // A metric whose store does not answer in time (JetStream's consumer info on a busy server) is
  // left out of that scrape; the rest of /metrics still answers.
  const metrics: Metrics = createMetrics(undefined, (metric, err) =>
    log.warn({ err, metric }, 'a metric could not be collected for /metrics'),
  );
  let bus: Bus | undefined;
  try {
    bus = config.bus.natsUrl
      ? await createNatsBus({ url: config.bus.natsUrl, namespace: config.bus.natsNamespace, log })
      : createMemoryBus({
          log,
          metrics,
          // The log, the consumers' checkpoints and the dead letters.
          dir: path.join(config.stores.dataDir, 'bus'),
          fsyncIntervalMs: config.bus.fsyncIntervalMs,
        });
    return await assemble(config, log, { secretBox, postgres, clickhouse, bus, metrics });
  } catch (err) {
    // A start that fails half-way leaves nothing open behind it.
    await bus?.close().catch(() => {});
    await clickhouse.close().catch(() => {});
    await postgres.close().catch(() => {});
    throw err;
  }
}

async function assemble(
  config: Config,
  log: Logger,
  stores: { secretBox: SecretBox; postgres: Postgres; clickhouse: Clickhouse; bus: Bus; metrics: Metrics },
): Promise<Container> {
  const { secretBox, postgres, clickhouse, bus, metrics } = stores;

  const geo = await openGeoLookup(config.stores.geoipDatabase);
  const enrich = createClickEnricher(geo);
  // An api-only process (SIGNPOST_ROLES=api, NATS only) publishes; worker processes consume.
  const { worker } = config.server.roles;
  // Visitor hashes use a key of the deployment's own, kept sealed in PostgreSQL: every worker
  // instance hashes a visitor alike.
  const visitor = worker
    ? createVisitorHasher(await createBlindIndex({ sql: postgres.sql, secretBox }).derivedKey('visitors'))
    : undefined;
  const consumers: Consumer[] = visitor
    ? await composeOlapConsumers({ config, log, metrics, bus, sink: createRowSink(clickhouse), enrich, visitor })
    : [];
  const clock = () => new Date();
  const audit = composeAuditTrail({ sql: postgres.sql, secretBox, clock });
  const webhooks = await composeWebhooks({
    config,
    log,
    metrics,
    bus,
    sql: postgres.sql,
    secretBox,
    enrich,
    consume: worker,
    audit,
  });
  if (webhooks.consumer) consumers.push(webhooks.consumer);
  const webhookWorker = webhooks.worker;
  const events: EventPublisher = composePublisher({ config, log, metrics, bus });
  // How late the event loop runs what is due. A redirect waits this long, and so does an event on
  // its way to the bus: what a crash can lose is the batch delay plus this.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  metrics.define('event_loop_delay_seconds', 'gauge', 'Event-loop delay since the previous scrape: p99 and max', {
    labels: { quantile: ['0.99', '1'] },
    collect: () => {
      const points = [
        { labels: { quantile: '0.99' }, value: loopDelay.percentile(99) / 1e9 },
        { labels: { quantile: '1' }, value: loopDelay.max / 1e9 },
      ];
      loopDelay.reset();
      return points;
    },
  });
  metrics.define('bus_pending', 'gauge', 'Messages a consumer has not acknowledged yet', {
    labels: { consumer: [] },
    collect: async () => {
      const { pending } = await bus.stats();
      return Object.entries(pending).map(([consumer, value]) => ({ labels: { consumer }, value }));
    },
  });

  const { sql } = postgres;
  const usage = createUsageRepo({ sql });
  const usageMeter: UsageMeter = createUsageMeter({ repo: usage, log });
  let ready = false;

  const redirect = await composeRedirect({ sql, config, log, metrics, poolSize: postgres.poolSize });
  const LINKS_CHANGED = 'links.changed';
  // The association files follow apps and domains: other instances' changes arrive here too.
  const associationFiles = composeAssociationFiles({ sql, bus, changedSubject: LINKS_CHANGED });
  // This instance invalidates its own cache at once; the broadcast is for the others, so its own
  // echo (NATS delivers to the sender too) is ignored rather than dropping entries twice.
  const instanceId = uuidv7();
  const stopListening = bus.onBroadcast(LINKS_CHANGED, (data) => {
    const change = JSON.parse(new TextDecoder().decode(data)) as { organizationId: number | null; from: string };
    if (change.from !== instanceId) redirect.invalidate(change.organizationId);
  });
  const linkChanged = (organizationId: number | null) => {
    redirect.invalidate(organizationId);
    associationFiles.files.invalidate();
    bus.broadcast(LINKS_CHANGED, new TextEncoder().encode(JSON.stringify({ organizationId, from: instanceId })));
  };

  const repos: SharedRepos = {
    organizations: createOrganizationsRepo({ sql }),
    apiKeys: createApiKeysRepo({ sql }),
    customDomains: createCustomDomainsRepo({ sql, secretBox }),
    mobileApps: createMobileAppsRepo({ sql, secretBox }),
    shortUrls: createShortUrlsRepo({ sql }),
    campaigns: createCampaignsRepo({ sql, secretBox }),
    usage,
    usageMeter,
  };
  const clickCounts = createClickCounts({ client: clickhouse.client, log });
  const wiring: Wiring = {
    config,
    log,
    sql,
    clickhouse: clickhouse.client,
    secretBox,
    events,
    repos,
    clickCounts,
    clock,
    linkChanged,
  };
  const domains = composeDomains(wiring);
  const apps = composeApps({ ...wiring, associationFiles: associationFiles.files });
  const access = composeAccess(wiring);
  const accounts = composeAccounts({ ...wiring, audit });
  const organizations = composeOrganizations({ ...wiring, audit, ssoPartners: accounts.ssoPartners });
  const sdkRateLimit = createSdkRateLimiter({
    keyedPerSecond: config.sdk.rateLimitPerSecond,
    keylessPerSecond: config.sdk.keylessRateLimitPerSecond,
    keylessBurst: config.sdk.keylessRateLimitBurst,
  });
  const deepLinks = composeDeepLinks({
    ...wiring,
    keylessLimit: (app, clientAddress) => sdkRateLimit.keyless(app, clientAddress),
  });
  const authFailures = createAuthFailureLimiters(config.authFailures);
  const deps: AppDeps = {
    links: composeLinks(wiring),
    goalTypes: composeGoalTypes({ ...wiring, audit }),
    redirect,
    linkChanged,
    clickCounts,
    config,
    log,
    metrics,
    secretBox,
    events,
    usageMeter,
    access,
    organizations,
    accounts: accounts.services,
    lifecycle: { isReady: () => ready },
    clock,
    sdk: {
      authenticate: withMobileKeyFailures(createSdkAuthenticator(access.apps), authFailures.mobileKey),
      rateLimit: sdkRateLimit,
    },
    authFailures,
    apps,
    domains,
    deepLinks,
    journey: composeJourney(wiring),
    stats: composeStats(wiring),
    repos,
    webhooks: webhooks.service,
    webhookSettings: webhooks.settings,
    deadLetters: { recent: async (limit) => bus.recentDeadLetters?.(limit) },
    readOnlySql: createReadOnlySql({ runner: createReadOnlyRunner(clickhouse.client) }),
  };
  const app = await buildApp(deps);
  await app.ready();
  if (worker) {
    domains.startVerification();
    webhookWorker.start();
  }
  ready = true;

  // Scrapes go on during the drain; the server closes with the stores.
  const metricsServer =
    config.metrics.port === undefined
      ? undefined
      : createMetricsServer({
          metrics,
          token: config.metrics.token,
          onError: (err) => log.error({ err }, 'metrics scrape failed'),
        });
  const metricsAddress = () => {
    const address = metricsServer?.address();
    if (!address) return undefined;
    return typeof address === 'string'
      ? address
      : `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  };

  let closing: Promise<void> | undefined;
  async function closeInOrder(): Promise<void> {
    ready = false;
    const deadline = Date.now() + config.server.shutdownTimeoutMs;
    const left = () => Math.max(1_000, deadline - Date.now());
    // Webhook sending stops at once (what is due waits in PostgreSQL); PostgreSQL closes after it.
    const webhooksStopped = webhookWorker.stop(Math.min(5_000, left()));
    await app.close();
    await domains.stopVerification();
    associationFiles.stop();
    webhooks.stopListening();
    await deepLinks.close();
    stopListening();
    redirect.close();
    const sent = await events.close(left());
    const drained = await bus.drain(left());
    if (!sent || !drained) log.error({ sent, drained }, 'shutdown deadline passed before every event was written');
    await usageMeter.close().catch((err) => log.error({ err }, 'usage flush failed at shutdown'));
    await accounts.close().catch((err) => log.error({ err }, 'closing accounts failed'));
    for (const consumer of consumers) await consumer.stop();
    await webhooksStopped;
    await bus.close();
    loopDelay.disable();
    if (metricsServer?.listening) {
      const closed = new Promise((resolve) => metricsServer.close(resolve));
      metricsServer.closeAllConnections();
      await closed;
    }
    await clickhouse.close();
    await postgres.close();
    log.info('stopped');
  }

  return {
    config,
    log,
    app,
    deps,
    postgres,
    clickhouse,
    bus,
    async listen() {
      if (metricsServer) {
        const server = metricsServer;
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(config.metrics.port, config.server.host, () => {
            server.off('error', reject);
            resolve();
          });
        });
        log.info({ address: metricsAddress() }, 'metrics listening');
      }
      const address = await app.listen({ port: config.server.port, host: config.server.host });
      ready = true;
      log.info({ address, publicBaseUrl: config.server.publicBaseUrl }, 'listening');
      return address;
    },
    metricsAddress,
    close: () => (closing ??= closeInOrder()),
  };
}
