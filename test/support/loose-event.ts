// For tests that feed the pipeline events of a partial or odd shape on purpose (what an older
// version or a hand-written message may carry): the publisher's typed `record` takes them as is.
import type { EventEnvelope } from '../../src/ingest/envelope.js';
import type { RecordedEvent } from '../../src/ingest/event-registry.js';

export const looseEvent = (event: EventEnvelope): RecordedEvent => event as unknown as RecordedEvent;
