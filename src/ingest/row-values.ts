// Turning loosely typed event data into ClickHouse column values: every event route uses these,
// so a missing or oddly typed field becomes an empty value, never a refused insert.

/** ClickHouse DateTime64(3) text in UTC: '2025-03-09 06:00:00.123'. */
export const chTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/** A string column value, cut to `max` characters; absent → ''. */
export const str = (v: unknown, max = 2000) =>
  typeof v === 'string' ? v.slice(0, max) : v === undefined || v === null ? '' : String(v).slice(0, max);

/** A numeric column value; absent or not finite → 0. */
export const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The columns every event table starts with: the event id (dedup), its time and its tenant. */
export const eventColumns = (e: { eventId: string; occurredAt: number; organizationId: number }) => ({
  event_id: e.eventId,
  ts: chTime(e.occurredAt),
  organization_id: e.organizationId,
});
