// Wiring of webhooks: the bus consumer that turns events into deliveries (worker processes), the
// worker that sends them, the in-memory subscriptions every instance rereads on an endpoint
// change (broadcast on the bus), the webhooks service and the console's settings over it.
import type { Bus, Consumer } from '../ingest/bus.js';
import type { ClickEnricher } from '../ingest/enrich.js';
import { createWebhookConsumer } from '../core/webhooks/webhook-consumer.js';
import { createWebhookSubscriptions } from '../core/webhooks/webhook-subscriptions.js';
import { createWebhookWorker, type WebhookWorker } from '../core/webhooks/webhook-worker.js';
import type { AuditTrail } from '../core/accounts/audit-trail.js';
import { createWebhooksService, type WebhooksService } from '../core/webhooks/index.js';
import { createWebhookSettings, type WebhookSettings } from '../core/webhooks/webhook-settings.js';
import { createLinkNamesRepo } from '../oltp/link-names.repo.js';
import { createOrganizationsRepo } from '../oltp/organizations.repo.js';
import type { Sql } from '../oltp/postgres.js';
import { createWebhookDeliveriesRepo } from '../oltp/webhook-deliveries.repo.js';
import { createWebhookEndpointsRepo } from '../oltp/webhook-endpoints.repo.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import type { SecretBox } from '../shared/secret-box.js';
import { systemResolve } from '../shared/webhook-url.js';

const WEBHOOKS_CHANGED = 'webhooks.changed';

export interface ComposedWebhooks {
  service: WebhooksService;
  /** The same, as a console member with webhooks.manage uses it. */
  settings: WebhookSettings;
  /** Sends what is due; started once the app is up, stopped before PostgreSQL closes. */
  worker: WebhookWorker;
  /** The `webhooks` bus consumer; undefined in a process that does not consume. */
  consumer: Consumer | undefined;
  /** Stops listening for other instances' endpoint changes. */
  stopListening(): void;
}

export async function composeWebhooks(ctx: {
  config: Pick<Config, 'webhooks'>;
  log: Logger;
  metrics: Metrics;
  bus: Bus;
  sql: Sql;
  secretBox: SecretBox;
  enrich: ClickEnricher;
  /** Whether this process runs the bus consumers. */
  consume: boolean;
  audit: AuditTrail;
}): Promise<ComposedWebhooks> {
  const { config, log, metrics, bus, sql, secretBox } = ctx;
  const endpoints = createWebhookEndpointsRepo({ sql });
  const deliveries = createWebhookDeliveriesRepo({ sql });
  const worker = createWebhookWorker({
    deliveries,
    endpoints,
    secretBox,
    log,
    metrics,
    resolve: systemResolve,
    allowInsecure: config.webhooks.allowInsecure,
    timeoutMs: config.webhooks.timeoutMs,
    pollMs: config.webhooks.pollMs,
    maxInFlight: config.webhooks.concurrency,
    perEndpoint: config.webhooks.endpointConcurrency,
    retryBaseMs: config.webhooks.retryBaseMs,
    retryMaxDelayMs: config.webhooks.retryMaxDelayMs,
    disableAfterFailures: config.webhooks.disableAfterFailures,
    disableAfterMs: config.webhooks.retryWindowMs,
  });
  const subscriptions = createWebhookSubscriptions({ load: () => endpoints.subscriptions(), ttlMs: 5_000 });
  const stopListening = bus.onBroadcast(WEBHOOKS_CHANGED, () => subscriptions.invalidate());
  const endpointChanged = () => {
    subscriptions.invalidate();
    bus.broadcast(WEBHOOKS_CHANGED, new Uint8Array());
  };
  // Every event type passes one consumer that enqueues deliveries in PostgreSQL.
  const consumer = ctx.consume
    ? await bus.consume({
        durable: 'webhooks',
        subject: 'events.>',
        maxBatch: 64,
        handler: createWebhookConsumer({
          subscriptions,
          deliveries,
          linkNames: createLinkNamesRepo({ sql }),
          enrich: ctx.enrich,
          retryWindowMs: config.webhooks.retryWindowMs,
          log,
          metrics,
          onEnqueued: worker.nudge,
        }),
      })
    : undefined;
  const service = createWebhooksService({
    organizations: createOrganizationsRepo({ sql }),
    endpoints,
    deliveries,
    secretBox,
    resolve: systemResolve,
    allowInsecure: config.webhooks.allowInsecure,
    retryWindowMs: config.webhooks.retryWindowMs,
    nudge: worker.nudge,
    endpointChanged,
    audit: ctx.audit,
  });
  return { service, settings: createWebhookSettings({ webhooks: service }), worker, consumer, stopListening };
}
