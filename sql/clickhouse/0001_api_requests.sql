-- One row per Service API call: usage per key and route, and the audit trail a customer asks for.
CREATE TABLE IF NOT EXISTS api_requests (
  event_id UUID,
  ts DateTime64(3, 'UTC'),
  organization_id UInt64,
  api_key_id UInt64,
  method LowCardinality(String),
  route LowCardinality(String),
  status UInt16,
  duration_ms Float32,
  ip String,
  request_id String
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, ts, event_id)
TTL toDateTime(ts) + INTERVAL 400 DAY
SETTINGS non_replicated_deduplication_window = 10000;
