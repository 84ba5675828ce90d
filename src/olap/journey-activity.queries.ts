// A session's own event log and transitions, read back from ClickHouse (newest first, paged). A
// row repeated by redelivery or by a client retrying with the same eventId shows once: reads keep
// one row per event id, whether or not the engine has merged the duplicates away yet.
import type { ClickHouseClient } from './clickhouse.js';

export interface SessionEventRow {
  eventId: string;
  eventType: string;
  properties: Record<string, unknown>;
  platform: string | null;
  externalUserId: string | null;
  occurredAt: Date;
}

export interface SessionTransitionRow {
  transitionId: string;
  fromPlatform: string;
  toPlatform: string;
  targetSessionId: string | null;
  link: { type: 'url' | 'campaign'; id: number } | null;
  deepLinkToken: string | null;
  externalUserId: string | null;
  properties: Record<string, unknown>;
  occurredAt: Date;
}

const orNull = (v: string) => (v === '' ? null : v);

function parseProperties(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

interface PageInput {
  organizationId: number;
  sessionId: string;
  page: number;
  size: number;
}

export function createJourneyActivity(client: ClickHouseClient) {
  async function rows<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
    const result = await client.query({ query, query_params: params, format: 'JSONEachRow' });
    return result.json<T>();
  }

  /** One page of a session's rows of `table`, newest first, one row per event id, and their count. */
  async function sessionPage<T>(
    table: string,
    columns: string,
    input: PageInput,
    filter?: { sql: string; params: Record<string, unknown> },
  ) {
    const where = `organization_id = {org:UInt64} AND session_id = {sid:String}${filter ? ` AND ${filter.sql}` : ''}`;
    const params = {
      org: input.organizationId,
      sid: input.sessionId,
      size: input.size,
      offset: input.page * input.size,
      ...filter?.params,
    };
    const [items, [count]] = await Promise.all([
      rows<T & { id: string; ms: string }>(
        `SELECT toString(event_id) AS id, toString(toUnixTimestamp64Milli(ts)) AS ms, ${columns}
         FROM ${table} WHERE ${where}
         ORDER BY ts DESC, event_id DESC
         LIMIT 1 BY event_id
         LIMIT {size:UInt32} OFFSET {offset:UInt32}`,
        params,
      ),
      rows<{ n: string }>(`SELECT toString(uniqExact(event_id)) AS n FROM ${table} WHERE ${where}`, params),
    ]);
    return { items, total: Number(count?.n ?? 0) };
  }

  return {
    async events(
      input: PageInput & { eventType?: string | undefined },
    ): Promise<{ items: SessionEventRow[]; total: number }> {
      const { items, total } = await sessionPage<{
        event_type: string;
        properties: string;
        platform: string;
        external_user_id: string;
      }>(
        'journey_events',
        'toString(event_type) AS event_type, properties, toString(platform) AS platform, external_user_id',
        input,
        input.eventType === undefined
          ? undefined
          : { sql: 'event_type = {type:String}', params: { type: input.eventType } },
      );
      return {
        items: items.map((r) => ({
          eventId: r.id,
          eventType: r.event_type,
          properties: parseProperties(r.properties),
          platform: orNull(r.platform),
          externalUserId: orNull(r.external_user_id),
          occurredAt: new Date(Number(r.ms)),
        })),
        total,
      };
    },

    async transitions(input: PageInput): Promise<{ items: SessionTransitionRow[]; total: number }> {
      const { items, total } = await sessionPage<{
        from_platform: string;
        to_platform: string;
        target_session_id: string;
        link_type: string;
        link_id: string;
        deep_link_token: string;
        external_user_id: string;
        properties: string;
      }>(
        'journey_transitions',
        `toString(from_platform) AS from_platform, toString(to_platform) AS to_platform, target_session_id,
         toString(link_type) AS link_type, toString(link_id) AS link_id, deep_link_token, external_user_id, properties`,
        input,
      );
      return {
        items: items.map((r) => ({
          transitionId: r.id,
          fromPlatform: r.from_platform,
          toPlatform: r.to_platform,
          targetSessionId: orNull(r.target_session_id),
          link:
            r.link_type === 'url' || r.link_type === 'campaign' ? { type: r.link_type, id: Number(r.link_id) } : null,
          deepLinkToken: orNull(r.deep_link_token),
          externalUserId: orNull(r.external_user_id),
          properties: parseProperties(r.properties),
          occurredAt: new Date(Number(r.ms)),
        })),
        total,
      };
    },
  };
}

export type JourneyActivity = ReturnType<typeof createJourneyActivity>;
