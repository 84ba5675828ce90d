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
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function createJourneyActivity(client: ClickHouseClient) {
  async function rows<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
    const result = await client.query({ query, query_params: params, format: 'JSONEachRow' });
    return result.json<T>();
  }

  return {
    async events(input: {
      organizationId: number;
      sessionId: string;
      eventType?: string | undefined;
      page: number;
      size: number;
    }): Promise<{ items: SessionEventRow[]; total: number }> {
      const where = `organization_id = {org:UInt64} AND session_id = {sid:String} ${input.eventType === undefined ? '' : 'AND event_type = {type:String}'}`;
      const params = { org: input.organizationId, sid: input.sessionId, type: input.eventType ?? '', size: input.size, offset: input.page * input.size };
      const [items, [count]] = await Promise.all([
        rows<{ id: string; ms: string; event_type: string; properties: string; platform: string; external_user_id: string }>(
          `SELECT toString(event_id) AS id, toString(toUnixTimestamp64Milli(ts)) AS ms, toString(event_type) AS event_type, properties,
                  toString(platform) AS platform, external_user_id
           FROM journey_events WHERE ${where}
           ORDER BY ts DESC, event_id DESC
           LIMIT 1 BY event_id
           LIMIT {size:UInt32} OFFSET {offset:UInt32}`,
          params,
        ),
        rows<{ n: string }>(`SELECT toString(uniqExact(event_id)) AS n FROM journey_events WHERE ${where}`, params),
      ]);
      return {
        items: items.map((r) => ({
          eventId: r.id,
          eventType: r.event_type,
          properties: parseProperties(r.properties),
          platform: orNull(r.platform),
          externalUserId: orNull(r.external_user_id),
          occurredAt: new Date(Number(r.ms)),
        })),
        total: Number(count?.n ?? 0),
      };
    },

    async transitions(input: { organizationId: number; sessionId: string; page: number; size: number }): Promise<{ items: SessionTransitionRow[]; total: number }> {
      const where = 'organization_id = {org:UInt64} AND session_id = {sid:String}';
      const params = { org: input.organizationId, sid: input.sessionId, size: input.size, offset: input.page * input.size };
      const [items, [count]] = await Promise.all([
        rows<{
          id: string; ms: string; from_platform: string; to_platform: string; target_session_id: string; link_type: string;
          link_id: string; deep_link_token: string; external_user_id: string; properties: string;
        }>(
          `SELECT toString(event_id) AS id, toString(toUnixTimestamp64Milli(ts)) AS ms, toString(from_platform) AS from_platform,
                  toString(to_platform) AS to_platform, target_session_id, toString(link_type) AS link_type, toString(link_id) AS link_id,
                  deep_link_token, external_user_id, properties
           FROM journey_transitions WHERE ${where}
           ORDER BY ts DESC, event_id DESC
           LIMIT 1 BY event_id
           LIMIT {size:UInt32} OFFSET {offset:UInt32}`,
          params,
        ),
        rows<{ n: string }>(`SELECT toString(uniqExact(event_id)) AS n FROM journey_transitions WHERE ${where}`, params),
      ]);
      return {
        items: items.map((r) => ({
          transitionId: r.id,
          fromPlatform: r.from_platform,
          toPlatform: r.to_platform,
          targetSessionId: orNull(r.target_session_id),
          link: r.link_type === 'url' || r.link_type === 'campaign' ? { type: r.link_type, id: Number(r.link_id) } : null,
          deepLinkToken: orNull(r.deep_link_token),
          externalUserId: orNull(r.external_user_id),
          properties: parseProperties(r.properties),
          occurredAt: new Date(Number(r.ms)),
        })),
        total: Number(count?.n ?? 0),
      };
    },
  };
}

export type JourneyActivity = ReturnType<typeof createJourneyActivity>;
