// Recording the deep-link events (funnel stages, resolution attempts, installs) through the
// publisher, in the data shapes of src/ingest/deep-link-events.ts. Never blocks, never throws.
import { createHash } from 'node:crypto';
import type { AppInstallData, FunnelStageData, ResolutionData } from '../../ingest/deep-link-events.js';
import type { EventPayloads } from '../../ingest/event-registry.js';
import type { EventPublisher } from '../../ingest/publisher.js';
import { uuidv7 } from '../../shared/ids.js';

export interface DeepLinkRecorder {
  funnel(organizationId: number, data: FunnelStageData, occurredAt?: number): void;
  resolution(organizationId: number, data: ResolutionData): void;
  install(organizationId: number, data: AppInstallData): void;
}

export function createDeepLinkRecorder(events: EventPublisher): DeepLinkRecorder {
  const record = <T extends 'funnel_stage' | 'deeplink_resolution' | 'app_install'>(
    type: T,
    organizationId: number,
    data: EventPayloads[T],
    occurredAt = Date.now(),
  ) => events.record<T>({ eventId: uuidv7(), type, occurredAt, organizationId, data });
  return {
    funnel: (organizationId, data, occurredAt) => record('funnel_stage', organizationId, data, occurredAt),
    resolution: (organizationId, data) => record('deeplink_resolution', organizationId, data),
    install: (organizationId, data) => record('app_install', organizationId, data),
  };
}

/** Who resolved, without PII: a short hash of the device's signals (see deeplink_resolutions.user_key). */
export function deviceKey(parts: (string | number | null | undefined)[]): string {
  return createHash('sha256')
    .update(parts.map((p) => p ?? '').join('|'))
    .digest('hex')
    .slice(0, 32);
}
