// The composition root: opens the stores, migrates them, starts the bus and its consumers, wires
// repositories and services into the HTTP app, and takes it all down again in order. main.ts and
// the tests build the service through this one function.
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './api/app.js';
import type { AppDeps } from './api/deps.js';
import type { Bus, Consumer } from './ingest/bus.js';
import { createClickEnricher } from './ingest/enrich.js';
import { createDeepLinkServices } from './deeplink/services.js';
import { DEEP_LINK_EVENT_TYPES } from './ingest/deep-link-events.js';
import { eventSubject } from './ingest/envelope.js';
import { createEventTableRoutes } from './ingest/event-routes.js';
import { JOURNEY_EVENT_TYPES } from './ingest/journey-events.js';
import { openGeoLookup } from './ingest/geo.js';
import { createMemoryBus } from './ingest/memory-bus.js';
import { createNatsBus } from './ingest/nats-bus.js';
import { createSpool } from './ingest/spool.js';
import { createOlapWriter } from './ingest/olap-writer.js';
import { createEventPublisher, type EventPublisher } from './ingest/publisher.js';
import { createClickhouse, type Clickhouse } from './olap/clickhouse.js';
import { createClickCounts } from './olap/click-counts.js';
import { migrateClickhouse } from './olap/migrate.js';
import { createRowSink } from './olap/row-sink.js';
import { createLinkResolver } from './api/redirect/link-resolver.js';
import { createSdkAuthenticator } from './api/sdk/app-auth.js';
import { withMobileKeyFailures } from './api/sdk/mobile-key-failures.js';
import { createAuthFailureLimiters } from './api/auth-failures.js';
import { createWellKnownFiles } from './api/well-known/association-files.js';
import { createCnameChecker } from './domains/cname-check.js';
import { createDomainVerifier } from './domains/domain-verifier.js';
import { createAppAssociationsRepo } from './oltp/app-associations.repo.js';
import { createDomainVerificationRepo } from './oltp/domain-verification.repo.js';
import { createSdkRateLimiter } from './api/sdk/rate-limit.js';
import { createApiKeysRepo } from './oltp/api-keys.repo.js';
import { createLinkLookupRepo } from './oltp/link-lookup.repo.js';
import { createCampaignsRepo } from './oltp/campaigns.repo.js';
import { createMobileAppsRepo } from './oltp/mobile-apps.repo.js';
import { createShortUrlsRepo } from './oltp/short-urls.repo.js';
import { createCustomDomainsRepo } from './oltp/custom-domains.repo.js';
import { migratePostgres, withMigrationLock } from './oltp/migrate.js';
import { createOrganizationsRepo } from './oltp/organizations.repo.js';
import { createPostgres, type Postgres } from './oltp/postgres.js';
import { createSsoPartnersRepo } from './oltp/sso-partners.repo.js';
import { createUsageMeter, type UsageMeter } from './oltp/usage-meter.js';
import { createUsageRepo } from './oltp/usage.repo.js';
import { createWebhookEndpointsRepo } from './oltp/webhook-endpoints.repo.js';
import { createWebhookDeliveriesRepo } from './oltp/webhook-deliveries.repo.js';
import { createNoticesRepo } from './oltp/notices.repo.js';
import { createLinkNamesRepo } from './oltp/link-names.repo.js';
import { createWebhookConsumer } from './ingest/webhook-consumer.js';
import { createWebhookSubscriptions } from './ingest/webhook-subscriptions.js';
import { createWebhookWorker } from './ingest/webhook-worker.js';
import { systemResolve } from './shared/webhook-url.js';
import { composeJourney } from './compose/journey.js';
import { composeStats } from './compose/stats.js';
import type { Config } from './shared/config.js';
import type { Logger } from './shared/logger.js';
import { uuidv7 } from './shared/ids.js';
import { createMetrics, type Metrics } from './shared/metrics.js';
import { loadSecretBox, type SecretBox } from './shared/secret-box.js';

export interface Container {
  config: Config;
  log: Logger;
  app: FastifyInstance;
  deps: AppDeps;
  postgres: Postgres;
  clickhouse: Clickhouse;
  bus: Bus;
  /** Binds the HTTP port; the service reports ready once it listens. */
  listen(): Promise<string>;
  /** Stops accepting, finishes requests in flight, drains events into ClickHouse, closes stores. */
  close(): Promise<void>;
}

/** Opens both stores and applies every pending migration under the cluster-wide lock. */
export async function openStores(config: Config, log: Logger): Promise<{ postgres: Postgres; clickhouse: Clickhouse }> {
  const postgres = await createPostgres({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log });
  try {
    const clickhouse = await createClickhouse({
      url: config.clickhouseUrl,
      database: config.clickhouseDatabase,
      dataDir: config.dataDir,
      log,
    });
    await withMigrationLock(postgres.sql, async (tx) => {
      await migratePostgres(tx, log);
      await migrateClickhouse(clickhouse.client, log);
    });
    return { postgres, clickhouse };
  } catch (err) {
    await postgres.close().catch(() => {});
    throw err;
  }
}

export async function createContainer(config: Config, log: Logger): Promise<Container> {
  const { box: secretBox, generated } = loadSecretBox({ keySpec: config.piiEncryptionKey, dataDir: config.dataDir });
  if (generated) log.warn({ dataDir: config.dataDir }, 'generated an encryption key in DATA_DIR; set PII_ENCRYPTION_KEY when several instances run');
  const { postgres, clickhouse } = await openStores(config, log);
  const metrics: Metrics = createMetrics();
  let bus: Bus | undefined;
  try {
    bus = config.natsUrl
      ? await createNatsBus({ url: config.natsUrl, namespace: config.natsNamespace, log })
      : createMemoryBus({
        log,
        metrics,
        // The log, the consumers' checkpoints and the dead letters; what an earlier version spooled at a stop.
        dir: path.join(config.dataDir, 'bus'),
        legacySpoolDir: path.join(config.dataDir, 'spool', 'bus'),
        fsyncIntervalMs: config.busFsyncIntervalMs,
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

  const geo = await openGeoLookup(config.geoipDatabase);
  const eventRoutes = createEventTableRoutes({ enrich: createClickEnricher(geo) });
  // Clicks have a durable consumer of their own: their backlog and lag are the ones that matter,
  // and a problem with any other event type never holds them up.
  const olapWriter = createOlapWriter({ bus, sink: createRowSink(clickhouse.client), routes: eventRoutes, log, metrics });
  // Steady traffic is written in inserts of eventWriteIntervalMs (a fixed cost per insert): a
  // batch holds every message the publisher sends in that span (one per eventBatchDelayMs at most).
  const olapMaxBatch = Math.max(64, 2 * Math.ceil(config.eventWriteIntervalMs / config.eventBatchDelayMs));
  const olapConsumer = (durable: string, subject: string) =>
    bus.consume({ durable, subject, maxBatch: olapMaxBatch, batchIntervalMs: config.eventWriteIntervalMs, handler: olapWriter });
  const olapTypes = [...DEEP_LINK_EVENT_TYPES, ...JOURNEY_EVENT_TYPES];
  // An api-only process (SIGNPOST_ROLES=api, NATS only) publishes; worker processes consume.
  const { worker } = config.roles;
  const consumers: Consumer[] = worker
    ? [
        await olapConsumer('olap-clicks', 'events.click'),
        await olapConsumer('olap-events', 'events.api_request'),
        ...(await Promise.all(olapTypes.map((type) => olapConsumer(`olap-${type.replaceAll('_', '-')}`, eventSubject(type))))),
      ]
    : [];
  // Webhooks: every event type passes one consumer that enqueues deliveries in PostgreSQL; the
  // worker sends them (started once the app is up, stopped before PostgreSQL closes).
  const webhookEndpoints = createWebhookEndpointsRepo({ sql: postgres.sql });
  const webhookDeliveries = createWebhookDeliveriesRepo({ sql: postgres.sql });
  const webhookWorker = createWebhookWorker({
    deliveries: webhookDeliveries, endpoints: webhookEndpoints, secretBox, log, metrics, resolve: systemResolve,
    allowInsecure: config.webhookAllowInsecure, timeoutMs: config.webhookTimeoutMs, pollMs: config.webhookPollMs,
    maxInFlight: config.webhookConcurrency, perEndpoint: config.webhookEndpointConcurrency,
    retryBaseMs: config.webhookRetryBaseMs, retryMaxDelayMs: config.webhookRetryMaxDelayMs,
    disableAfterFailures: config.webhookDisableAfterFailures, disableAfterMs: config.webhookRetryWindowMs,
  });
  const webhookSubscriptions = createWebhookSubscriptions({ load: () => webhookEndpoints.subscriptions(), ttlMs: 5_000 });
  const WEBHOOKS_CHANGED = 'webhooks.changed';
  const stopWebhookListening = bus.onBroadcast(WEBHOOKS_CHANGED, () => webhookSubscriptions.invalidate());
  const webhookEndpointChanged = () => {
    webhookSubscriptions.invalidate();
    bus.broadcast(WEBHOOKS_CHANGED, new Uint8Array());
  };
  if (worker) consumers.push(await bus.consume({
    durable: 'webhooks', subject: 'events.>', maxBatch: 64,
    handler: createWebhookConsumer({
      subscriptions: webhookSubscriptions, deliveries: webhookDeliveries, linkNames: createLinkNamesRepo({ sql: postgres.sql }),
      enrich: createClickEnricher(geo), retryWindowMs: config.webhookRetryWindowMs, log, metrics, onEnqueued: webhookWorker.nudge,
    }),
  }));

  const events: EventPublisher = createEventPublisher({
    bus,
    log,
    metrics,
    spool: createSpool(path.join(config.dataDir, 'spool', 'publisher')),
    maxBatch: config.eventBatchMax,
    maxDelayMs: config.eventBatchDelayMs,
  });
  metrics.define('event_backlog', 'gauge', 'Events recorded and not yet held by the bus', () => [{ labels: {}, value: events.backlog() }]);
  // How late the event loop runs what is due. A redirect waits this long, and so does an event on
  // its way to the bus: what a crash can lose is the batch delay plus this.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  metrics.define('event_loop_delay_seconds', 'gauge', 'Event-loop delay since the previous scrape: p99 and max', () => {
    const points = [
      { labels: { quantile: '0.99' }, value: loopDelay.percentile(99) / 1e9 },
      { labels: { quantile: '1' }, value: loopDelay.max / 1e9 },
    ];
    loopDelay.reset();
    return points;
  });
  metrics.define('bus_pending', 'gauge', 'Messages a consumer has not acknowledged yet', async () => {
    const { pending } = await bus.stats();
    return Object.entries(pending).map(([consumer, value]) => ({ labels: { consumer }, value }));
  });

  const { sql } = postgres;
  const usage = createUsageRepo({ sql });
  const usageMeter: UsageMeter = createUsageMeter({ repo: usage, log });
  let ready = false;

  const links = await createLinkResolver({
    lookup: createLinkLookupRepo({ sql }),
    log,
    maxEntries: config.linkCacheMaxEntries,
    ttlMs: config.linkCacheTtlMs,
    maxConcurrentLoads: postgres.poolSize,
  });
  const wellKnownFiles = createWellKnownFiles({ repo: createAppAssociationsRepo({ sql }), ttlMs: 60_000 });
  const LINKS_CHANGED = 'links.changed';
  // This instance invalidates its own cache at once; the broadcast is for the others, so its own
  // echo (NATS delivers to the sender too) is ignored rather than dropping entries twice.
  const instanceId = uuidv7();
  const stopListening = bus.onBroadcast(LINKS_CHANGED, (data) => {
    const change = JSON.parse(new TextDecoder().decode(data)) as { organizationId: number | null; from: string };
    if (change.from !== instanceId) links.invalidate(change.organizationId);
  });
  const linkChanged = (organizationId: number | null) => {
    links.invalidate(organizationId);
    wellKnownFiles.invalidate();
    bus.broadcast(LINKS_CHANGED, new TextEncoder().encode(JSON.stringify({ organizationId, from: instanceId })));
  };
  // The association files follow apps and domains: other instances' changes arrive here too.
  const stopWellKnownListening = bus.onBroadcast(LINKS_CHANGED, () => wellKnownFiles.invalidate());
  metrics.define('link_cache_entries', 'gauge', 'Links held by the in-process cache', () => [{ labels: {}, value: links.cache.stats().size }]);
  metrics.define('link_cache_lookups_total', 'counter', 'Link cache look-ups by result', () => {
    const s = links.cache.stats();
    return [
      { labels: { result: 'hit' }, value: s.hits },
      { labels: { result: 'miss' }, value: s.misses },
      { labels: { result: 'stale' }, value: s.staleServed },
    ];
  });

  // Domain status decides which hosts serve links on every instance: a change reloads them all.
  const domainVerifier = createDomainVerifier({
    repo: createDomainVerificationRepo({ sql }),
    checker: createCnameChecker({ servers: config.dnsResolvers }),
    intervalMs: config.domainVerifyIntervalMs,
    maxMisses: config.domainVerifyMaxMisses,
    log,
    onStatusChange: () => linkChanged(null),
  });

  const repos: AppDeps['repos'] = {
    organizations: createOrganizationsRepo({ sql }),
    apiKeys: createApiKeysRepo({ sql }),
    customDomains: createCustomDomainsRepo({ sql }),
    webhookEndpoints,
    webhookDeliveries,
    notices: createNoticesRepo({ sql }),
    ssoPartners: createSsoPartnersRepo({ sql }),
    usage,
    mobileApps: createMobileAppsRepo({ sql, secretBox }),
    shortUrls: createShortUrlsRepo({ sql }),
    campaigns: createCampaignsRepo({ sql }),
  };
  const deepLinks = createDeepLinkServices({ sql, events, log });
  const authFailures = createAuthFailureLimiters(config.authFailures);
  const clickCounts = createClickCounts({ client: clickhouse.client, log });
  const clock = () => new Date();
  const deps: AppDeps = {
    links,
    linkChanged,
    clickCounts,
    config,
    log,
    metrics,
    secretBox,
    events,
    usageMeter,
    lifecycle: { isReady: () => ready },
    clock,
    sdk: {
      authenticate: withMobileKeyFailures(createSdkAuthenticator({ repos }), authFailures.mobileKey),
      rateLimit: createSdkRateLimiter({
        keyedPerSecond: config.sdkRateLimitPerSecond,
        keylessPerSecond: config.sdkKeylessRateLimitPerSecond,
        keylessBurst: config.sdkKeylessRateLimitBurst,
      }),
    },
    authFailures,
    domainVerifier,
    wellKnownFiles,
    deepLinks,
    journey: composeJourney({ sql, clickhouse: clickhouse.client, secretBox, mobileApps: repos.mobileApps, events, clock }),
    stats: composeStats({
      clickhouse: clickhouse.client, clickCounts, shortUrls: repos.shortUrls, campaigns: repos.campaigns, mobileApps: repos.mobileApps, clock,
    }),
    repos,
    webhooks: { resolve: systemResolve, nudge: webhookWorker.nudge, endpointChanged: webhookEndpointChanged },
    deadLetters: { recent: async (limit) => bus.recentDeadLetters?.(limit) },
  };
  const app = await buildApp(deps);
  await app.ready();
  if (worker) {
    domainVerifier.start();
    webhookWorker.start();
  }
  ready = true;

  let closing: Promise<void> | undefined;
  async function closeInOrder(): Promise<void> {
    ready = false;
    const deadline = Date.now() + config.shutdownTimeoutMs;
    const left = () => Math.max(1_000, deadline - Date.now());
    // Webhook sending stops at once (what is due waits in PostgreSQL); PostgreSQL closes after it.
    const webhooksStopped = webhookWorker.stop(Math.min(5_000, left()));
    await app.close();
    await domainVerifier.stop();
    stopWellKnownListening();
    stopWebhookListening();
    await deepLinks.close();
    stopListening();
    links.close();
    const sent = await events.close(left());
    const drained = await bus.drain(left());
    if (!sent || !drained) log.error({ sent, drained }, 'shutdown deadline passed before every event was written');
    await usageMeter.close().catch((err) => log.error({ err }, 'usage flush failed at shutdown'));
    for (const consumer of consumers) await consumer.stop();
    await webhooksStopped;
    await bus.close();
    loopDelay.disable();
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
      const address = await app.listen({ port: config.port, host: config.host });
      ready = true;
      log.info({ address, publicBaseUrl: config.publicBaseUrl }, 'listening');
      return address;
    },
    close: () => (closing ??= closeInOrder()),
  };
}
