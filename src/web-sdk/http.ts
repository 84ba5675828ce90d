// Sending to the service: JSON over fetch, retried with exponential backoff and jitter when the
// failure may pass (network error, 5xx, 429), final otherwise (a 403 for an add-on that is off
// will not change by asking again). Retries wait in memory; when the page is hidden or unloaded
// every waiting retry goes out at once with `keepalive`, so it outlives the page. sendBeacon cannot
// carry the X-App-ID header the user-journey API needs, hence keepalive fetch.

export interface Answer {
  ok: boolean;
  /** HTTP status; 0 when no answer came (network error, CORS failure). */
  status: number;
  body?: unknown;
}

const MAX_ATTEMPTS = 5;
const BASE_DELAY_MS = 400;
const MAX_DELAY_MS = 8_000;

/** Wakers of retries waiting out their backoff. */
const waiting = new Set<() => void>();
let unloading = false;

function flushWaiting(): void {
  unloading = true;
  for (const wake of [...waiting]) wake();
}
addEventListener('pagehide', flushWaiting);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') flushWaiting();
  else unloading = false;
});

/** Equal jitter: half the exponential step fixed, half random, so clients spread out. */
function backoffMs(attempt: number, retryAfterSeconds: number): number {
  if (retryAfterSeconds > 0) return Math.min(retryAfterSeconds * 1000, 30_000);
  const step = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
  return step / 2 + Math.random() * (step / 2);
}

function pause(ms: number): Promise<void> {
  if (unloading) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      waiting.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    waiting.add(wake);
  });
}

const retryable = (status: number) => status === 0 || status === 429 || status >= 500;

/** One request with retries; resolves with the last answer, never rejects. */
export async function request(
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  let answer: Answer = { ok: false, status: 0 };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    let retryAfter = 0;
    try {
      const res = await fetch(url, {
        method,
        headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        keepalive: unloading,
      });
      let parsed: unknown = null;
      try {
        parsed = await res.json();
      } catch {
        /* empty or not JSON */
      }
      answer = { ok: res.ok, status: res.status, body: parsed };
      retryAfter = Number(res.headers.get('Retry-After')) || 0;
    } catch {
      answer = { ok: false, status: 0 };
    }
    if (answer.ok || !retryable(answer.status)) return answer;
    if (attempt + 1 < MAX_ATTEMPTS) await pause(backoffMs(attempt, retryAfter));
  }
  return answer;
}

/** Fire and forget, surviving navigation; the body arrives as text/plain (all a beacon can send). */
export function beacon(url: string, body: unknown): void {
  const data = JSON.stringify(body);
  try {
    if (navigator.sendBeacon?.(url, data)) return;
  } catch {
    /* fall through to fetch */
  }
  fetch(url, { method: 'POST', body: data, keepalive: true, credentials: 'omit' }).catch(() => {});
}
