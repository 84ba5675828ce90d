// The durable bus consumer `webhooks` (subject events.>): turns internal events into webhook
// events for the organizations whose enabled endpoint subscribes to their category, and enqueues
// one delivery per endpoint and event in PostgreSQL. It acks only after the insert; a redelivered
// bus message finds its rows there already (unique on organization and event id) and adds nothing.
import type { WebhookDeliveriesRepo } from '../../oltp/webhook-deliveries.repo.js';
import type { LinkNamesRepo } from '../../oltp/link-names.repo.js';
import type { Logger } from '../../shared/logger.js';
import type { Metrics } from '../../shared/metrics.js';
import { serializeWebhookEvent } from '../../shared/webhook-body.js';
import type { BatchHandler } from '../../ingest/bus.js';
import type { ClickEnricher } from '../../ingest/enrich.js';
import { decodeBatch, type EventEnvelope } from '../../ingest/envelope.js';
import { specOf, toWebhookEvents, WEBHOOK_SOURCE_TYPES } from '../../ingest/event-registry.js';
import { clickedLinks } from '../../ingest/webhook-events.js';
import type { WebhookSubscriptions } from './webhook-subscriptions.js';

export interface WebhookConsumerOptions {
  subscriptions: Pick<WebhookSubscriptions, 'current'>;
  deliveries: Pick<WebhookDeliveriesRepo, 'enqueue'>;
  linkNames: LinkNamesRepo;
  enrich: ClickEnricher;
  retryWindowMs: number;
  log: Logger;
  metrics: Metrics;
  /** Called after new deliveries were enqueued (wakes this instance's worker). */
  onEnqueued?: () => void;
}

const SOURCE_TYPES = new Set<string>(WEBHOOK_SOURCE_TYPES);

export function createWebhookConsumer(options: WebhookConsumerOptions): BatchHandler {
  const { deliveries, linkNames, enrich, metrics } = options;
  const log = options.log.child({ module: 'webhook-consumer' });
  metrics.define('webhook_events_enqueued_total', 'counter', 'Webhook deliveries enqueued');

  return async (messages) => {
    const sources = messages.filter(
      (m) => m.subject.startsWith('events.') && SOURCE_TYPES.has(m.subject.slice('events.'.length)),
    );
    if (sources.length === 0) return;
    const subscriptions = await options.subscriptions.current();
    // No enabled endpoint anywhere (the usual case): nothing to decode.
    if (subscriptions.size === 0) return;
    const envelopes: EventEnvelope[] = [];
    for (const message of sources) {
      try {
        envelopes.push(...decodeBatch(message.data).events);
      } catch (err) {
        // The ClickHouse consumer dead-letters an undecodable batch; there is nothing to send here.
        log.warn({ err, id: message.id }, 'undecodable event batch skipped');
      }
    }
    // Only events that can produce a category their organization subscribes to.
    const subscribed = envelopes.filter((e) => {
      const categories = subscriptions.get(e.organizationId);
      return categories !== undefined && specOf(e.type)?.webhooks?.categories.some((c) => categories.has(c)) === true;
    });
    if (subscribed.length === 0) return;
    const links = clickedLinks(subscribed, (org) => subscriptions.get(org)?.has('click') === true);
    const names = {
      url: await linkNames.shortCodes(links.url),
      campaign: await linkNames.campaignAliases(links.campaign),
    };
    const rows = [];
    for (const e of subscribed) {
      const categories = subscriptions.get(e.organizationId)!;
      for (const event of toWebhookEvents(e, { enrich, names })) {
        if (event.category !== 'test' && !categories.has(event.category)) continue;
        rows.push({
          organizationId: e.organizationId,
          eventId: event.id,
          eventType: event.type,
          payload: serializeWebhookEvent(event),
        });
      }
    }
    if (rows.length === 0) return;
    const added = (await deliveries.enqueue(rows, options.retryWindowMs)).length;
    if (added > 0) {
      metrics.inc('webhook_events_enqueued_total', {}, added);
      options.onEnqueued?.();
    }
  };
}
