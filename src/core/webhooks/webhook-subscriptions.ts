// Which organizations' enabled webhook endpoints want which event categories, held in memory for
// the webhooks consumer: every batch of every event type passes that consumer, and asking
// PostgreSQL each time (and decoding clicks nobody subscribed to) cost more than the redirects.
// An endpoint change invalidates it on this instance at once and on the others through a
// broadcast; the TTL is only a safety net for a lost broadcast.
import type { WebhookCategory } from '../../oltp/webhook-endpoints.repo.js';

export type Subscriptions = ReadonlyMap<number, ReadonlySet<WebhookCategory>>;

export interface WebhookSubscriptions {
  current(): Promise<Subscriptions>;
  invalidate(): void;
}

export function createWebhookSubscriptions(options: {
  load: () => Promise<Subscriptions>;
  ttlMs: number;
  now?: () => number;
}): WebhookSubscriptions {
  const now = options.now ?? Date.now;
  let cached: { value: Subscriptions; at: number } | undefined;
  let loading: Promise<Subscriptions> | undefined;
  // A load that started before an invalidation must not be kept as current.
  let generation = 0;

  return {
    current() {
      if (cached && now() - cached.at < options.ttlMs) return Promise.resolve(cached.value);
      if (!loading) {
        const started = generation;
        const at = now();
        loading = options.load().then(
          (value) => {
            loading = undefined;
            if (started === generation) cached = { value, at };
            return value;
          },
          (err: unknown) => {
            loading = undefined;
            throw err;
          },
        );
      }
      return loading;
    },
    invalidate() {
      generation++;
      cached = undefined;
      loading = undefined;
    },
  };
}
