// Tenant isolation, generated from the app's own routes: organization A gets one of everything
// (short URL, campaign, mobile apps, a verified custom domain, a webhook, journey sessions, events,
// transitions, funnel steps, an identified user, clicks and a deep-link token); then organization
// B, with B's own credentials on each surface, calls every operation: with A's ids (404 with the
// error body), and every list, search and statistic (none of A's ids, names or counts). The list
// of operations comes from /openapi.json and Fastify's route table: a route this test does not
// know how to exercise fails it, so it cannot silently go stale. It prints the counts.
import { beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { eventually, serviceForFile } from './support/service.js';

const HOST = 'sgnp.example';
const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36';
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const PHONE_IP = '203.0.113.77';
/** A's activity, in counts unlikely to appear by chance in B's (empty) statistics. */
const A_CLICKS = 7;
const A_SESSIONS = 3;

// biome-ignore lint/suspicious/noExplicitAny: bodies of every operation, read field by field.
type Json = Record<string, any>;

/** The API's error body. */
const ERROR_KEYS = ['status', 'error', 'message', 'timestamp', 'code'];

interface Org {
  id: number;
  apiKey: string;
  ios: { id: number; apiKey: string; path: string; appName: string };
  android: { id: number; apiKey: string; path: string; appName: string };
}

interface TenantA extends Org {
  /** A's console member (user id), and that member's console session. */
  memberId: number;
  memberSessionId: number;
  url: Json;
  deepLink: Json;
  campaign: Json;
  domain: Json;
  sessionIds: string[];
  token: string;
  userId: string;
  userEmail: string;
  importJob: Json;
  tag: Json;
}

let a: TenantA;
let b: Org;
/** Strings that identify A's data: none may appear in any answer to B. */
let markers: string[];

// ---- the callers: B on each surface --------------------------------------------------------

type Caller = 'service' | 'mobile' | 'browser' | 'anonymous' | 'console' | 'fresh-console';

/** B's owner signed in to the console: the session cookie and its CSRF token. */
let bConsole: { cookie: string; csrf: string };

async function consoleSession(orgId: number, email: string): Promise<{ cookie: string; csrf: string }> {
  await expectCreated(await svc.admin('POST', `/organizations/${orgId}/members`, { email, role: 'owner' }), 'member');
  return signedIn(email);
}

/** A member signed in with an operator login link. */
async function signedIn(email: string): Promise<{ cookie: string; csrf: string }> {
  const link = new URL(
    (await expectCreated(await svc.admin('POST', '/login-links', { email }), 'login link')).url as string,
  );
  const opened = await svc.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers: { host: HOST } });
  const cookie = `sp_session=${/sp_session=([^;]+)/.exec(String(opened.headers['set-cookie']))![1]}`;
  const session = await svc.inject({ method: 'GET', url: '/console/api/session', headers: { host: HOST, cookie } });
  return { cookie, csrf: (session.json() as Json).csrfToken };
}

async function call(as: Caller, method: string, url: string, body?: unknown): Promise<LightMyRequestResponse> {
  // Browser targets (the SSO callback) answer JSON to a client that accepts only JSON.
  const headers: Record<string, string> = {
    host: HOST,
    'user-agent': DESKTOP_UA,
    accept: 'application/json',
    origin: `https://${HOST}`,
  };
  if (as === 'console' || as === 'fresh-console') {
    // Signing out ends the session it is called with: those probes get a session of their own.
    const session =
      as === 'console'
        ? bConsole
        : await consoleSession(b.id, `bbb-${Math.random().toString(36).slice(2)}@example.com`);
    headers.cookie = session.cookie;
    headers['x-csrf-token'] = session.csrf;
  }
  if (as === 'service') headers['x-api-key'] = b.apiKey;
  if (as === 'mobile' || as === 'browser') headers['x-app-id'] = String(b.ios.id);
  if (as === 'mobile') headers['x-mobile-app-api-key'] = b.ios.apiKey;
  if (as === 'anonymous') {
    // The operator API with B's credentials (B is not the operator).
    headers.authorization = `Bearer ${b.apiKey}`;
    headers['x-api-key'] = b.apiKey;
  }
  return svc.inject({
    method: method as 'GET',
    url,
    headers,
    remoteAddress: PHONE_IP,
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

// ---- what each operation is, and how B exercises it ----------------------------------------

/**
 * - byId: takes one of A's ids in its path or query: 404 with the error body;
 * - refersTo: a body names one of A's resources (an app, a domain, a session): refused with the
 *   error body exactly as the same request naming a resource that does not exist (so the answer
 *   tells B nothing, not even that the id exists);
 * - capability: keyed by a deep-link token, a 143-bit secret that only the phone's landing page
 *   holds; the caller's app id plays no part, so B's credentials change nothing: nothing of A;
 * - list: lists, searches or aggregates B's own data: 200, none of A's ids or names, and in
 *   statistics (B has no activity) every count is 0;
 * - operator: the operator API: B's credentials are refused (401), nothing of A;
 * - public: not tenant data (health, version), or B's own (a new app, B's own user of the same
 *   external id): nothing of A.
 * In every answer none of A's names, codes, keys or ids appears, unless B sent it itself.
 */
type Kind = 'byId' | 'refersTo' | 'capability' | 'list' | 'operator' | 'public';

interface Probe {
  as: Caller;
  url: () => string;
  body?: () => unknown;
  /** refersTo: the same request naming a resource that does not exist. */
  unknown?: { url: () => string; body?: () => unknown };
}

interface Operation {
  kind: Kind;
  probes: Probe[];
  /** For lists: the A ids that must not be listed (checked against every `id` in the answer). */
  aIds?: () => number[];
  /** Statistics: B has no activity, so every count B sees is 0. */
  zeroCounts?: boolean;
}

const S = '/api/v1/service';
const J = '/api/v1/cross-platform';
const M = '/api/v1/sdk/mobile';
const W = '/api/v1/sdk/web';
const ADM = '/api/admin/v1';
const one = (as: Caller, url: () => string, body?: () => unknown): Probe[] => [{ as, url, ...(body ? { body } : {}) }];
/** A request whose body names A's resource, and the same naming one that does not exist. */
const naming = (as: Caller, url: () => string, body: (id: 'a' | 'none') => unknown): Probe[] => [
  { as, url, body: () => body('a'), unknown: { url, body: () => body('none') } },
];
/** A's member's sessions: in A's organization, and B's owner in B's own organization naming A's member. */
const memberSessionProbes = (): Probe[] => [
  ...one('console', () => `/console/api/organizations/${a.id}/members/${a.memberId}/sessions`),
  ...one('console', () => `/console/api/organizations/${b.id}/members/${a.memberId}/sessions`),
];
const NONE = 987_654_321;
const NONE_TEXT = 'no-such-thing-0000';
const today = new Date().toISOString().slice(0, 10);
const range = `startDate=${new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10)}&endDate=${today}`;

const OPERATIONS: Record<string, Operation> = {
  // Operations
  'GET /healthz': { kind: 'public', probes: one('anonymous', () => '/healthz') },
  // The console: B's owner, signed in, naming A's organization.
  'GET /console/api/session': { kind: 'list', probes: one('console', () => '/console/api/session') },
  'PUT /console/api/me/language': {
    kind: 'public',
    probes: one(
      'console',
      () => '/console/api/me/language',
      () => ({ language: 'en' }),
    ),
  },
  'GET /console/api/me/sessions': {
    kind: 'list',
    probes: one('console', () => '/console/api/me/sessions'),
    aIds: () => [a.memberSessionId],
  },
  'DELETE /console/api/me/sessions/{sessionId}': {
    kind: 'byId',
    probes: one('console', () => `/console/api/me/sessions/${a.memberSessionId}`),
  },
  'GET /console/api/organizations/{orgId}/members/{userId}/sessions': {
    kind: 'byId',
    probes: memberSessionProbes(),
  },
  'DELETE /console/api/organizations/{orgId}/members/{userId}/sessions': {
    kind: 'byId',
    probes: memberSessionProbes(),
  },
  'GET /console/api/organizations/{orgId}/members': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/members`),
  },
  'POST /console/api/organizations/{orgId}/members': {
    kind: 'byId',
    probes: one(
      'console',
      () => `/console/api/organizations/${a.id}/members`,
      () => ({ email: 'x@example.com', role: 'owner' }),
    ),
  },
  'PUT /console/api/organizations/{orgId}/members/{userId}': {
    kind: 'byId',
    probes: one(
      'console',
      () => `/console/api/organizations/${a.id}/members/${a.memberId}`,
      () => ({ role: 'analyst' }),
    ),
  },
  'DELETE /console/api/organizations/{orgId}/members/{userId}': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/members/${a.memberId}`),
  },
  'GET /console/api/organizations/{orgId}/api-keys': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/api-keys`),
  },
  'POST /console/api/organizations/{orgId}/api-keys': {
    kind: 'byId',
    probes: one(
      'console',
      () => `/console/api/organizations/${a.id}/api-keys`,
      () => ({ name: 'stolen' }),
    ),
  },
  'POST /console/api/organizations/{orgId}/api-keys/{keyId}/regenerate': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/api-keys/1/regenerate`),
  },
  'DELETE /console/api/organizations/{orgId}/api-keys/{keyId}': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/api-keys/1`),
  },
  'GET /console/api/organizations/{orgId}/ip-allowlist': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/ip-allowlist`),
  },
  'PUT /console/api/organizations/{orgId}/ip-allowlist': {
    kind: 'byId',
    probes: one(
      'console',
      () => `/console/api/organizations/${a.id}/ip-allowlist`,
      () => ({ ips: ['203.0.113.1'] }),
    ),
  },
  'POST /console/api/organizations/{orgId}/custom-domains': {
    kind: 'byId',
    probes: one(
      'console',
      () => `/console/api/organizations/${a.id}/custom-domains`,
      () => ({ domainName: 'stolen.example.com' }),
    ),
  },
  'POST /console/api/organizations/{orgId}/custom-domains/{id}/verify': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/custom-domains/${a.domain.id}/verify`),
  },
  'GET /console/api/organizations/{orgId}/audit-log': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/audit-log`),
  },
  'GET /console/api/organizations/{orgId}/webhook': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/webhook`),
  },
  'PUT /console/api/organizations/{orgId}/webhook': {
    kind: 'byId',
    probes: one(
      'console',
      () => `/console/api/organizations/${a.id}/webhook`,
      () => ({ url: 'https://hooks.bbb.example/in', events: ['click'] }),
    ),
  },
  'POST /console/api/organizations/{orgId}/webhook/secret': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/webhook/secret`),
  },
  'POST /console/api/organizations/{orgId}/webhook/test': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/webhook/test`),
  },
  'GET /console/api/organizations/{orgId}/webhook/deliveries': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/webhook/deliveries`),
  },
  // A's organization, and B's own naming A's first delivery.
  'GET /console/api/organizations/{orgId}/webhook/deliveries/{id}': {
    kind: 'byId',
    probes: [
      ...one('console', () => `/console/api/organizations/${a.id}/webhook/deliveries/1`),
      ...one('console', () => `/console/api/organizations/${b.id}/webhook/deliveries/1`),
    ],
  },
  'POST /console/api/organizations/{orgId}/webhook/deliveries/{id}/redeliver': {
    kind: 'byId',
    probes: [
      ...one('console', () => `/console/api/organizations/${a.id}/webhook/deliveries/1/redeliver`),
      ...one('console', () => `/console/api/organizations/${b.id}/webhook/deliveries/1/redeliver`),
    ],
  },
  'GET /console/api/organizations/{orgId}/goal-types': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/goal-types`),
  },
  'POST /console/api/organizations/{orgId}/goal-types': {
    kind: 'byId',
    probes: one(
      'console',
      () => `/console/api/organizations/${a.id}/goal-types`,
      () => ({ name: 'stolenGoal' }),
    ),
  },
  'DELETE /console/api/organizations/{orgId}/goal-types/{name}': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/goal-types/purchase`),
  },
  'POST /console/api/organizations/{orgId}/routing/test': {
    kind: 'byId',
    probes: one(
      'console',
      () => `/console/api/organizations/${a.id}/routing/test`,
      () => ({ originalUrl: 'https://example.com/', visitor: {} }),
    ),
  },
  'GET /console/api/organizations/{orgId}/usage': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/usage`),
  },
  'GET /console/api/organizations/{orgId}/dashboard': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/dashboard`),
  },
  'GET /console/api/organizations/{orgId}/report-subscriptions': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/report-subscriptions`),
  },
  // A's organization, and B's own naming A's link, campaign and tag.
  'POST /console/api/organizations/{orgId}/report-subscriptions': {
    kind: 'byId',
    probes: [
      ...one(
        'console',
        () => `/console/api/organizations/${a.id}/report-subscriptions`,
        () => ({ frequency: 'weekly', scope: { type: 'organization' } }),
      ),
      ...one(
        'console',
        () => `/console/api/organizations/${b.id}/report-subscriptions`,
        () => ({ frequency: 'weekly', scope: { type: 'url', id: a.url.id } }),
      ),
      ...one(
        'console',
        () => `/console/api/organizations/${b.id}/report-subscriptions`,
        () => ({ frequency: 'monthly', scope: { type: 'campaign', id: a.campaign.id } }),
      ),
      ...one(
        'console',
        () => `/console/api/organizations/${b.id}/report-subscriptions`,
        () => ({ frequency: 'weekly', scope: { type: 'tag', id: a.tag.id } }),
      ),
    ],
  },
  'DELETE /console/api/organizations/{orgId}/report-subscriptions/{id}': {
    kind: 'byId',
    probes: [
      ...one('console', () => `/console/api/organizations/${a.id}/report-subscriptions/1`),
      ...one('console', () => `/console/api/organizations/${b.id}/report-subscriptions/1`),
    ],
  },
  'GET /console/api/organizations/{orgId}/dashboard/tags': {
    kind: 'byId',
    probes: one('console', () => `/console/api/organizations/${a.id}/dashboard/tags`),
  },
  // A's organization, and B's own naming A's link.
  'GET /console/api/organizations/{orgId}/dashboard/{kind}/{id}': {
    kind: 'byId',
    probes: [
      ...one('console', () => `/console/api/organizations/${a.id}/dashboard/urls/${a.url.id}`),
      ...one('console', () => `/console/api/organizations/${b.id}/dashboard/urls/${a.url.id}`),
      ...one('console', () => `/console/api/organizations/${b.id}/dashboard/campaigns/${a.campaign.id}`),
    ],
  },
  'GET /console/api/organizations/{orgId}/dashboard/apps/{id}/export.csv': {
    kind: 'byId',
    probes: [
      ...one(
        'console',
        () => `/console/api/organizations/${a.id}/dashboard/apps/${a.ios.id}/export.csv?panel=recentInstalls`,
      ),
      ...one(
        'console',
        () => `/console/api/organizations/${b.id}/dashboard/apps/${a.ios.id}/export.csv?panel=dailyInstalls`,
      ),
    ],
  },
  'GET /console/api/organizations/{orgId}/dashboard/apps/{id}': {
    kind: 'byId',
    probes: [
      ...one('console', () => `/console/api/organizations/${a.id}/dashboard/apps/${a.ios.id}?compare=previous`),
      ...one('console', () => `/console/api/organizations/${b.id}/dashboard/apps/${a.ios.id}?compare=previous`),
    ],
  },
  'GET /console/api/organizations/{orgId}/dashboard/apps/{id}/revenue': {
    kind: 'byId',
    probes: [
      ...one('console', () => `/console/api/organizations/${a.id}/dashboard/apps/${a.ios.id}/revenue`),
      ...one('console', () => `/console/api/organizations/${b.id}/dashboard/apps/${a.ios.id}/revenue`),
    ],
  },
  'GET /console/api/organizations/{orgId}/dashboard/export.csv': {
    kind: 'byId',
    probes: [
      ...one('console', () => `/console/api/organizations/${a.id}/dashboard/export.csv?panel=topLinks`),
      ...one(
        'console',
        () => `/console/api/organizations/${b.id}/dashboard/export.csv?panel=daily&link=url:${a.url.id}`,
      ),
    ],
  },
  'POST /console/api/sign-out': { kind: 'public', probes: one('fresh-console', () => '/console/api/sign-out') },
  'POST /console/api/sign-out-everywhere': {
    kind: 'public',
    probes: one('fresh-console', () => '/console/api/sign-out-everywhere'),
  },
  'POST /console/api/sign-in/email': {
    kind: 'public',
    probes: one(
      'anonymous',
      () => '/console/api/sign-in/email',
      () => ({ email: 'aaa-secret-member@example.com' }),
    ),
  },
  // Keyed by a partner's signature: B's credentials change nothing.
  'GET /sso/callback': {
    kind: 'capability',
    probes: one('anonymous', () => '/sso/callback?token=x.y.z&client_id=spc_none'),
  },
  'GET /readyz': { kind: 'public', probes: one('anonymous', () => '/readyz') },
  // Whether a host name is served is what visiting it shows anyway; it names no organization.
  'GET /api/tls/ask': { kind: 'public', probes: one('anonymous', () => `/api/tls/ask?domain=${HOST}`) },
  'GET /api/v1/sdk/web/version': { kind: 'public', probes: one('browser', () => `${W}/version`) },

  // Service API
  'GET /api/v1/service/usage': { kind: 'list', probes: one('service', () => `${S}/usage`) },
  'POST /api/v1/service/imports': {
    kind: 'public',
    probes: one(
      'service',
      () => `${S}/imports`,
      () => ({ source: 'kutt', token: 'bbb-import-token' }),
    ),
  },
  'GET /api/v1/service/imports': {
    kind: 'list',
    probes: one('service', () => `${S}/imports`),
    aIds: () => [a.importJob.id],
  },
  'GET /api/v1/service/imports/{id}': { kind: 'byId', probes: one('service', () => `${S}/imports/${a.importJob.id}`) },
  'POST /api/v1/service/imports/{id}/cancel': {
    kind: 'byId',
    probes: one('service', () => `${S}/imports/${a.importJob.id}/cancel`),
  },
  'POST /api/v1/service/urls': {
    kind: 'refersTo',
    probes: [
      ...naming(
        'service',
        () => `${S}/urls`,
        (w) => ({ url: 'https://b.example/x', iosAppId: w === 'a' ? a.ios.id : NONE }),
      ),
      ...naming(
        'service',
        () => `${S}/urls`,
        (w) => ({
          url: 'https://b.example/x',
          customDomainName: w === 'a' ? a.domain.domainName : 'links.none.example',
        }),
      ),
    ],
  },
  'GET /api/v1/service/urls': {
    kind: 'list',
    aIds: () => [a.url.id, a.deepLink.id],
    probes: [
      ...one('service', () => `${S}/urls?size=100`),
      ...one('service', () => `${S}/urls?keyword=${encodeURIComponent(a.url.shortCode)}`),
      ...one('service', () => `${S}/urls?keyword=aaa-secret`),
    ],
  },
  'GET /api/v1/service/urls/{id}': { kind: 'byId', probes: one('service', () => `${S}/urls/${a.url.id}`) },
  'GET /api/v1/service/urls/export': {
    kind: 'list',
    probes: [
      ...one('service', () => `${S}/urls/export`),
      ...one('service', () => `${S}/urls/export?tag=aaa-secret-tag`),
    ],
  },
  'GET /api/v1/service/campaigns/export': { kind: 'list', probes: one('service', () => `${S}/campaigns/export`) },
  // B's own links; naming A's ids changes nothing of A's (each id answers 404 as an item).
  'POST /api/v1/service/urls/bulk': {
    kind: 'public',
    probes: one(
      'service',
      () => `${S}/urls/bulk`,
      () => ({ items: [{ url: 'https://b.example/bulk' }] }),
    ),
  },
  'PATCH /api/v1/service/urls/bulk': {
    kind: 'public',
    probes: one(
      'service',
      () => `${S}/urls/bulk`,
      () => ({ ids: [a.url.id, a.deepLink.id], addTags: ['hijacked'], archived: true }),
    ),
  },
  'DELETE /api/v1/service/urls/bulk': {
    kind: 'public',
    probes: one(
      'service',
      () => `${S}/urls/bulk`,
      () => ({ ids: [a.url.id, a.deepLink.id] }),
    ),
  },
  // The key's own organization's webhook: B sets its own first and removes it last; A's deliveries
  // by id are 404, and nothing of A's endpoint or deliveries shows in B's.
  'PUT /api/v1/service/webhook': {
    kind: 'public',
    probes: one(
      'service',
      () => `${S}/webhook`,
      () => ({ url: 'https://hooks.bbb.example/service', events: ['click'] }),
    ),
  },
  'GET /api/v1/service/webhook': { kind: 'list', probes: one('service', () => `${S}/webhook`) },
  'POST /api/v1/service/webhook/secret': { kind: 'public', probes: one('service', () => `${S}/webhook/secret`) },
  'POST /api/v1/service/webhook/test': { kind: 'public', probes: one('service', () => `${S}/webhook/test`) },
  'GET /api/v1/service/webhook/deliveries': { kind: 'list', probes: one('service', () => `${S}/webhook/deliveries`) },
  'GET /api/v1/service/webhook/deliveries/{id}': {
    kind: 'byId',
    probes: one('service', () => `${S}/webhook/deliveries/1`),
  },
  'POST /api/v1/service/webhook/deliveries/{id}/redeliver': {
    kind: 'byId',
    probes: one('service', () => `${S}/webhook/deliveries/1/redeliver`),
  },
  'DELETE /api/v1/service/webhook': { kind: 'public', probes: one('service', () => `${S}/webhook`) },
  'GET /api/v1/service/tags': {
    kind: 'list',
    aIds: () => [a.tag.id],
    probes: one('service', () => `${S}/tags`),
  },
  'POST /api/v1/service/tags': {
    kind: 'public',
    probes: one(
      'service',
      () => `${S}/tags`,
      () => ({ name: 'aaa-secret-tag' }),
    ),
  },
  'PUT /api/v1/service/tags/{id}': {
    kind: 'byId',
    probes: one(
      'service',
      () => `${S}/tags/${a.tag.id}`,
      () => ({ name: 'hijacked' }),
    ),
  },
  'DELETE /api/v1/service/tags/{id}': { kind: 'byId', probes: one('service', () => `${S}/tags/${a.tag.id}`) },
  'PUT /api/v1/service/urls/{id}': {
    kind: 'byId',
    probes: one(
      'service',
      () => `${S}/urls/${a.url.id}`,
      () => ({ title: 'hijacked' }),
    ),
  },
  'DELETE /api/v1/service/urls/{id}': { kind: 'byId', probes: one('service', () => `${S}/urls/${a.url.id}`) },
  'GET /api/v1/service/urls/{id}/qr': { kind: 'byId', probes: one('service', () => `${S}/urls/${a.url.id}/qr`) },
  'POST /api/v1/service/campaigns': {
    kind: 'refersTo',
    probes: [
      ...naming(
        'service',
        () => `${S}/campaigns`,
        (w) => ({
          name: 'B steals',
          originalUrl: 'https://b.example/c',
          androidAppId: w === 'a' ? a.android.id : NONE,
        }),
      ),
      ...naming(
        'service',
        () => `${S}/campaigns`,
        (w) => ({
          name: 'B steals',
          originalUrl: 'https://b.example/c',
          customDomainName: w === 'a' ? a.domain.domainName : 'links.none.example',
        }),
      ),
    ],
  },
  'GET /api/v1/service/campaigns': {
    kind: 'list',
    aIds: () => [a.campaign.id],
    probes: [
      ...one('service', () => `${S}/campaigns?size=100`),
      ...one('service', () => `${S}/campaigns?search=${encodeURIComponent(a.campaign.alias)}`),
    ],
  },
  'GET /api/v1/service/campaigns/{id}': {
    kind: 'byId',
    probes: one('service', () => `${S}/campaigns/${a.campaign.id}`),
  },
  'PUT /api/v1/service/campaigns/{id}': {
    kind: 'byId',
    probes: one(
      'service',
      () => `${S}/campaigns/${a.campaign.id}`,
      () => ({ name: 'hijacked' }),
    ),
  },
  'DELETE /api/v1/service/campaigns/{id}': {
    kind: 'byId',
    probes: one('service', () => `${S}/campaigns/${a.campaign.id}`),
  },
  'POST /api/v1/service/mobile-apps': {
    kind: 'public',
    probes: one(
      'service',
      () => `${S}/mobile-apps`,
      () => ({ platform: 'ANDROID', appName: 'B second', bundleId: 'com.bbb.second' }),
    ),
  },
  'GET /api/v1/service/mobile-apps': {
    kind: 'list',
    aIds: () => [a.ios.id, a.android.id],
    probes: [
      ...one('service', () => `${S}/mobile-apps?size=100`),
      ...one('service', () => `${S}/mobile-apps?search=${encodeURIComponent('Aaa Secret')}`),
    ],
  },
  'GET /api/v1/service/mobile-apps/{id}': {
    kind: 'byId',
    probes: one('service', () => `${S}/mobile-apps/${a.ios.id}`),
  },
  'PUT /api/v1/service/mobile-apps/{id}': {
    kind: 'byId',
    probes: one(
      'service',
      () => `${S}/mobile-apps/${a.ios.id}`,
      () => ({ appName: 'hijacked' }),
    ),
  },
  'DELETE /api/v1/service/mobile-apps/{id}': {
    kind: 'byId',
    probes: one('service', () => `${S}/mobile-apps/${a.android.id}`),
  },
  'POST /api/v1/service/mobile-apps/{id}/api-key': {
    kind: 'byId',
    probes: one('service', () => `${S}/mobile-apps/${a.ios.id}/api-key`),
  },
  'POST /api/v1/service/mobile-apps/{id}/identity-verification': {
    kind: 'byId',
    probes: one('service', () => `${S}/mobile-apps/${a.ios.id}/identity-verification`),
  },
  'DELETE /api/v1/service/mobile-apps/{id}/identity-verification': {
    kind: 'byId',
    probes: one('service', () => `${S}/mobile-apps/${a.ios.id}/identity-verification`),
  },
  'GET /api/v1/service/custom-domains': {
    kind: 'list',
    aIds: () => [a.domain.id],
    probes: [
      ...one('service', () => `${S}/custom-domains?size=100`),
      ...one('service', () => `${S}/custom-domains?search=aaa-secret`),
    ],
  },
  'GET /api/v1/service/custom-domains/verified': {
    kind: 'list',
    aIds: () => [a.domain.id],
    probes: one('service', () => `${S}/custom-domains/verified`),
  },
  'GET /api/v1/service/custom-domains/{id}': {
    kind: 'byId',
    probes: one('service', () => `${S}/custom-domains/${a.domain.id}`),
  },
  'POST /api/v1/service/custom-domains/{id}/deletion-request': {
    kind: 'byId',
    probes: [
      ...one('service', () => `${S}/custom-domains/${a.domain.id}/deletion-request`),
      ...one('console', () => `/console/api/organizations/${b.id}/custom-domains/${a.domain.id}/deletion-request`),
    ],
  },
  'DELETE /api/v1/service/custom-domains/{id}/deletion-request': {
    kind: 'byId',
    probes: one('service', () => `${S}/custom-domains/${a.domain.id}/deletion-request`),
  },
  'GET /api/v1/service/urls/{id}/stats': {
    kind: 'byId',
    probes: one('service', () => `${S}/urls/${a.url.id}/stats?${range}`),
  },
  'POST /api/v1/service/urls/{id}/share': { kind: 'byId', probes: one('service', () => `${S}/urls/${a.url.id}/share`) },
  'DELETE /api/v1/service/urls/{id}/share': {
    kind: 'byId',
    probes: one('service', () => `${S}/urls/${a.url.id}/share`),
  },
  'GET /api/v1/service/campaigns/{id}/stats': {
    kind: 'byId',
    probes: one('service', () => `${S}/campaigns/${a.campaign.id}/stats?${range}`),
  },
  'GET /api/v1/service/urls/{id}/app-install-stats': {
    kind: 'byId',
    probes: one('service', () => `${S}/urls/${a.deepLink.id}/app-install-stats?${range}`),
  },
  'GET /api/v1/service/campaigns/{id}/app-install-stats': {
    kind: 'byId',
    probes: one('service', () => `${S}/campaigns/${a.campaign.id}/app-install-stats?${range}`),
  },
  'GET /api/v1/service/mobile-apps/{id}/install-stats': {
    kind: 'byId',
    probes: one('service', () => `${S}/mobile-apps/${a.ios.id}/install-stats?${range}`),
  },
  'GET /api/v1/service/mobile-apps/{id}/deferred-match-stats': {
    kind: 'byId',
    probes: one('service', () => `${S}/mobile-apps/${a.ios.id}/deferred-match-stats?${range}`),
  },
  'GET /api/v1/service/users': {
    kind: 'list',
    probes: [
      ...one('service', () => `${S}/users?email=${encodeURIComponent(a.userEmail)}`),
      ...one('service', () => `${S}/users?phone=01012345678`),
    ],
  },
  'GET /api/v1/service/users/{externalUserId}': {
    kind: 'byId',
    probes: one('service', () => `${S}/users/${a.userId}`),
  },
  'GET /api/v1/service/users/{externalUserId}/consent-history': {
    kind: 'byId',
    probes: one('service', () => `${S}/users/${a.userId}/consent-history`),
  },

  // User journey: B's app against A's sessions
  'POST /api/v1/cross-platform/session/create': {
    kind: 'refersTo',
    probes: [
      ...naming(
        'mobile',
        () => `${J}/session/create`,
        (w) => ({ platform: 'IOS', urlId: w === 'a' ? a.url.id : NONE }),
      ),
      ...naming(
        'mobile',
        () => `${J}/session/create`,
        (w) => ({ platform: 'IOS', campaignId: w === 'a' ? a.campaign.id : NONE }),
      ),
    ],
  },
  'GET /api/v1/cross-platform/session/{sessionId}': {
    kind: 'byId',
    probes: one('mobile', () => `${J}/session/${a.sessionIds[0]}`),
  },
  'POST /api/v1/cross-platform/session/{sessionId}/link-user': {
    kind: 'byId',
    probes: one(
      'mobile',
      () => `${J}/session/${a.sessionIds[0]}/link-user`,
      () => ({ externalUserId: 'b-user' }),
    ),
  },
  'POST /api/v1/cross-platform/session/register-fplink': {
    kind: 'refersTo',
    probes: [
      ...naming(
        'mobile',
        () => `${J}/session/register-fplink`,
        (w) => ({ sessionId: w === 'a' ? a.sessionIds[0] : NONE_TEXT, shortCode: 'zzzzzzz' }),
      ),
    ],
  },
  'POST /api/v1/cross-platform/session/event': {
    kind: 'refersTo',
    probes: naming(
      'mobile',
      () => `${J}/session/event`,
      (w) => ({ sessionId: w === 'a' ? a.sessionIds[0] : NONE_TEXT, eventType: 'page_view' }),
    ),
  },
  'GET /api/v1/cross-platform/session/{sessionId}/events': {
    kind: 'byId',
    probes: one('mobile', () => `${J}/session/${a.sessionIds[0]}/events`),
  },
  'POST /api/v1/cross-platform/session/transition': {
    kind: 'refersTo',
    probes: naming(
      'mobile',
      () => `${J}/session/transition`,
      (w) => ({ sessionId: w === 'a' ? a.sessionIds[0] : NONE_TEXT, fromPlatform: 'WEB', toPlatform: 'IOS' }),
    ),
  },
  'GET /api/v1/cross-platform/session/{sessionId}/transitions': {
    kind: 'byId',
    probes: one('mobile', () => `${J}/session/${a.sessionIds[0]}/transitions`),
  },
  'POST /api/v1/cross-platform/session/funnel/track': {
    kind: 'refersTo',
    probes: naming(
      'mobile',
      () => `${J}/session/funnel/track`,
      (w) => ({ sessionId: w === 'a' ? a.sessionIds[0] : NONE_TEXT, stage: 'GOAL_COMPLETED' }),
    ),
  },
  // Identity is per organization: B identifying A's external id makes B's own user, nothing of A's.
  'POST /api/v1/cross-platform/identify': {
    kind: 'public',
    probes: one(
      'mobile',
      () => `${J}/identify`,
      () => ({ externalUserId: a.userId }),
    ),
  },
  'POST /api/v1/cross-platform/opt-in': {
    kind: 'public',
    probes: one(
      'mobile',
      () => `${J}/opt-in`,
      () => ({ externalUserId: a.userId, smsOptIn: false }),
    ),
  },
  ...Object.fromEntries(
    [
      'dashboard',
      'summary',
      'daily',
      'sessions/summary',
      'sessions/by-platform',
      'sessions/by-utm-source',
      'sessions/list',
      'transitions/summary',
      'transitions/trend',
    ].map((name) => [
      `GET /api/v1/cross-platform/stats/${name}`,
      {
        kind: 'list' as const,
        zeroCounts: true,
        probes: [
          ...one('mobile', () => `${J}/stats/${name}?${range}`),
          ...one('service', () => `${J}/stats/${name}?${range}`),
        ],
      },
    ]),
  ),

  // Mobile SDK: B's app against A's domains, links, campaigns and tokens
  'GET /api/v1/sdk/mobile/custom-domains': {
    kind: 'list',
    aIds: () => [a.domain.id],
    probes: [
      ...one('mobile', () => `${M}/custom-domains?size=100`),
      ...one('mobile', () => `${M}/custom-domains?search=aaa-secret`),
    ],
  },
  'GET /api/v1/sdk/mobile/custom-domains/verified': {
    kind: 'list',
    aIds: () => [a.domain.id],
    probes: one('mobile', () => `${M}/custom-domains/verified`),
  },
  'GET /api/v1/sdk/mobile/custom-domains/{id}': {
    kind: 'byId',
    probes: one('mobile', () => `${M}/custom-domains/${a.domain.id}`),
  },
  'POST /api/v1/sdk/mobile/custom-domains/{id}/verify': {
    kind: 'byId',
    probes: one('mobile', () => `${M}/custom-domains/${a.domain.id}/verify`),
  },
  'GET /api/v1/sdk/mobile/deeplink/match': {
    kind: 'byId',
    probes: one('mobile', () => `${M}/deeplink/match?token=${a.token}`),
  },
  // The same phone as A's click: B's app must not be handed A's deferred deep link.
  'GET /api/v1/sdk/mobile/deeplink/resolve-fingerprint': {
    kind: 'list',
    probes: one(
      'mobile',
      () =>
        `${M}/deeplink/resolve-fingerprint?${new URLSearchParams({ userAgent: IPHONE_UA, ipAddress: PHONE_IP, resolution: '390x844' })}`,
    ),
  },
  'GET /api/v1/sdk/mobile/deeplink/resolve-shorturl/{code}': {
    kind: 'byId',
    probes: one('mobile', () => `${M}/deeplink/resolve-shorturl/${a.deepLink.shortCode}`),
  },
  'GET /api/v1/sdk/mobile/deeplink/resolve-shorturl/{appPath}/{code}': {
    kind: 'byId',
    probes: [
      ...one('mobile', () => `${M}/deeplink/resolve-shorturl/${a.ios.path}/${a.deepLink.shortCode}`),
      ...one('mobile', () => `${M}/deeplink/resolve-shorturl/${b.ios.path}/${a.deepLink.shortCode}`),
    ],
  },
  'GET /api/v1/sdk/mobile/deeplink/resolve-campaign/{alias}': {
    kind: 'byId',
    probes: one('mobile', () => `${M}/deeplink/resolve-campaign/${a.campaign.alias}`),
  },
  'GET /api/v1/sdk/mobile/deeplink/resolve-campaign/{appPath}/{alias}': {
    kind: 'byId',
    probes: [
      ...one('mobile', () => `${M}/deeplink/resolve-campaign/${a.ios.path}/${a.campaign.alias}`),
      ...one('mobile', () => `${M}/deeplink/resolve-campaign/${b.ios.path}/${a.campaign.alias}`),
    ],
  },
  'POST /api/v1/sdk/mobile/deeplink/funnel/track': {
    kind: 'refersTo',
    probes: naming(
      'mobile',
      () => `${M}/deeplink/funnel/track`,
      (w) => ({ sessionId: a.token, stage: 'APP_INSTALLED', urlId: w === 'a' ? a.deepLink.id : NONE }),
    ),
  },
  'POST /api/v1/sdk/mobile/clicks/url': {
    kind: 'refersTo',
    probes: naming(
      'mobile',
      () => `${M}/clicks/url`,
      (w) => ({ shortCode: w === 'a' ? a.url.shortCode : 'zzzzzzz' }),
    ),
  },
  'POST /api/v1/sdk/mobile/clicks/campaign': {
    kind: 'refersTo',
    probes: naming(
      'mobile',
      () => `${M}/clicks/campaign`,
      (w) => ({ campaignAlias: w === 'a' ? a.campaign.alias : NONE_TEXT }),
    ),
  },
  'POST /api/v1/sdk/mobile/links/{shortCode}/associations': {
    kind: 'byId',
    probes: one(
      'mobile',
      () => `${M}/links/${a.url.shortCode}/associations`,
      () => ({ tokenidx: 'x', identify: 'y' }),
    ),
  },
  'POST /api/v1/sdk/mobile/links/{appPath}/{shortCode}/associations': {
    kind: 'byId',
    probes: [
      ...one(
        'mobile',
        () => `${M}/links/${a.ios.path}/${a.deepLink.shortCode}/associations`,
        () => ({ tokenidx: 'x', identify: 'y' }),
      ),
    ],
  },

  // Web SDK: a browser naming B's app, with A's deep-link token
  'POST /api/v1/sdk/web/deeplink/update-fingerprint': {
    kind: 'capability',
    probes: one(
      'browser',
      () => `${W}/deeplink/update-fingerprint`,
      () => ({ token: a.token, resolution: '390x844', appId: b.ios.id }),
    ),
  },
  'POST /api/v1/sdk/web/deeplink/track-store-visit': {
    kind: 'capability',
    probes: one(
      'browser',
      () => `${W}/deeplink/track-store-visit`,
      () => ({ token: a.token, isCampaign: false }),
    ),
  },
  'POST /api/v1/sdk/web/deeplink/debug-scheme': {
    kind: 'capability',
    probes: one(
      'browser',
      () => `${W}/deeplink/debug-scheme`,
      () => ({ token: a.token, appId: b.ios.id, appScheme: 'x' }),
    ),
  },
  'GET /api/v1/sdk/web/deeplink/resolve': {
    kind: 'byId',
    probes: one('browser', () => `${W}/deeplink/resolve?token=${a.token}`),
  },
  'POST /api/v1/sdk/web/campaign-deep-link/update-fingerprint': {
    kind: 'capability',
    probes: one(
      'browser',
      () => `${W}/campaign-deep-link/update-fingerprint`,
      () => ({ token: a.token, resolution: '390x844', appId: b.ios.id }),
    ),
  },
};

// The operator API: B's credentials are never the operator's.
const OPERATOR_OPS: Record<string, () => string> = {
  'POST /api/admin/v1/organizations': () => `${ADM}/organizations`,
  'GET /api/admin/v1/organizations/{orgId}': () => `${ADM}/organizations/${a.id}`,
  'POST /api/admin/v1/organizations/{orgId}/api-keys': () => `${ADM}/organizations/${a.id}/api-keys`,
  'DELETE /api/admin/v1/organizations/{orgId}/api-keys/{keyId}': () => `${ADM}/organizations/${a.id}/api-keys/1`,
  'PUT /api/admin/v1/organizations/{orgId}/plan': () => `${ADM}/organizations/${a.id}/plan`,
  'PUT /api/admin/v1/organizations/{orgId}/add-ons': () => `${ADM}/organizations/${a.id}/add-ons`,
  'PUT /api/admin/v1/organizations/{orgId}/language': () => `${ADM}/organizations/${a.id}/language`,
  'PUT /api/admin/v1/organizations/{orgId}/ip-allowlist': () => `${ADM}/organizations/${a.id}/ip-allowlist`,
  'PUT /api/admin/v1/organizations/{orgId}/time-zone': () => `${ADM}/organizations/${a.id}/time-zone`,
  'POST /api/admin/v1/organizations/{orgId}/custom-domains': () => `${ADM}/organizations/${a.id}/custom-domains`,
  'PUT /api/admin/v1/custom-domains/{id}/status': () => `${ADM}/custom-domains/${a.domain.id}/status`,
  'GET /api/admin/v1/custom-domains': () => `${ADM}/custom-domains`,
  'GET /api/admin/v1/custom-domains/{id}': () => `${ADM}/custom-domains/${a.domain.id}`,
  'DELETE /api/admin/v1/custom-domains/{id}': () => `${ADM}/custom-domains/${a.domain.id}`,
  'GET /api/admin/v1/organizations': () => `${ADM}/organizations`,
  'GET /api/admin/v1/organizations/{orgId}/api-keys': () => `${ADM}/organizations/${a.id}/api-keys`,
  'GET /api/admin/v1/organizations/{orgId}/api-keys/{keyId}': () => `${ADM}/organizations/${a.id}/api-keys/1`,
  'PUT /api/admin/v1/custom-domains/{id}/fallback-url': () => `${ADM}/custom-domains/${a.domain.id}/fallback-url`,
  'PUT /api/admin/v1/organizations/{orgId}/webhook': () => `${ADM}/organizations/${a.id}/webhook`,
  'GET /api/admin/v1/organizations/{orgId}/webhook': () => `${ADM}/organizations/${a.id}/webhook`,
  'GET /api/admin/v1/organizations/{orgId}/webhook/deliveries': () => `${ADM}/organizations/${a.id}/webhook/deliveries`,
  'GET /api/admin/v1/organizations/{orgId}/webhook/deliveries/{id}': () =>
    `${ADM}/organizations/${a.id}/webhook/deliveries/1`,
  'POST /api/admin/v1/organizations/{orgId}/webhook/deliveries/{id}/redeliver': () =>
    `${ADM}/organizations/${a.id}/webhook/deliveries/1/redeliver`,
  'POST /api/admin/v1/organizations/{orgId}/webhook/test': () => `${ADM}/organizations/${a.id}/webhook/test`,
  'GET /api/admin/v1/organizations/{orgId}/notices': () => `${ADM}/organizations/${a.id}/notices`,
  'POST /api/admin/v1/partners': () => `${ADM}/partners`,
  'GET /api/admin/v1/partners': () => `${ADM}/partners`,
  'GET /api/admin/v1/partners/{clientId}': () => `${ADM}/partners/spc_none`,
  'PUT /api/admin/v1/partners/{clientId}': () => `${ADM}/partners/spc_none`,
  'DELETE /api/admin/v1/partners/{clientId}': () => `${ADM}/partners/spc_none`,
  'POST /api/admin/v1/partners/{clientId}/secret': () => `${ADM}/partners/spc_none/secret`,
  'POST /api/admin/v1/organizations/{orgId}/members': () => `${ADM}/organizations/${a.id}/members`,
  'GET /api/admin/v1/organizations/{orgId}/members': () => `${ADM}/organizations/${a.id}/members`,
  'DELETE /api/admin/v1/organizations/{orgId}/members/{userId}': () => `${ADM}/organizations/${a.id}/members/1`,
  'POST /api/admin/v1/login-links': () => `${ADM}/login-links`,
  'GET /api/admin/v1/debug-scheme-reports': () => `${ADM}/debug-scheme-reports?appId=${a.ios.id}`,
  'GET /api/admin/v1/dead-letters': () => `${ADM}/dead-letters`,
  'POST /api/admin/v1/sql': () => `${ADM}/sql`,
  'POST /api/admin/v1/organizations/{orgId}/imports': () => `${ADM}/organizations/${a.id}/imports`,
  'POST /api/admin/v1/organizations/{orgId}/imports/csv': () => `${ADM}/organizations/${a.id}/imports/csv`,
  'GET /api/admin/v1/organizations/{orgId}/imports': () => `${ADM}/organizations/${a.id}/imports`,
  'GET /api/admin/v1/organizations/{orgId}/imports/{id}': () =>
    `${ADM}/organizations/${a.id}/imports/${a.importJob.id}`,
  'POST /api/admin/v1/organizations/{orgId}/imports/{id}/cancel': () =>
    `${ADM}/organizations/${a.id}/imports/${a.importJob.id}/cancel`,
};
// A JSON body to a CSV route (the one-call import, the import job) is refused without reading anything.
for (const path of ['/urls/import', '/imports/csv']) {
  OPERATIONS[`POST /api/v1/service${path}`] = {
    kind: 'capability',
    probes: one(
      'service',
      () => `${S}${path}`,
      () => ({}),
    ),
  };
}
for (const [name, url] of Object.entries(OPERATOR_OPS)) {
  const method = name.split(' ')[0]!;
  OPERATIONS[name] = {
    kind: 'operator',
    probes: one('anonymous', url, method === 'GET' || method === 'DELETE' ? undefined : () => ({})),
  };
}

// The browser side of the session operations (web SDK API): the same probes, with B's app id alone.
const WJ = '/api/v1/sdk/web/journey';
for (const [name, op] of Object.entries(OPERATIONS)) {
  if (!name.includes(' /api/v1/cross-platform/session')) continue;
  const toWeb = (url: () => string) => () => url().replace(J, WJ);
  OPERATIONS[name.replace(' /api/v1/cross-platform/', ` ${WJ}/`)] = {
    ...op,
    probes: op.probes.map((p) => ({
      ...p,
      as: 'browser' as const,
      url: toWeb(p.url),
      ...(p.unknown ? { unknown: { ...p.unknown, url: toWeb(p.unknown.url) } } : {}),
    })),
  };
}

/**
 * Routes outside the OpenAPI document, and why none of them is tenant data reached by id: the
 * redirect is public by design (a link is its own address), the rest serve the operator or files.
 */
const UNDOCUMENTED: Record<string, string> = {
  'GET /docs': 'operator: API reference',
  'GET /docs/static/index.html': 'operator: API reference',
  'GET /docs/static/swagger-initializer.js': 'operator: API reference',
  'GET /docs*': 'operator: API reference',
  'GET /docs/json': 'operator: API reference',
  'GET /docs/yaml': 'operator: API reference',
  'GET /openapi.json': 'operator: the document this test reads',
  'GET /metrics': 'operator: Prometheus metrics, no per-organization labels',
  'GET /sdk/web/1.0.0/signpost.js': 'public file: the web SDK',
  'GET /sdk/web/CHANGELOG.md': 'public file: the web SDK changelog',
  'GET /.well-known/apple-app-site-association': 'public file per host (covered by the well-known tests)',
  'GET /.well-known/assetlinks.json': 'public file per host (covered by the well-known tests)',
  'GET /console': "the console landing page: the signed-in user's own overview (its API is probed above)",
  'GET /console/sign-in': 'the sign-in form: no data',
  'GET /console*':
    "the console app's pages (/console/…): the same files for everyone, its data comes from the API probed above",
  'GET /console/assets/{name}': "the console app's files: the same for everyone",
  'POST /console/sign-in': 'the sign-in form: answers the same for every address',
  'GET /console/auth/link': 'a one-time link: keyed by a 256-bit secret',
  'GET /console/auth/oidc': 'sends the browser to the identity provider: no data (404 while it is not configured)',
  'GET /console/auth/oidc/callback':
    "the identity provider's answer: signs in only the account of the verified email it names (test/oidc-sign-in.test.ts)",
  'GET /console/shared/{token}':
    "a link's shared statistics page: keyed by a 256-bit secret (test/stats-share.test.ts)",
  'GET /console/reports/unsubscribe':
    "a report mail's unsubscribe page: keyed by a token signed with its subscription's own key (test/report-mail.test.ts)",
  'POST /console/reports/unsubscribe':
    'ends the one report subscription its signed token names (test/report-mail.test.ts)',
  'POST /console/sign-out': "ends the caller's own session",
  'POST /console/sign-out-everywhere': "ends the caller's own sessions",
  'GET /sso/consent': 'the consent page of a pending partner signup: keyed by its secret cookie',
  'POST /sso/consent': 'accepts a pending partner signup: keyed by its secret cookie',
  'GET /': "the bare root: the console's address, or a custom domain's public fallback",
  'GET /{slug}': 'the redirect: public by design',
  'GET /{appPath}/{slug}': 'the redirect: public by design',
  'POST /{slug}': "a protected link's password form: the link's own address, public by design",
  'POST /{appPath}/{slug}': "a protected link's password form: the link's own address, public by design",
};

// ---- the routes the app has ------------------------------------------------------------------

/** Every METHOD /path Fastify serves (HEAD and OPTIONS aside), from its route tree. */
function fastifyRoutes(tree: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line.replace(/\u00a0/g, ' '));
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const path = stack.join('');
    for (const method of (m[3] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      out.push(`${method} ${path}`);
    }
  }
  return out.map(shape);
}

/**
 * An operation with its parameters unnamed: find-my-way prints a parameter that routes name
 * differently as one node ("/:code|:appPath"), so routes are compared by shape.
 */
const shape = (operation: string) => operation.replace(/[:{]\w+\}?(?:\|[:{]\w+\}?)*/g, '{}');

// ---- A's data -----------------------------------------------------------------------------

async function expectCreated(res: LightMyRequestResponse, what: string): Promise<Json> {
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json() as Json;
}

async function createOrg(label: string): Promise<Org> {
  const lower = label.toLowerCase();
  const org = await svc.createOrganization(`${label} Secret Org`, 'PRO');
  await expectCreated(await svc.admin('PUT', `/organizations/${org.id}/add-ons`, { userJourney: true }), 'add-on');
  const app = async (body: Json) =>
    (await expectCreated(await svc.service('POST', '/mobile-apps', org.apiKey, body), 'app')) as Org['ios'];
  const ios = await app({
    platform: 'IOS',
    appName: `${label} Secret iOS`,
    bundleId: `com.${lower}secret.ios`,
    teamId: 'ABCDE12345',
    scheme: `${lower}secret://`,
    storeUrl: `https://apps.apple.com/app/${lower}-secret`,
  });
  const android = await app({
    platform: 'ANDROID',
    appName: `${label} Secret Android`,
    bundleId: `com.${lower}secret.android`,
    scheme: `${lower}secret://`,
  });
  return { id: org.id, apiKey: org.apiKey, ios, android };
}

async function createA(): Promise<TenantA> {
  const org = await createOrg('Aaa');
  const member = await expectCreated(
    await svc.admin('POST', `/organizations/${org.id}/members`, {
      email: 'aaa-secret-member@example.com',
      role: 'owner',
      name: 'Aaa Secret Member',
    }),
    'member',
  );
  await signedIn('aaa-secret-member@example.com');
  const [memberSession] = await svc.container.postgres.sql<{ id: number }[]>`
    select id from console_sessions where user_id = ${member.id as number}`;
  const post = async (url: string, body: Json) => expectCreated(await svc.service('POST', url, org.apiKey, body), url);
  const domainName = 'links.aaa-secret.com';
  const domain = await expectCreated(
    await svc.admin('POST', `/organizations/${org.id}/custom-domains`, { domainName }),
    'domain',
  );
  await expectCreated(
    await svc.admin('PUT', `/custom-domains/${domain.id}/status`, { status: 'VERIFIED' }),
    'domain status',
  );
  await expectCreated(
    await svc.admin('PUT', `/organizations/${org.id}/webhook`, {
      url: 'https://hooks.aaa-secret.example/in',
      secret: 'aaa-secret-webhook-signing-key',
    }),
    'webhook',
  );
  const url = await post('/urls', {
    url: 'https://aaa-secret-destination.example/landing',
    title: 'Aaa secret title',
    tags: ['aaa-secret-tag'],
  });
  const tag = ((await svc.service('GET', '/tags', org.apiKey)).json() as Json).items[0] as Json;
  const deepLink = await post('/urls', {
    url: 'https://aaa-secret-shop.example/product/42',
    iosAppId: org.ios.id,
    androidAppId: org.android.id,
    iosDeepLinkPath: 'product/42',
    androidDeepLinkPath: 'product/42',
  });
  const campaign = await post('/campaigns', {
    name: 'Aaa Secret Campaign',
    originalUrl: 'https://aaa-secret-campaign.example/sale',
    iosAppId: org.ios.id,
    customDomainName: domainName,
  });

  // Clicks: people on the short link and the campaign, and a phone on the deep link (a token).
  for (let i = 0; i < A_CLICKS; i++) {
    const res = await svc.inject({
      method: 'GET',
      url: `/${url.shortCode}`,
      headers: { host: HOST, 'user-agent': DESKTOP_UA },
      remoteAddress: `198.51.100.${i + 1}`,
    });
    expect(res.statusCode).toBe(302);
    await svc.inject({
      method: 'GET',
      url: `/${campaign.alias}?cid=aaa-secret-cid`,
      headers: { host: domainName, 'user-agent': DESKTOP_UA },
    });
  }
  const landing = await svc.inject({
    method: 'GET',
    url: `/${deepLink.shortCode}`,
    headers: { host: HOST, 'user-agent': IPHONE_UA },
    remoteAddress: PHONE_IP,
  });
  const token = /<meta name="signpost:deeplink-token" content="([^"]+)">/.exec(landing.body)?.[1];
  expect(token, landing.body.slice(0, 300)).toBeTruthy();
  await svc.inject({
    method: 'POST',
    url: `${W}/deeplink/update-fingerprint`,
    headers: { host: HOST, 'x-app-id': String(org.ios.id), 'user-agent': IPHONE_UA },
    remoteAddress: PHONE_IP,
    payload: { token, resolution: '390x844', appId: org.ios.id, userAgent: IPHONE_UA },
  });

  // An import from A's own Shlink (its address does not resolve: the job fails in the background).
  const importJob = await post('/imports', {
    source: 'shlink',
    token: 'aaa-secret-import-token',
    url: 'https://aaa-secret-shlink.example',
  });

  // Journey: sessions with events, a transition, a funnel step, an identified user.
  const journey = (path: string, body: Json) =>
    svc.inject({
      method: 'POST',
      url: `${J}${path}`,
      payload: body,
      headers: { 'x-app-id': String(org.ios.id), 'x-mobile-app-api-key': org.ios.apiKey },
    });
  const userId = 'aaa-secret-user';
  const userEmail = 'aaa.secret@aaa-secret.example';
  await expectCreated(
    await journey('/identify', {
      externalUserId: userId,
      name: 'Aaa Secretname',
      email: userEmail,
      phone: '01099998888',
      smsOptIn: true,
    }),
    'identify',
  );
  const sessionIds: string[] = [];
  for (let i = 0; i < A_SESSIONS; i++) {
    const session = await expectCreated(
      await journey('/session/create', {
        platform: 'IOS',
        utmSource: 'aaa-secret-utm',
        externalUserId: userId,
        urlId: url.id,
      }),
      'session',
    );
    sessionIds.push(session.sessionId);
    await expectCreated(
      await journey('/session/event', { sessionId: session.sessionId, eventType: 'aaa_secret_event' }),
      'event',
    );
    await expectCreated(
      await journey('/session/transition', { sessionId: session.sessionId, fromPlatform: 'WEB', toPlatform: 'IOS' }),
      'transition',
    );
    await expectCreated(
      await journey('/session/funnel/track', {
        sessionId: session.sessionId,
        stage: 'GOAL_COMPLETED',
        goalValue: 777,
        currency: 'KRW',
      }),
      'funnel',
    );
  }
  return {
    ...org,
    url,
    deepLink,
    campaign,
    domain,
    sessionIds,
    token: token!,
    userId,
    userEmail,
    importJob,
    tag,
    memberId: member.id as number,
    memberSessionId: memberSession!.id,
  };
}

// B makes many refused calls from one address: the brute-force limit is not under test here.
const svc = serviceForFile({ PUBLIC_BASE_URL: `https://${HOST}`, AUTH_FAILURE_LIMIT: '1000000' });

beforeAll(async () => {
  a = await createA();
  b = await createOrg('Bbb');
  bConsole = await consoleSession(b.id, 'bbb-owner@example.com');
  // The Service API's routes served to the console under /console/api/organizations/{orgId}/…:
  // every one of them, as B's owner naming A's organization, must answer 404.
  const known = new Set(Object.keys(OPERATIONS).map(shape));
  for (const route of fastifyRoutes(svc.container.app.printRoutes({ commonPrefix: false }))) {
    if (!/^\w+ \/console\/api\/organizations\/\{\}\/./.test(route) || known.has(route)) continue;
    const [method, path] = route.split(' ') as [string, string];
    const url = () => path.replace('{}', String(a.id)).replaceAll('{}', '1');
    OPERATIONS[route] = {
      kind: 'byId',
      probes: one('console', url, method === 'GET' || method === 'DELETE' ? undefined : () => ({})),
    };
  }
  await svc.container.events.flush();
  expect(await svc.container.bus.drain(20_000)).toBe(true);
  // A's activity is in ClickHouse: A's own statistics see it (so B's zeroes below mean something).
  await eventually(
    async () => {
      const res = await svc.service('GET', `/urls/${a.url.id}/stats?${range}`, a.apiKey);
      return res.statusCode === 200 && JSON.stringify(res.json()).includes(`${A_CLICKS}`);
    },
    20_000,
    "A's clicks in its statistics",
  );
  // A's first webhook delivery (id 1), which B's console names under B's own organization.
  await eventually(
    async () => (await svc.admin('GET', `/organizations/${a.id}/webhook/deliveries/1`)).statusCode === 200,
    20_000,
    "A's first webhook delivery",
  );
  markers = [
    a.importJob.url,
    'aaa-secret-import-token',
    'aaa-secret-tag',
    a.url.shortCode,
    a.url.originalUrl,
    a.url.title,
    a.deepLink.shortCode,
    a.deepLink.originalUrl,
    a.campaign.alias,
    a.campaign.name,
    a.campaign.originalUrl,
    a.domain.domainName,
    a.ios.appName,
    a.ios.apiKey,
    a.ios.path,
    a.android.appName,
    a.android.apiKey,
    ...a.sessionIds,
    a.token,
    a.userEmail,
    'Aaa Secretname',
    'aaa-secret',
    'Aaa Secret',
    'aaa_secret_event',
    'hooks.aaa-secret',
  ].map(String);
}, 120_000);

// ---- the run --------------------------------------------------------------------------------

/** Every value under an `id`-like key in an answer. */
function idsIn(value: unknown, out: number[] = []): number[] {
  if (Array.isArray(value)) for (const v of value) idsIn(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'id' && typeof v === 'number') out.push(v);
      else idsIn(v, out);
    }
  }
  return out;
}

const NOT_COUNTS =
  /^(page|size|number|limit|offset|totalPages|pageNumber|pageSize|numberOfElements|year|month|day|hour|week|organizationId|appId|stageOrder|dataRetentionDays)$/;

/** Numbers in a statistics answer that are counts or sums (pagination and keys aside). */
function countsIn(value: unknown, key = '', out: Array<[string, number]> = []): Array<[string, number]> {
  if (Array.isArray(value)) for (const v of value) countsIn(v, key, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) countsIn(v, k, out);
  else if (typeof value === 'number' && !NOT_COUNTS.test(key)) out.push([key, value]);
  return out;
}

describe('tenant isolation, every operation', () => {
  it('knows every route the app serves, and no route the app no longer has', async () => {
    const spec = (await svc.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const served = fastifyRoutes(svc.container.app.printRoutes({ commonPrefix: false }));
    expect(served.length).toBeGreaterThan(documented.length);
    const known = new Set([...Object.keys(OPERATIONS), ...Object.keys(UNDOCUMENTED)].map(shape));
    const unknown = [...documented.filter((op) => !(op in OPERATIONS)), ...served.filter((r) => !known.has(r))];
    expect(unknown, 'routes this test does not know how to exercise: add them to OPERATIONS').toEqual([]);
    const gone = [...Object.keys(OPERATIONS), ...Object.keys(UNDOCUMENTED)].filter((op) => !served.includes(shape(op)));
    expect(gone, 'operations in this test that the app no longer serves').toEqual([]);
  });

  it("B reaches nothing of A's: 404 by id, nothing in lists and statistics (prints the counts)", async () => {
    const leaks: string[] = [];
    let requests = 0;
    const byKind: Record<Kind, number> = { byId: 0, refersTo: 0, capability: 0, list: 0, operator: 0, public: 0 };
    for (const [name, op] of Object.entries(OPERATIONS)) {
      byKind[op.kind]++;
      const method = name.split(' ')[0]!;
      for (const probe of op.probes) {
        const url = probe.url();
        const body = probe.body?.();
        const res = await call(probe.as, method, url, body);
        requests++;
        const what = `${name} as B (${probe.as}) ${url} → ${res.statusCode}`;
        const sent = url + JSON.stringify(body ?? '');
        for (const marker of markers)
          if (res.body.includes(marker) && !sent.includes(marker))
            leaks.push(`${what}: answer contains A's "${marker}"`);
        if (res.statusCode >= 500) leaks.push(`${what}: server error ${res.body.slice(0, 200)}`);
        const json = (() => {
          try {
            return JSON.parse(res.body) as unknown;
          } catch {
            return undefined;
          }
        })();
        const isErrorBody = json !== null && typeof json === 'object' && ERROR_KEYS.every((k) => k in (json as Json));
        switch (op.kind) {
          case 'byId':
            if (res.statusCode !== 404 || !isErrorBody)
              leaks.push(`${what}: expected 404 with the error body, got ${res.body.slice(0, 200)}`);
            break;
          case 'refersTo': {
            const unknown = await call(probe.as, method, probe.unknown!.url(), probe.unknown!.body?.());
            requests++;
            const same =
              unknown.statusCode === res.statusCode &&
              isErrorBody &&
              (unknown.json() as Json).code === (json as Json).code;
            if (res.statusCode < 400 || !same)
              leaks.push(
                `${what}: expected the answer to a resource that does not exist (${unknown.statusCode} ${unknown.body.slice(0, 150)}), got ${res.body.slice(0, 200)}`,
              );
            break;
          }
          case 'capability':
            if (res.statusCode >= 400 && !isErrorBody) leaks.push(`${what}: ${res.body.slice(0, 200)}`);
            break;
          case 'operator':
            if (res.statusCode !== 401 || !isErrorBody)
              leaks.push(`${what}: expected 401, got ${res.body.slice(0, 200)}`);
            break;
          case 'list': {
            if (res.statusCode !== 200) leaks.push(`${what}: expected 200, got ${res.body.slice(0, 200)}`);
            const theirs = op.aIds?.() ?? [];
            for (const id of idsIn(json)) if (theirs.includes(id)) leaks.push(`${what}: lists A's id ${id}`);
            if (op.zeroCounts) {
              for (const [key, n] of countsIn(json))
                if (n !== 0) leaks.push(`${what}: B has no activity, yet ${key} = ${n}`);
            }
            break;
          }
          case 'public':
            if (res.statusCode >= 400) leaks.push(`${what}: ${res.body.slice(0, 200)}`);
            break;
        }
      }
    }
    const operations = Object.keys(OPERATIONS).length;
    console.log(
      `tenant isolation: ${operations} operations (${byKind.byId} by id, ${byKind.refersTo} naming A's resources in the body, ` +
        `${byKind.capability} keyed by a deep-link token, ${byKind.list} lists/statistics, ${byKind.operator} operator, ` +
        `${byKind.public} public or B's own), ${requests} requests as B, ${leaks.length} leaks`,
    );
    expect(leaks).toEqual([]);
  });

  it("A's resources are all still there and A still sees its own activity", async () => {
    for (const path of [
      `/urls/${a.url.id}`,
      `/campaigns/${a.campaign.id}`,
      `/mobile-apps/${a.ios.id}`,
      `/mobile-apps/${a.android.id}`,
      `/custom-domains/${a.domain.id}`,
      `/users/${a.userId}`,
    ]) {
      const res = await svc.service('GET', path, a.apiKey);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
    expect((await svc.service('GET', `/urls/${a.url.id}`, a.apiKey)).json().title).toBe('Aaa secret title');
    const session = await svc.inject({
      method: 'GET',
      url: `${J}/session/${a.sessionIds[0]}`,
      headers: { 'x-app-id': String(a.ios.id), 'x-mobile-app-api-key': a.ios.apiKey },
    });
    expect(session.statusCode, session.body).toBe(200);
  });
});
