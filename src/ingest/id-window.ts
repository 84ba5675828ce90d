// The message ids the in-process bus saw in the last two minutes: a publish with one of them is a
// duplicate (a publisher's retry), as JetStream's duplicate window treats it.
const WINDOW_MS = 120_000;

export interface IdWindow {
  /** True the first time an id is seen within the window; false for a duplicate. */
  remember(id: string): boolean;
  /** Takes an id back (its publish failed: a retry must be taken). */
  forget(id: string): void;
}

export function createIdWindow(): IdWindow {
  const seen = new Map<string, number>();
  return {
    remember(id) {
      const now = Date.now();
      if (seen.has(id)) return false;
      seen.set(id, now);
      // Map iteration is insertion order: expire from the front.
      for (const [key, at] of seen) {
        if (now - at < WINDOW_MS) break;
        seen.delete(key);
      }
      return true;
    },
    forget(id) {
      seen.delete(id);
    },
  };
}
