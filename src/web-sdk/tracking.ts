// The SDK's client-side tracking methods: goals into the user-journey funnel
// (session/funnel/track, stage GOAL_COMPLETED), events into the event log (session/event). A
// session is created lazily on the first call and kept in sessionStorage; after 30 minutes without
// a call the next one starts a new session (the usual web-analytics rule), and so does a page whose
// address carries another link's token than the session's (a new click: its goals are its own).
import type { State } from './sdk-config.js';
import { request, type Answer } from './http.js';
import { load, save } from './storage.js';

export interface TrackResult {
  ok: boolean;
  status?: number;
  /** The transactionId was already sent from this browser; nothing was sent again. */
  duplicate?: boolean;
  error?: string;
}

export interface TrackOptions {
  transactionId?: string;
}

interface StoredSession {
  id: string;
  appId: string;
  at: number;
  /** The token the session was opened with (null: none). */
  token?: string | null;
}

/** What the link that brought the visitor says (landing config or the resolve answer). */
interface LinkInfo {
  token: string;
  goalType: string | null;
  urlId?: number;
  campaignId?: number;
}

const SESSION_KEY = 'signpost.session';
const LINK_KEY = 'signpost.link';
const SENT_KEY = 'signpost.sent';
const SESSION_IDLE_MS = 30 * 60 * 1000;
/** Transaction ids remembered per browser; the oldest are forgotten first (the server dedups too). */
const MAX_REMEMBERED_IDS = 200;
const MAX_GOAL_TYPE = 50;

// The browser side of the user-journey session API: the app id alone, no app key.
const JOURNEY = '/api/v1/sdk/web/journey/session';

let creating: Promise<string | Answer> | null = null;
let linkLookup: Promise<LinkInfo | null> | null = null;
/** Transaction ids of this page, also when storage is unavailable. */
const sentHere = new Set<string>();

const headers = (state: State) => ({ 'X-App-ID': state.appId });

function uuid(): string {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The `signpost_token` the app or a redirect put in this page's address. */
const tokenInAddress = (): string | null => new URLSearchParams(location.search).get('signpost_token');

/** The token of this visit's click: the landing page's, else the one in the page's address. */
const clickToken = (state: State): string | null => state.landing?.token ?? tokenInAddress();

/**
 * The session id, created when there is none, it went idle, or the page came from another click
 * than the session (its token differs); an Answer when creation failed.
 */
async function session(state: State): Promise<string | Answer> {
  const stored = load<StoredSession>('sessionStorage', SESSION_KEY);
  const token = clickToken(state);
  if (
    stored &&
    stored.appId === state.appId &&
    Date.now() - stored.at < SESSION_IDLE_MS &&
    (token === null || (stored.token ?? null) === token.slice(0, 200))
  )
    return stored.id;
  // Concurrent first calls share one creation.
  creating ??= createSession(state).finally(() => {
    creating = null;
  });
  return creating;
}

async function createSession(state: State): Promise<string | Answer> {
  const params = new URLSearchParams(location.search);
  // Cut to the API's limits: a long address must not cost the visit its session.
  const body: Record<string, string> = { platform: 'WEB', landingUrl: location.href.slice(0, 2000) };
  const token = clickToken(state)?.slice(0, 200) ?? null;
  if (token) body.deepLinkToken = token;
  for (const name of ['source', 'medium', 'campaign']) {
    const value = params.get(`utm_${name}`);
    if (value) body[`utm${name[0]!.toUpperCase()}${name.slice(1)}`] = value.slice(0, 100);
  }
  if (document.referrer) body.referrer = document.referrer.slice(0, 2000);
  const answer = await request('POST', `${state.apiBase}${JOURNEY}/create`, body, headers(state));
  const id = (answer.body as { sessionId?: unknown } | null)?.sessionId;
  if (!answer.ok || typeof id !== 'string') return answer.ok ? { ok: false, status: answer.status } : answer;
  save('sessionStorage', SESSION_KEY, { id, appId: state.appId, at: Date.now(), token } satisfies StoredSession);
  return id;
}

function touchSession(): void {
  const stored = load<StoredSession>('sessionStorage', SESSION_KEY);
  if (stored) save('sessionStorage', SESSION_KEY, { ...stored, at: Date.now() });
}

/** The link behind this visit: the landing page's, else the one named by `signpost_token`. */
function linkInfo(state: State): Promise<LinkInfo | null> {
  if (state.landing) return Promise.resolve({ token: state.landing.token, goalType: state.landing.goalType });
  const token = tokenInAddress();
  const stored = load<LinkInfo>('sessionStorage', LINK_KEY);
  if (!token) return Promise.resolve(stored);
  if (stored?.token === token) return Promise.resolve(stored);
  linkLookup ??= resolveLink(state, token);
  return linkLookup;
}

async function resolveLink(state: State, token: string): Promise<LinkInfo | null> {
  const answer = await request(
    'GET',
    `${state.apiBase}/api/v1/sdk/web/deeplink/resolve?token=${encodeURIComponent(token)}`,
    undefined,
    headers(state),
  );
  if (!answer.ok) {
    // A definite "unknown" is remembered; a failure may be asked again later.
    if (answer.status !== 404) linkLookup = null;
    return null;
  }
  const body = answer.body as {
    goalType?: string | null;
    url?: { id?: number } | null;
    campaign?: { id?: number } | null;
  };
  const info: LinkInfo = { token, goalType: body.goalType ?? null };
  if (typeof body.url?.id === 'number') info.urlId = body.url.id;
  if (typeof body.campaign?.id === 'number') info.campaignId = body.campaign.id;
  save('sessionStorage', LINK_KEY, info);
  return info;
}

const sentIdKey = (state: State, transactionId: string) => `${state.appId}:${transactionId}`;

function alreadySent(key: string): boolean {
  return sentHere.has(key) || (load<string[]>('localStorage', SENT_KEY) ?? []).includes(key);
}

function remember(key: string, sent: boolean): void {
  if (sent) sentHere.add(key);
  else sentHere.delete(key);
  const ids = (load<string[]>('localStorage', SENT_KEY) ?? []).filter((id) => id !== key);
  if (sent) ids.push(key);
  save('localStorage', SENT_KEY, ids.slice(-MAX_REMEMBERED_IDS));
}

/** Sends one user-journey call in the current session; a session the server no longer knows is replaced once. */
async function inSession(state: State, path: string, body: Record<string, unknown>): Promise<TrackResult> {
  for (let round = 0; round < 2; round++) {
    const id = await session(state);
    if (typeof id !== 'string') return { ok: false, status: id.status, error: 'session not created' };
    const answer = await request(
      'POST',
      `${state.apiBase}${JOURNEY}${path}`,
      { sessionId: id, ...body },
      headers(state),
    );
    if (answer.ok) {
      touchSession();
      // The server's own dedup (a transactionId sent from another browser) answers duplicate: true.
      return (answer.body as { duplicate?: unknown } | null)?.duplicate === true
        ? { ok: true, status: answer.status, duplicate: true }
        : { ok: true, status: answer.status };
    }
    if (answer.status !== 404) return { ok: false, status: answer.status };
    save('sessionStorage', SESSION_KEY, null);
  }
  return { ok: false, status: 404 };
}

export async function trackGoal(
  state: State,
  goalType: string | null | undefined,
  goalValue: number | string,
  currency?: string | null,
  options?: TrackOptions | null,
): Promise<TrackResult> {
  const link = await linkInfo(state);
  // Precedence: explicit, then the link's, then init's.
  const type = goalType || link?.goalType || state.goalType;
  if (!type) return { ok: false, error: 'no goalType: pass one, configure it on the link, or give it to init' };
  if (type.length > MAX_GOAL_TYPE) return { ok: false, error: 'goalType longer than 50 characters' };
  const value = Number(goalValue);
  if (!Number.isFinite(value)) return { ok: false, error: 'goalValue is not a number' };
  let code: string | undefined;
  if (currency) {
    code = currency.toUpperCase();
    if (!/^[A-Z]{3}$/.test(code)) return { ok: false, error: 'currency is not an ISO 4217 code' };
  }
  const transactionId = options?.transactionId ? String(options.transactionId) : undefined;
  const sentKey = transactionId ? sentIdKey(state, transactionId) : undefined;
  if (sentKey) {
    if (alreadySent(sentKey)) return { ok: true, duplicate: true };
    // Taken before sending, so a second call while the first is in flight is a duplicate too.
    remember(sentKey, true);
  }
  // eventId: one id for every retry of this goal, so the server records it once.
  const body: Record<string, unknown> = {
    stage: 'GOAL_COMPLETED',
    goalType: type,
    goalValue: value,
    timestamp: new Date().toISOString(),
    eventId: uuid(),
  };
  if (code) body.currency = code;
  if (transactionId) body.transactionId = transactionId;
  if (link?.urlId !== undefined) body.urlId = link.urlId;
  if (link?.campaignId !== undefined) body.campaignId = link.campaignId;
  const result = await inSession(state, '/funnel/track', body);
  // Not recorded: let a later call with the same id try again.
  if (sentKey && !result.ok) remember(sentKey, false);
  return result;
}

export function trackPurchase(
  state: State,
  amount: number | string,
  currency: string,
  options?: TrackOptions | null,
): Promise<TrackResult> {
  const code = String(currency ?? '').toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) return Promise.resolve({ ok: false, error: 'currency is not an ISO 4217 code' });
  return trackGoal(state, `purchase_${code}`, amount, code, options);
}

export function trackEvent(
  state: State,
  eventType: string,
  eventData?: Record<string, unknown> | null,
): Promise<TrackResult> {
  if (!eventType || typeof eventType !== 'string')
    return Promise.resolve({ ok: false, error: 'eventType is required' });
  const properties = eventData && typeof eventData === 'object' ? eventData : {};
  // One id for every retry of this event: the server records it once.
  return inSession(state, '/event', { eventType, properties, occurredAt: new Date().toISOString(), eventId: uuid() });
}
