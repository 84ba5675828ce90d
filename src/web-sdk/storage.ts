// localStorage / sessionStorage that never throw: Safari's private mode, sandboxed frames and full
// quotas all throw on access, and the SDK must keep working (with memory only) when they do.
type Kind = 'localStorage' | 'sessionStorage';

export function load<T>(kind: Kind, key: string): T | null {
  try {
    const raw = window[kind].getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export function save(kind: Kind, key: string, value: unknown): void {
  try {
    if (value === null) window[kind].removeItem(key);
    else window[kind].setItem(key, JSON.stringify(value));
  } catch {
    /* memory only */
  }
}
