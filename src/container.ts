// The composition root: opens the stores, migrates them, starts the bus and its consumers, wires
// the features (src/compose, one file each) into the HTTP app, and takes it all down again in
// order. main.ts and the tests build the service through this one function.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './api/app.js';
import type { AppDeps } from './api/deps.js';
import { composeAccess } from './compose/access.js';
import { composeAccounts, composeAuditTrail } from './compose/accounts.js';
import { composeApps, composeAssociationFiles } from './compose/apps.js';
import { composeCallers } from './compose/callers.js';
import { composeDeepLinks } from './compose/deeplinks.js';
import { composeDomains } from './compose/domains.js';
import { composeOlapConsumers, composePublisher } from './compose/events.js';
import { composeImports } from './compose/imports.js';
import { composeJourney } from './compose/journey.js';
import { composeLinkChanges } from './compose/link-changes.js';
import { composeGoalTypes, composeLinks } from './compose/links.js';
import { composeMetrics, composeMetricsPort, defineRuntimeMetrics } from './compose/runtime-metrics.js';
import { composeOrganizations } from './compose/organizations.js';
import { composeClickLimits, composeRedirect, composeRoutingTester } from './compose/redirect.js';
import { composeSharedRepos } from './compose/repos.js';
import { composeStats, composeTagStats } from './compose/stats.js';
import { composeReports } from './compose/reports.js';
import { startTagSync } from './core/stats/tag-stats.js';
import { openStores } from './compose/stores.js';
import { composeWebhooks } from './compose/webhooks.js';
import type { Wiring } from './compose/wiring.js';
import { createReadOnlySql } from './core/data-access/read-only-sql.js';
import type { Bus, Consumer } from './ingest/bus.js';
import { createClickEnricher } from './ingest/enrich.js';
import { openGeoLookup } from './ingest/geo.js';
import { createMemoryBus } from './ingest/memory-bus.js';
import { createNatsBus } from './ingest/nats-bus.js';
import type { EventPublisher } from './ingest/publisher.js';
import { createVisitorHasher } from './ingest/visitors.js';
import { createClickCounts } from './olap/click-counts.queries.js';
import type { Clickhouse } from './olap/clickhouse.js';
import { createReadOnlyRunner } from './olap/read-only-sql.queries.js';
import { createRowSink } from './olap/row-sink.js';
import { createBlindIndex } from './oltp/blind-index.js';
import { createClickTokens } from './core/clicks/click-token.js';
import type { DeepLinkTokensRepo } from './oltp/deep-link-tokens.repo.js';
import type { Postgres } from './oltp/postgres.js';
import type { UsageMeter } from './oltp/usage-meter.js';
import type { Config } from './shared/config.js';
import type { Logger } from './shared/logger.js';
import type { Metrics } from './shared/metrics.js';
import { loadSecretBox, type SecretBox } from './shared/secret-box.js';

export interface Container {
  config: Config;
  log: Logger;
  app: FastifyInstance;
  deps: AppDeps;
  postgres: Postgres;
  clickhouse: Clickhouse;
  bus: Bus;
  /** What tests reach behind the HTTP app: the publisher (flush, backlog), the sealing key, the
   * usage meter, the links-changed broadcast, the deep-link token store and its purge, and a round
   * of the API key expiry warnings. */
  events: EventPublisher;
  secretBox: SecretBox;
  usageMeter: UsageMeter;
  linkChanged(organizationId: number | null): void;
  deepLinks: { tokens: DeepLinkTokensRepo; purge(): Promise<number> };
  /** One round of the API key expiry warnings as of `now`. */
  notifyExpiringApiKeys(now?: Date): Promise<number>;
  /** One round of reports by mail as of `now`; answers how many were mailed. */
  sendReports(now?: Date): Promise<number>;
  /** Binds the HTTP port (and METRICS_PORT when set); the service reports ready once it listens. */
  listen(): Promise<string>;
  /** The address of METRICS_PORT's server once listening; undefined without one. */
  metricsAddress(): string | undefined;
  /** Stops accepting, finishes requests in flight, drains events into ClickHouse, closes stores. */
  close(): Promise<void>;
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
  const metrics = composeMetrics(log);
  let bus: Bus | undefined;
  try {
    bus = config.bus.natsUrl
      ? await createNatsBus({
          url: config.bus.natsUrl,
          namespace: config.bus.natsNamespace,
          replicas: config.bus.natsStreamReplicas,
          log,
        })
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
  const { sql } = postgres;
  const clock = () => new Date();

  const geo = await openGeoLookup(config.stores.geoipDatabase);
  const enrich = createClickEnricher(geo);
  // An api-only process (SIGNPOST_ROLES=api, NATS only) publishes; worker processes consume.
  const { worker } = config.server.roles;
  // Visitor hashes and click ids use keys of the deployment's own, kept sealed in PostgreSQL:
  // every instance hashes a visitor, and signs and verifies a click id, alike. Read once at start:
  // the redirect makes click ids without waiting on any store.
  const blindIndex = createBlindIndex({ sql, secretBox });
  const visitor = worker ? createVisitorHasher(await blindIndex.derivedKey('visitors')) : undefined;
  const clickTokens = createClickTokens(await blindIndex.derivedKey('click-tokens'));
  const consumers: Consumer[] = visitor
    ? await composeOlapConsumers({ config, log, metrics, bus, sink: createRowSink(clickhouse), enrich, visitor })
    : [];
  const audit = composeAuditTrail({ sql, secretBox, clock });
  const webhooks = await composeWebhooks({ config, log, metrics, bus, sql, secretBox, enrich, consume: worker, audit });
  if (webhooks.consumer) consumers.push(webhooks.consumer);
  const events = composePublisher({ config, log, metrics, bus });
  const runtimeMetrics = defineRuntimeMetrics({ metrics, bus });

  const redirect = await composeRedirect({ sql, config, log, metrics, poolSize: postgres.poolSize, geo });
  const clickLimits = composeClickLimits({ sql, log });
  const associationFiles = composeAssociationFiles({ sql });
  const linkChanges = composeLinkChanges({
    bus,
    caches: [(organizationId) => redirect.invalidate(organizationId), () => associationFiles.invalidate()],
  });
  const { linkChanged } = linkChanges;
  const repos = composeSharedRepos({ sql, secretBox, log });
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
    geoFields: geo.fields,
    linkChanged,
  };
  const domains = composeDomains(wiring);
  const access = composeAccess(wiring);
  const accounts = composeAccounts({ ...wiring, audit });
  const callers = composeCallers({ config, access });
  const deepLinks = composeDeepLinks({
    ...wiring,
    clickTokens,
    keylessLimit: (app, clientAddress) => callers.sdk.rateLimit.keyless(app, clientAddress),
  });
  const links = composeLinks(wiring);
  const imports = composeImports({ ...wiring, shortUrls: links.shortUrls });
  const tagStats = composeTagStats(wiring);
  const stats = composeStats({ ...wiring, tagStats: tagStats.service });
  const reports = composeReports({
    ...wiring,
    mailer: accounts.mailer,
    users: accounts.users,
    dashboards: stats.dashboards,
  });
  let ready = false;
  const deps: AppDeps = {
    config,
    log,
    metrics,
    clock,
    events,
    lifecycle: { isReady: () => ready },
    ...callers,
    access,
    redirect,
    clickLimits,
    clickTokens,
    links,
    imports: imports.service,
    goalTypes: composeGoalTypes({ ...wiring, audit }),
    routingTester: composeRoutingTester({ geo, clock }),
    apps: composeApps({ ...wiring, associationFiles }),
    domains,
    deepLinks: deepLinks.services,
    organizations: composeOrganizations({ ...wiring, audit, ssoPartners: accounts.ssoPartners }),
    accounts: accounts.services,
    journey: composeJourney(wiring),
    stats,
    reports: reports.subscriptions,
    webhooks: webhooks.service,
    webhookSettings: webhooks.settings,
    deadLetters: { recent: async (limit) => bus.recentDeadLetters?.(limit) },
    readOnlySql: createReadOnlySql({ runner: createReadOnlyRunner(clickhouse.client) }),
  };
  const app = await buildApp(deps);
  await app.ready();
  if (worker) {
    domains.startVerification();
    webhooks.worker.start();
    imports.runner.start();
  }
  // Link tag changes to ClickHouse every few seconds (a read by tag also copies its organization's first).
  const tagSync = worker ? startTagSync(tagStats.sync, log) : undefined;
  ready = true;
  const metricsPort = composeMetricsPort({ config, metrics, log });

  let closing: Promise<void> | undefined;
  async function closeInOrder(): Promise<void> {
    ready = false;
    const deadline = Date.now() + config.server.shutdownTimeoutMs;
    const left = () => Math.max(1_000, deadline - Date.now());
    // Webhook sending stops at once (what is due waits in PostgreSQL); PostgreSQL closes after it.
    const webhooksStopped = webhooks.worker.stop(Math.min(5_000, left()));
    // An import finishes the page under way and gives its job back; another start resumes it.
    const importsStopped = imports.runner.stop();
    await app.close();
    await importsStopped;
    await tagSync?.stop();
    await domains.stopVerification();
    webhooks.stopListening();
    await deepLinks.close();
    linkChanges.stop();
    redirect.close();
    await clickLimits.stop().catch((err) => log.error({ err }, 'click-limit counts not saved at shutdown'));
    const sent = await events.close(left());
    const drained = await bus.drain(left());
    if (!sent || !drained) log.error({ sent, drained }, 'shutdown deadline passed before every event was written');
    await repos.usageMeter.close().catch((err) => log.error({ err }, 'usage flush failed at shutdown'));
    await reports.stop().catch((err) => log.error({ err }, 'stopping report mail failed'));
    await accounts.close().catch((err) => log.error({ err }, 'closing accounts failed'));
    for (const consumer of consumers) await consumer.stop();
    await webhooksStopped;
    await bus.close();
    runtimeMetrics.stop();
    // Scrapes go on during the drain; the metrics server closes with the stores.
    await metricsPort.close();
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
    events,
    secretBox,
    usageMeter: repos.usageMeter,
    linkChanged,
    deepLinks: { tokens: deepLinks.tokens, purge: deepLinks.purge },
    notifyExpiringApiKeys: accounts.notifyExpiringApiKeys,
    sendReports: reports.send,
    async listen() {
      await metricsPort.listen();
      const address = await app.listen({ port: config.server.port, host: config.server.host });
      ready = true;
      log.info({ address, publicBaseUrl: config.server.publicBaseUrl }, 'listening');
      return address;
    },
    metricsAddress: metricsPort.address,
    close: () => (closing ??= closeInOrder()),
  };
}
