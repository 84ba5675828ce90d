// The `api_request` event: one Service API call (for usage and audit), and its row of the
// api_requests table (sql/clickhouse/0001).
import type { EventRow } from '../shared/event-rows.js';
import type { WireEvent } from './envelope.js';
import { defineEvent } from './event-spec.js';
import { num, str, withEventColumns } from './row-values.js';

/** `data` of an `api_request` event. */
export interface ApiRequestData {
  apiKeyId: number;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  ip: string;
  requestId: string;
}

function apiRequestRow(e: WireEvent<ApiRequestData>): EventRow {
  const d = e.data;
  return withEventColumns(e, {
    api_key_id: num(d.apiKeyId),
    method: str(d.method),
    route: str(d.route),
    status: num(d.status),
    duration_ms: num(d.durationMs),
    ip: str(d.ip),
    request_id: str(d.requestId),
  });
}

export const API_REQUEST_EVENTS = {
  api_request: defineEvent<ApiRequestData>()({
    category: 'api',
    olap: { table: 'api_requests', consumer: 'olap-events', toRow: apiRequestRow },
  }),
};
