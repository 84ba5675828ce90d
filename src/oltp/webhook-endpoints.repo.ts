// Each organization's webhook endpoint. Secrets arrive sealed (AES-256-GCM) from the caller; on a
// change of secret the old one is kept as previous_secret_sealed for the rotation period.
import type { Sql } from './postgres.js';

export const WEBHOOK_CATEGORIES = ['click', 'campaign', 'goal', 'funnel', 'session'] as const;
export type WebhookCategory = (typeof WEBHOOK_CATEGORIES)[number];

export interface WebhookEndpoint {
  organizationId: number;
  url: string;
  events: WebhookCategory[];
  enabled: boolean;
  rotating: boolean;
  updatedAt: Date;
}

interface Row {
  organization_id: number;
  url: string;
  events: WebhookCategory[];
  enabled: boolean;
  previous_secret_sealed: string | null;
  updated_at: Date;
}

const toEndpoint = (r: Row): WebhookEndpoint => ({
  organizationId: r.organization_id,
  url: r.url,
  events: r.events,
  enabled: r.enabled,
  rotating: r.previous_secret_sealed !== null,
  updatedAt: r.updated_at,
});

export function createWebhookEndpointsRepo({ sql }: { sql: Sql }) {
  return {
    async upsert(input: {
      organizationId: number;
      url: string;
      secretSealed: string;
      /** Whether the new secret differs from the current one (decided by the caller, who can open both). */
      secretChanged: boolean;
      events: WebhookCategory[];
    }): Promise<WebhookEndpoint> {
      const [row] = await sql<Row[]>`
        insert into webhook_endpoints (organization_id, url, secret_sealed, events)
        values (${input.organizationId}, ${input.url}, ${input.secretSealed}, ${input.events}::text[])
        on conflict (organization_id) do update set
          url = excluded.url,
          events = excluded.events,
          enabled = true,
          previous_secret_sealed = case when ${input.secretChanged} then webhook_endpoints.secret_sealed
                                        else webhook_endpoints.previous_secret_sealed end,
          secret_sealed = excluded.secret_sealed,
          updated_at = now()
        returning organization_id, url, events, enabled, previous_secret_sealed, updated_at`;
      return toEndpoint(row!);
    },

    async currentSecretSealed(organizationId: number): Promise<string | undefined> {
      const [row] = await sql<{ secret_sealed: string }[]>`
        select secret_sealed from webhook_endpoints where organization_id = ${organizationId}`;
      return row?.secret_sealed;
    },
  };
}

export type WebhookEndpointsRepo = ReturnType<typeof createWebhookEndpointsRepo>;
