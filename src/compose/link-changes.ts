// A link, app or domain changed: every instance drops what it cached of it (the redirect's links,
// the association files). This instance drops its own at once; the broadcast on the bus is for
// the others, so its own echo (NATS delivers to the sender too) is ignored rather than dropping
// entries twice.
import type { Bus } from '../ingest/bus.js';
import { uuidv7 } from '../shared/ids.js';

const LINKS_CHANGED = 'links.changed';

/** Drops what one cache holds of an organization's links (null: of every organization). */
type Drop = (organizationId: number | null) => void;

export interface LinkChanges {
  /** Tells every instance (this one first) that an organization's links may have changed. */
  linkChanged(organizationId: number | null): void;
  /** Stops listening to the other instances. */
  stop(): void;
}

export function composeLinkChanges(ctx: { bus: Bus; caches: Drop[] }): LinkChanges {
  const { bus, caches } = ctx;
  const instanceId = uuidv7();
  const drop: Drop = (organizationId) => {
    for (const dropFrom of caches) dropFrom(organizationId);
  };
  const stop = bus.onBroadcast(LINKS_CHANGED, (data) => {
    const change = JSON.parse(new TextDecoder().decode(data)) as { organizationId: number | null; from: string };
    if (change.from !== instanceId) drop(change.organizationId);
  });
  return {
    linkChanged(organizationId) {
      drop(organizationId);
      bus.broadcast(LINKS_CHANGED, new TextEncoder().encode(JSON.stringify({ organizationId, from: instanceId })));
    },
    stop,
  };
}
