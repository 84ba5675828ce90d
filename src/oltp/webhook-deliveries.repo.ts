// The durable webhook queue and its log: one row per (endpoint, event), claimed by delivery workers
// with FOR UPDATE SKIP LOCKED (several instances share the work), one attempt row per HTTP try.
// A claim moves next_attempt_at forward by a lease instead of holding a transaction open over the
// HTTP call: if the instance dies mid-delivery, the row simply comes due again.
import type { Sql } from './postgres.js';

export type DeliveryState = 'pending' | 'succeeded' | 'failed';

export interface NewDelivery {
  organizationId: number;
  eventId: string;
  eventType: string;
  payload: string;
}

export interface ClaimedDelivery {
  id: number;
  organizationId: number;
  eventId: string;
  eventType: string;
  payload: string;
  attempts: number;
  retryUntil: Date;
}

export interface Delivery {
  id: number;
  organizationId: number;
  eventId: string;
  eventType: string;
  state: DeliveryState;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastLatencyMs: number | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  completedAt: Date | null;
}

export interface DeliveryAttempt {
  attempt: number;
  startedAt: Date;
  url: string;
  status: number | null;
  error: string | null;
  latencyMs: number;
  responseBody: string | null;
}

/** One attempt as the worker reports it: what it saw, and what follows for the delivery. */
export interface AttemptRecord extends Omit<DeliveryAttempt, 'attempt'> {
  deliveryId: number;
  organizationId: number;
  /** succeeded; or a retry at nextAttemptAt; or failed for good. */
  outcome: { state: 'succeeded' } | { state: 'retry'; nextAttemptAt: Date } | { state: 'failed' };
  /** When the endpoint's failure streak disables it. */
  disableAfter: { failures: number; failingForMs: number };
}

interface DeliveryRow {
  id: number;
  organization_id: number;
  event_id: string;
  event_type: string;
  state: DeliveryState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  next_attempt_at: Date;
  created_at: Date;
  completed_at: Date | null;
}

const toDelivery = (r: DeliveryRow): Delivery => ({
  id: r.id,
  organizationId: r.organization_id,
  eventId: r.event_id,
  eventType: r.event_type,
  state: r.state,
  attempts: r.attempts,
  lastStatus: r.last_status,
  lastError: r.last_error,
  lastLatencyMs: r.last_latency_ms,
  nextAttemptAt: r.state === 'pending' ? r.next_attempt_at : null,
  createdAt: r.created_at,
  completedAt: r.completed_at,
});

/** Due rows a poll looks at to find the organizations with work. */
const DUE_SCAN_ROWS = 1_000;

export function createWebhookDeliveriesRepo({ sql }: { sql: Sql }) {
  const deliveryColumns = sql`id, organization_id, event_id, event_type, state, attempts, last_status, last_error,
    last_latency_ms, next_attempt_at, created_at, completed_at`;

  return {
    /** Inserts what is new; an (organization, event) seen before is skipped. Returns the new rows' ids. */
    async enqueue(deliveries: NewDelivery[], retryWindowMs: number): Promise<number[]> {
      if (deliveries.length === 0) return [];
      const retryUntil = new Date(Date.now() + retryWindowMs);
      const inserted = await sql<{ id: number }[]>`
        insert into webhook_deliveries (organization_id, event_id, event_type, payload, retry_until)
        select o, e, t, p, ${retryUntil}
        from unnest(${deliveries.map((d) => d.organizationId)}::bigint[], ${deliveries.map((d) => d.eventId)}::uuid[],
                    ${deliveries.map((d) => d.eventType)}::text[], ${deliveries.map((d) => d.payload)}::text[]) as x(o, e, t, p)
        on conflict (organization_id, event_id) do nothing
        returning id`;
      return inserted.map((r) => r.id);
    },

    /**
     * Organizations with deliveries due to an enabled endpoint, the longest-waiting first, leaving
     * out those this worker has no room for (so one busy endpoint never takes every slot).
     */
    async dueOrganizations(exclude: number[], limit: number): Promise<number[]> {
      // The earliest due rows only (from the partial index, at most DUE_SCAN_ROWS), grouped by
      // organization: one large backlog does not make every poll read all of it. (Rows it must skip,
      // of organizations at their limit or with a disabled endpoint, are still walked past.)
      const rows = await sql<{ organization_id: number }[]>`
        select organization_id from (
          select d.organization_id, d.next_attempt_at
          from webhook_deliveries d
          where d.state = 'pending' and d.next_attempt_at <= now()
            and d.organization_id <> all(${exclude}::bigint[])
            and exists (select 1 from webhook_endpoints e where e.organization_id = d.organization_id and e.enabled)
          order by d.next_attempt_at
          limit ${DUE_SCAN_ROWS}
        ) due
        group by organization_id
        order by min(next_attempt_at)
        limit ${limit}`;
      return rows.map((r) => r.organization_id);
    },

    /** Takes up to `limit` due deliveries of one organization for `leaseMs`. */
    async claim(organizationId: number, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
      const rows = await sql<
        {
          id: number;
          organization_id: number;
          event_id: string;
          event_type: string;
          payload: string;
          attempts: number;
          retry_until: Date;
        }[]
      >`
        update webhook_deliveries d
        set next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000}), updated_at = now()
        where d.id in (
          select id from webhook_deliveries
          where organization_id = ${organizationId} and state = 'pending' and next_attempt_at <= now()
          order by next_attempt_at
          limit ${limit}
          for update skip locked
        )
        returning d.id, d.organization_id, d.event_id, d.event_type, d.payload, d.attempts, d.retry_until`;
      return rows.map((r) => ({
        id: r.id,
        organizationId: r.organization_id,
        eventId: r.event_id,
        eventType: r.event_type,
        payload: r.payload,
        attempts: r.attempts,
        retryUntil: r.retry_until,
      }));
    },

    /** Gives a claimed delivery back without counting an attempt (shutdown, endpoint switched off). */
    async release(deliveryId: number, dueAt: Date = new Date()): Promise<void> {
      await sql`update webhook_deliveries set next_attempt_at = ${dueAt}, updated_at = now() where id = ${deliveryId} and state = 'pending'`;
    },

    /**
     * Logs one attempt and moves the delivery on, and keeps the endpoint's failure streak; returns
     * whether this attempt disabled the endpoint (a notice is stored in the same transaction).
     */
    async recordAttempt(a: AttemptRecord): Promise<{ endpointDisabled: boolean; consecutiveFailures: number }> {
      return (await sql.begin(async (tx) => {
        const [d] = await tx<{ attempts: number }[]>`
          update webhook_deliveries set
            attempts = attempts + 1,
            state = ${a.outcome.state === 'retry' ? 'pending' : a.outcome.state},
            next_attempt_at = ${a.outcome.state === 'retry' ? a.outcome.nextAttemptAt : new Date()},
            last_status = ${a.status},
            last_error = ${a.error},
            last_latency_ms = ${a.latencyMs},
            completed_at = ${a.outcome.state === 'retry' ? null : new Date()},
            updated_at = now()
          where id = ${a.deliveryId}
          returning attempts`;
        if (!d) return { endpointDisabled: false, consecutiveFailures: 0 };
        await tx`
          insert into webhook_delivery_attempts (delivery_id, attempt, started_at, status, error, latency_ms, response_body, url)
          values (${a.deliveryId}, ${d.attempts}, ${a.startedAt}, ${a.status}, ${a.error}, ${a.latencyMs}, ${a.responseBody}, ${a.url})`;
        if (a.outcome.state === 'succeeded') {
          await tx`update webhook_endpoints set consecutive_failures = 0, failing_since = null
                   where organization_id = ${a.organizationId} and consecutive_failures > 0`;
          return { endpointDisabled: false, consecutiveFailures: 0 };
        }
        const [streak] = await tx<{ consecutive_failures: number; failing_ms: number; enabled: boolean }[]>`
          update webhook_endpoints set
            consecutive_failures = consecutive_failures + 1,
            failing_since = coalesce(failing_since, now())
          where organization_id = ${a.organizationId}
          returning consecutive_failures, enabled,
            (extract(epoch from (now() - failing_since)) * 1000)::float8 as failing_ms`;
        if (!streak?.enabled)
          return { endpointDisabled: false, consecutiveFailures: streak?.consecutive_failures ?? 0 };
        const tooMany = streak.consecutive_failures >= a.disableAfter.failures;
        const tooLong = streak.consecutive_failures >= 2 && streak.failing_ms >= a.disableAfter.failingForMs;
        if (!tooMany && !tooLong) return { endpointDisabled: false, consecutiveFailures: streak.consecutive_failures };
        const reason = tooMany
          ? `${streak.consecutive_failures} delivery attempts in a row failed`
          : `every delivery attempt failed for ${Math.round(streak.failing_ms / 3_600_000)} hours`;
        const disabled = await tx`
          update webhook_endpoints set enabled = false, disabled_at = now(), disabled_reason = ${reason}
          where organization_id = ${a.organizationId} and enabled returning organization_id`;
        if (disabled.length > 0) {
          await tx`
            insert into organization_notices (organization_id, code, message)
            values (${a.organizationId}, 'WEBHOOK_ENDPOINT_DISABLED',
                    ${`The webhook endpoint was disabled: ${reason} (last: ${a.status ?? a.error ?? 'no answer'}). Fix the receiver, then enable it again; pending deliveries resume.`})`;
        }
        return { endpointDisabled: disabled.length > 0, consecutiveFailures: streak.consecutive_failures };
      })) as { endpointDisabled: boolean; consecutiveFailures: number };
    },

    async list(
      organizationId: number,
      filter: { state?: DeliveryState },
      page: { page: number; size: number },
    ): Promise<{ items: Delivery[]; total: number }> {
      const state = filter.state ?? null;
      const [count] = await sql<{ n: number }[]>`
        select count(*)::int as n from webhook_deliveries
        where organization_id = ${organizationId} and (${state}::text is null or state = ${state})`;
      const rows = await sql<DeliveryRow[]>`
        select ${deliveryColumns} from webhook_deliveries
        where organization_id = ${organizationId} and (${state}::text is null or state = ${state})
        order by id desc
        limit ${page.size} offset ${page.page * page.size}`;
      return { items: rows.map(toDelivery), total: count?.n ?? 0 };
    },

    async get(
      organizationId: number,
      id: number,
    ): Promise<(Delivery & { payload: string; attemptLog: DeliveryAttempt[] }) | undefined> {
      const [row] = await sql<(DeliveryRow & { payload: string })[]>`
        select ${deliveryColumns}, payload from webhook_deliveries where organization_id = ${organizationId} and id = ${id}`;
      if (!row) return undefined;
      const attempts = await sql<
        {
          attempt: number;
          started_at: Date;
          url: string;
          status: number | null;
          error: string | null;
          latency_ms: number;
          response_body: string | null;
        }[]
      >`
        select attempt, started_at, url, status, error, latency_ms, response_body
        from webhook_delivery_attempts where delivery_id = ${id} order by attempt, id`;
      return {
        ...toDelivery(row),
        payload: row.payload,
        attemptLog: attempts.map((r) => ({
          attempt: r.attempt,
          startedAt: r.started_at,
          url: r.url,
          status: r.status,
          error: r.error,
          latencyMs: r.latency_ms,
          responseBody: r.response_body,
        })),
      };
    },

    /** Sends a delivery again (same event id and body), with a fresh retry window. */
    async redeliver(organizationId: number, id: number, retryWindowMs: number): Promise<Delivery | undefined> {
      const [row] = await sql<DeliveryRow[]>`
        update webhook_deliveries set
          state = 'pending', next_attempt_at = now(), completed_at = null, updated_at = now(),
          retry_until = now() + make_interval(secs => ${retryWindowMs / 1000})
        where organization_id = ${organizationId} and id = ${id}
        returning ${deliveryColumns}`;
      return row && toDelivery(row);
    },
  };
}

export type WebhookDeliveriesRepo = ReturnType<typeof createWebhookDeliveriesRepo>;
