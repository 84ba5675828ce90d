// Each organization's webhook endpoint. Secrets arrive sealed (AES-256-GCM) from the caller; on a
// change of secret the old one is kept as previous_secret_sealed for the rotation period, during
// which deliveries carry both signatures.
import type { Sql } from './postgres.js';

export const WEBHOOK_CATEGORIES = ['click', 'campaign', 'goal', 'funnel', 'session'] as const;
export type WebhookCategory = (typeof WEBHOOK_CATEGORIES)[number];

export interface WebhookEndpoint {
  organizationId: number;
  url: string;
  events: WebhookCategory[];
  enabled: boolean;
  /** A previous secret is still signed with. */
  rotating: boolean;
  previousSecretValidUntil: Date | null;
  consecutiveFailures: number;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  updatedAt: Date;
}

/** What one delivery attempt needs: where, and the secrets to sign with (current first). */
export interface DeliveryTarget {
  organizationId: number;
  url: string;
  enabled: boolean;
  secretsSealed: string[];
}

interface Row {
  organization_id: number;
  url: string;
  events: WebhookCategory[];
  enabled: boolean;
  previous_active: boolean;
  previous_secret_valid_until: Date | null;
  consecutive_failures: number;
  failing_since: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  updated_at: Date;
}

const toEndpoint = (r: Row): WebhookEndpoint => ({
  organizationId: r.organization_id,
  url: r.url,
  events: r.events,
  enabled: r.enabled,
  rotating: r.previous_active,
  previousSecretValidUntil: r.previous_active ? r.previous_secret_valid_until : null,
  consecutiveFailures: r.consecutive_failures,
  failingSince: r.failing_since,
  disabledAt: r.disabled_at,
  disabledReason: r.disabled_reason,
  updatedAt: r.updated_at,
});

export function createWebhookEndpointsRepo({ sql }: { sql: Sql }) {
  const columns = sql`
    organization_id, url, events, enabled,
    (previous_secret_sealed is not null and (previous_secret_valid_until is null or previous_secret_valid_until > now())) as previous_active,
    previous_secret_valid_until, consecutive_failures, failing_since, disabled_at, disabled_reason, updated_at`;

  return {
    async upsert(input: {
      organizationId: number;
      url: string;
      secretSealed: string;
      /** Whether the new secret differs from the current one (decided by the caller, who can open both). */
      secretChanged: boolean;
      events: WebhookCategory[];
      enabled?: boolean;
      /**
       * How long the previous secret stays valid: after a change, the old secret is kept this long
       * (0: dropped at once); without a change, a given value moves the end of the current rotation.
       * Undefined without a change leaves the rotation as it is.
       */
      keepPreviousSecretMs?: number;
    }): Promise<WebhookEndpoint> {
      const enabled = input.enabled ?? true;
      const keepMs = input.keepPreviousSecretMs;
      const [row] = await sql<Row[]>`
        insert into webhook_endpoints (organization_id, url, secret_sealed, events, enabled, disabled_at, disabled_reason)
        values (${input.organizationId}, ${input.url}, ${input.secretSealed}, ${input.events}::text[], ${enabled},
                case when ${enabled} then null else now() end, case when ${enabled} then null else 'turned off in the settings' end)
        on conflict (organization_id) do update set
          url = excluded.url,
          events = excluded.events,
          enabled = excluded.enabled,
          -- Switching on again starts a clean failure streak; switching off says who did it.
          consecutive_failures = case when excluded.enabled then 0 else webhook_endpoints.consecutive_failures end,
          failing_since = case when excluded.enabled then null else webhook_endpoints.failing_since end,
          disabled_at = case when excluded.enabled then null
                             when webhook_endpoints.enabled then now() else webhook_endpoints.disabled_at end,
          disabled_reason = case when excluded.enabled then null
                                 when webhook_endpoints.enabled then 'turned off in the settings' else webhook_endpoints.disabled_reason end,
          previous_secret_sealed = case
            when ${input.secretChanged} and coalesce(${keepMs ?? null}::bigint, 1) > 0 then webhook_endpoints.secret_sealed
            when ${input.secretChanged} or ${keepMs ?? null}::bigint = 0 then null
            else webhook_endpoints.previous_secret_sealed end,
          previous_secret_valid_until = case
            when ${input.secretChanged} or ${keepMs ?? null}::bigint is not null
              then now() + make_interval(secs => coalesce(${keepMs ?? null}::bigint, 0) / 1000.0)
            else webhook_endpoints.previous_secret_valid_until end,
          secret_sealed = excluded.secret_sealed,
          updated_at = now()
        returning ${columns}`;
      return toEndpoint(row!);
    },

    async get(organizationId: number): Promise<WebhookEndpoint | undefined> {
      const [row] = await sql<
        Row[]
      >`select ${columns} from webhook_endpoints where organization_id = ${organizationId}`;
      return row && toEndpoint(row);
    },

    /** Removes the endpoint and its secrets; false when there was none. The delivery log stays. */
    async remove(organizationId: number): Promise<boolean> {
      const rows =
        await sql`delete from webhook_endpoints where organization_id = ${organizationId} returning organization_id`;
      return rows.length > 0;
    },

    async currentSecretSealed(organizationId: number): Promise<string | undefined> {
      const [row] = await sql<{ secret_sealed: string }[]>`
        select secret_sealed from webhook_endpoints where organization_id = ${organizationId}`;
      return row?.secret_sealed;
    },

    /** Every enabled endpoint's organization and categories (one endpoint per organization). */
    async subscriptions(): Promise<Map<number, Set<WebhookCategory>>> {
      const rows = await sql<{ organization_id: number; events: WebhookCategory[] }[]>`
        select organization_id, events from webhook_endpoints where enabled`;
      return new Map(rows.map((r) => [r.organization_id, new Set(r.events)]));
    },

    async deliveryTarget(organizationId: number): Promise<DeliveryTarget | undefined> {
      const [row] = await sql<
        { organization_id: number; url: string; enabled: boolean; secret_sealed: string; previous: string | null }[]
      >`
        select organization_id, url, enabled, secret_sealed,
               case when previous_secret_valid_until is null or previous_secret_valid_until > now()
                    then previous_secret_sealed end as previous
        from webhook_endpoints where organization_id = ${organizationId}`;
      if (!row) return undefined;
      return {
        organizationId: row.organization_id,
        url: row.url,
        enabled: row.enabled,
        secretsSealed: row.previous ? [row.secret_sealed, row.previous] : [row.secret_sealed],
      };
    },
  };
}

export type WebhookEndpointsRepo = ReturnType<typeof createWebhookEndpointsRepo>;
