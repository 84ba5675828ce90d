// The event publisher as the features and the HTTP edge hold it: an event is handed over without
// waiting and reaches ClickHouse and the webhooks through the bus (src/ingest owns the pipeline).
export type { EventPublisher } from '../ingest/publisher.js';
