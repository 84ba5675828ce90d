// The webhook delivery worker: polls PostgreSQL for due deliveries (several instances share them
// through FOR UPDATE SKIP LOCKED), sends each signed to its endpoint's checked and pinned address,
// and records the attempt: 2xx is done; anything else is retried with exponential back-off and
// jitter until the retry window closes, then failed. In-flight work is bounded twice: in all, and
// per endpoint, so one slow endpoint holds at most its own slots and never another organization's.
import type { WebhookDeliveriesRepo, ClaimedDelivery } from '../../oltp/webhook-deliveries.repo.js';
import type { WebhookEndpointsRepo } from '../../oltp/webhook-endpoints.repo.js';
import type { Logger } from '../../shared/logger.js';
import type { Metrics } from '../../shared/metrics.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { signatureHeader, standardSignatureHeader, WEBHOOK_USER_AGENT } from '../../shared/webhook-body.js';
import { checkUrlShape, resolveDeliveryAddress, type Resolve } from '../../shared/webhook-url.js';
import { backoffMs } from '../../ingest/bus.js';
import { sendWebhook } from './webhook-sender.js';

export interface WebhookWorkerOptions {
  deliveries: WebhookDeliveriesRepo;
  endpoints: Pick<WebhookEndpointsRepo, 'deliveryTarget'>;
  secretBox: SecretBox;
  log: Logger;
  metrics: Metrics;
  resolve: Resolve;
  allowInsecure: boolean;
  timeoutMs: number;
  pollMs: number;
  maxInFlight: number;
  perEndpoint: number;
  retryBaseMs: number;
  retryMaxDelayMs: number;
  /** Consecutive failed attempts, or this long failing (with at least two), disable an endpoint. */
  disableAfterFailures: number;
  disableAfterMs: number;
  maxResponseBytes?: number;
}

export interface WebhookWorker {
  start(): void;
  /** New deliveries were enqueued: look now rather than at the next poll. */
  nudge(): void;
  /** Stops claiming; lets in-flight deliveries finish within `graceMs`, gives the rest back. */
  stop(graceMs: number): Promise<void>;
}

export function createWebhookWorker(o: WebhookWorkerOptions): WebhookWorker {
  const log = o.log.child({ module: 'webhook-worker' });
  const { deliveries, metrics } = o;
  const maxResponseBytes = o.maxResponseBytes ?? 4096;
  // A claim outlives the longest attempt (DNS, connect, the timeout itself) by a margin.
  const leaseMs = o.timeoutMs + 30_000;
  const inFlight = new Set<Promise<void>>();
  const perOrg = new Map<number, number>();
  const halt = new AbortController();
  let stopping = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  /** A nudge that came while the loop was busy: the next idle returns at once. */
  let nudged = false;

  metrics.define('webhook_attempts_total', 'counter', 'Webhook delivery attempts by result', {
    labels: { result: ['success', 'retry', 'gave_up'] },
  });
  metrics.define('webhook_endpoints_disabled_total', 'counter', 'Webhook endpoints disabled after repeated failures');
  metrics.define('webhook_in_flight', 'gauge', 'Webhook deliveries being sent by this instance', {
    collect: () => [{ labels: {}, value: inFlight.size }],
  });

  const nudge = () => {
    nudged = true;
    const w = wake;
    wake = undefined;
    w?.();
  };

  function idle(ms: number): Promise<void> {
    if (nudged) {
      nudged = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = undefined;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        nudged = false;
        resolve();
      };
    });
  }

  async function attempt(d: ClaimedDelivery): Promise<void> {
    const target = await o.endpoints.deliveryTarget(d.organizationId);
    if (!target?.enabled) {
      // Switched off (or removed) since the claim: the delivery waits for it to come back.
      await deliveries.release(d.id, new Date(Date.now() + o.pollMs));
      return;
    }
    const startedAt = new Date();
    const started = performance.now();
    let result: {
      status: number | null;
      error: string | null;
      latencyMs: number;
      responseBody: string | null;
      aborted?: boolean;
    };
    const shape = checkUrlShape(target.url, { allowInsecure: o.allowInsecure });
    const resolved = shape.ok
      ? await resolveDeliveryAddress(shape.url, { allowInsecure: o.allowInsecure, resolve: o.resolve })
      : shape;
    if (!shape.ok || !resolved.ok) {
      const problem = !resolved.ok ? resolved : shape.ok ? undefined : shape;
      result = {
        status: null,
        error: `${problem?.code}: ${problem?.message}`,
        latencyMs: Math.round(performance.now() - started),
        responseBody: null,
      };
    } else {
      const secrets = target.secretsSealed.map((sealed) => o.secretBox.open(sealed));
      const timestamp = Math.floor(Date.now() / 1000);
      result = await sendWebhook({
        url: shape.url,
        address: resolved.address,
        body: d.payload,
        headers: {
          'content-type': 'application/json',
          'user-agent': WEBHOOK_USER_AGENT,
          'x-webhook-id': d.eventId,
          'x-webhook-timestamp': String(timestamp),
          'x-signature-256': signatureHeader(secrets, d.payload),
          'webhook-id': d.eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': standardSignatureHeader(secrets, d.eventId, timestamp, d.payload),
        },
        timeoutMs: o.timeoutMs,
        maxResponseBytes,
        signal: halt.signal,
      });
      if (result.aborted) {
        await deliveries.release(d.id);
        return;
      }
    }
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const attemptNo = d.attempts + 1;
    const next = new Date(Date.now() + backoffMs(attemptNo - 1, o.retryBaseMs, o.retryMaxDelayMs));
    const outcome = ok
      ? { state: 'succeeded' as const }
      : next > d.retryUntil
        ? { state: 'failed' as const }
        : { state: 'retry' as const, nextAttemptAt: next };
    metrics.inc('webhook_attempts_total', {
      result: ok ? 'success' : outcome.state === 'failed' ? 'gave_up' : 'retry',
    });
    const recorded = await deliveries.recordAttempt({
      deliveryId: d.id,
      organizationId: d.organizationId,
      startedAt,
      url: target.url,
      status: result.status,
      error: result.error,
      latencyMs: result.latencyMs,
      responseBody: result.responseBody,
      outcome,
      disableAfter: { failures: o.disableAfterFailures, failingForMs: o.disableAfterMs },
    });
    if (outcome.state === 'failed')
      log.warn(
        { organizationId: d.organizationId, eventId: d.eventId, attempts: attemptNo },
        'webhook delivery failed for good',
      );
    if (recorded.endpointDisabled) {
      metrics.inc('webhook_endpoints_disabled_total');
      log.warn(
        {
          organizationId: d.organizationId,
          consecutiveFailures: recorded.consecutiveFailures,
          lastStatus: result.status,
        },
        'webhook endpoint disabled after repeated failures',
      );
    }
  }

  function launch(d: ClaimedDelivery): void {
    perOrg.set(d.organizationId, (perOrg.get(d.organizationId) ?? 0) + 1);
    const task: Promise<void> = attempt(d)
      .catch((err) => {
        // The claim's lease brings the delivery back; nothing is lost.
        log.error({ err, deliveryId: d.id, organizationId: d.organizationId }, 'webhook attempt could not be recorded');
      })
      .finally(() => {
        inFlight.delete(task);
        const n = (perOrg.get(d.organizationId) ?? 1) - 1;
        if (n <= 0) perOrg.delete(d.organizationId);
        else perOrg.set(d.organizationId, n);
        nudge();
      });
    inFlight.add(task);
  }

  async function claimSome(): Promise<number> {
    let claimed = 0;
    const free = o.maxInFlight - inFlight.size;
    if (free <= 0) return 0;
    const full = [...perOrg].filter(([, n]) => n >= o.perEndpoint).map(([org]) => org);
    const orgs = await deliveries.dueOrganizations(full, free);
    for (const org of orgs) {
      if (stopping) break;
      const room = Math.min(o.perEndpoint - (perOrg.get(org) ?? 0), o.maxInFlight - inFlight.size);
      if (room <= 0) continue;
      const batch = await deliveries.claim(org, room, leaseMs);
      for (const d of batch) launch(d);
      claimed += batch.length;
    }
    return claimed;
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (!stopping) {
      let claimed = 0;
      try {
        claimed = await claimSome();
        failures = 0;
      } catch (err) {
        failures++;
        if (failures === 1 || failures % 60 === 0) log.warn({ err, failures }, 'webhook poll failed');
      }
      if (stopping) break;
      if (claimed === 0 || inFlight.size >= o.maxInFlight)
        await idle(failures > 0 ? Math.min(o.pollMs * 2 ** failures, 30_000) : o.pollMs);
    }
  }

  return {
    start() {
      loop ??= run();
    },
    nudge,
    async stop(graceMs) {
      stopping = true;
      nudge();
      await loop;
      if (inFlight.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
        await Promise.race([Promise.allSettled([...inFlight]), grace]);
        clearTimeout(timer);
        // What is still in flight is given back and sent again by whichever instance runs next.
        halt.abort();
        await Promise.allSettled([...inFlight]);
      }
    },
  };
}
