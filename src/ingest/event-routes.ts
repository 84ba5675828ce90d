// Which event types land in which ClickHouse table, and how an envelope becomes a row.
import type { EventEnvelope } from './envelope.js';
import type { TableRoute } from './olap-writer.js';

/** ClickHouse DateTime64(3) text in UTC: '2025-03-09 06:00:00.123'. */
export const chTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export const eventTableRoutes: Record<string, TableRoute> = {
  api_request: {
    table: 'api_requests',
    toRow: (e: EventEnvelope) => ({
      event_id: e.eventId,
      ts: chTime(e.occurredAt),
      organization_id: e.organizationId,
      api_key_id: num(e.data.apiKeyId),
      method: str(e.data.method),
      route: str(e.data.route),
      status: num(e.data.status),
      duration_ms: num(e.data.durationMs),
      ip: str(e.data.ip),
      request_id: str(e.data.requestId),
    }),
  },
};
