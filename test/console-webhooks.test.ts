// The console's webhook settings as a member uses them, against a real receiver on loopback (the
// service runs with WEBHOOK_ALLOW_INSECURE): the signing secret made by the server and shown once,
// a signed test event, the delivery log with its attempts, redelivery, secret rotation with both
// signatures during the overlap, and the rules: role (analyst refused), tenancy (another
// organization's member sees 404), CSRF, URL and category checks, the audit trail.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { expectError, ISO_UTC } from './support/error-body.js';
import { eventually, isolate, startService, type Isolation, type TestService } from './support/service.js';
import { signedWith } from './support/webhook-signature.js';
import { type ReceivedHook, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

const BASE = 'http://localhost:8080';
const ENV = {
  PUBLIC_BASE_URL: BASE,
  WEBHOOK_ALLOW_INSECURE: '1',
  WEBHOOK_POLL_MS: '100',
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_RETRY_MAX_DELAY_MS: '800',
};
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

let receiver: WebhookReceiver;
let receiverBase: string;
let received: ReceivedHook[];

async function startReceiver(): Promise<void> {
  receiver = await startWebhookReceiver();
  ({ base: receiverBase, received } = receiver);
}

/** A delivery as the console's detail route answers it (the fields read here). */
interface Detail {
  state: string;
  attempts: number;
  lastLatencyMs: number | null;
  attemptLog: { status: number | null }[];
}

const withEvent = (eventId: string) => received.filter((r) => r.body.id === eventId);

let isolation: Isolation;
let svc: TestService;

interface Session {
  cookie: string;
  csrf: string;
}

const cookieOf = (res: LightMyRequestResponse): string =>
  /sp_session=([^;]+)/.exec(String(res.headers['set-cookie']))![1]!;

async function signIn(email: string): Promise<Session> {
  const link = await svc.admin('POST', '/login-links', { email });
  expect(link.statusCode, link.body).toBe(201);
  const url = new URL(link.json().url as string);
  const opened = await svc.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  expect(opened.statusCode).toBe(302);
  const cookie = cookieOf(opened);
  const session = await svc.inject({
    method: 'GET',
    url: '/console/api/session',
    headers: { cookie: `sp_session=${cookie}` },
  });
  return { cookie, csrf: session.json().csrfToken as string };
}

/** A console call as `who`; `csrf: false` leaves the token out. */
function call(who: Session, method: string, url: string, body?: unknown, options: { csrf?: boolean } = {}) {
  return svc.inject({
    method: method as 'GET',
    url: `/console/api${url}`,
    headers: {
      cookie: `sp_session=${who.cookie}`,
      origin: BASE,
      ...(options.csrf === false ? {} : { 'x-csrf-token': who.csrf }),
    },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

async function addMember(orgId: number, email: string, role: string): Promise<void> {
  const res = await svc.admin('POST', `/organizations/${orgId}/members`, { email, role });
  expect(res.statusCode, res.body).toBe(201);
}

let orgId: number;
let developer: Session;
let owner: Session;
let analyst: Session;
let otherOrgId: number;
let outsider: Session;
/** The signing secret shown on the first save, and after the rotation. */
let firstSecret: string;
let rotatedSecret: string;
let testEvent: { deliveryId: number; eventId: string };

const hookPath = '/hooks/console';
const W = () => `/organizations/${orgId}/webhook`;

beforeAll(async () => {
  await startReceiver();
  isolation = await isolate();
  svc = await startService(isolation, ENV);
  orgId = (await svc.createOrganization('Webhook Console Org')).id;
  otherOrgId = (await svc.createOrganization('Other Org')).id;
  await addMember(orgId, 'dev@example.com', 'developer');
  await addMember(orgId, 'owner@example.com', 'owner');
  await addMember(orgId, 'analyst@example.com', 'analyst');
  await addMember(otherOrgId, 'outsider@example.com', 'owner');
  developer = await signIn('dev@example.com');
  owner = await signIn('owner@example.com');
  analyst = await signIn('analyst@example.com');
  outsider = await signIn('outsider@example.com');
});

afterAll(async () => {
  await svc?.close();
  await isolation?.dispose();
  await receiver?.close();
});

describe(`console webhooks (${backend})`, () => {
  it('no endpoint yet: GET answers endpoint null; test and rotation say it is not configured', async () => {
    const res = await call(developer, 'GET', W());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ endpoint: null });
    expectError(await call(developer, 'POST', `${W()}/test`), 404, { code: 'WEBHOOK_NOT_CONFIGURED' });
    expectError(await call(developer, 'POST', `${W()}/secret`), 404, { code: 'WEBHOOK_NOT_CONFIGURED' });
    const log = await call(developer, 'GET', `${W()}/deliveries`);
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json()).toMatchObject({ content: [], totalElements: 0 });
  });

  it('the first save makes the signing secret and shows it once; later saves and reads never show it', async () => {
    const first = await call(developer, 'PUT', W(), {
      url: `${receiverBase}${hookPath}`,
      events: ['click', 'campaign'],
    });
    expect(first.statusCode, first.body).toBe(201);
    const saved = first.json();
    expect(saved.secret).toMatch(SECRET);
    firstSecret = saved.secret;
    expect(saved.endpoint).toEqual({
      url: `${receiverBase}${hookPath}`,
      events: ['click', 'campaign'],
      enabled: true,
      secretRotation: false,
      previousSecretValidUntil: null,
      consecutiveFailures: 0,
      disabledAt: null,
      disabledReason: null,
      updatedAt: expect.stringMatching(ISO_UTC),
    });

    const read = await call(developer, 'GET', W());
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().endpoint).toMatchObject({
      url: `${receiverBase}${hookPath}`,
      events: ['click', 'campaign'],
      enabled: true,
    });
    expect(read.body).not.toContain(firstSecret);
    expect(read.body).not.toContain('whsec_');

    const again = await call(developer, 'PUT', W(), {
      url: `${receiverBase}${hookPath}`,
      events: ['click', 'goal', 'funnel'],
      enabled: true,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().secret).toBeNull();
    expect(again.json().endpoint).toMatchObject({ events: ['click', 'goal', 'funnel'], secretRotation: false });
    expect(again.body).not.toContain('whsec_');
    // The operator sees the same endpoint.
    expect((await svc.admin('GET', `/organizations/${orgId}/webhook`)).json()).toMatchObject({
      events: ['click', 'goal', 'funnel'],
    });
  });

  it('a test event reaches the receiver, signed over the raw body with the secret shown at the first save', async () => {
    const queued = await call(developer, 'POST', `${W()}/test`);
    expect(queued.statusCode, queued.body).toBe(202);
    testEvent = queued.json();
    expect(testEvent).toEqual({ deliveryId: expect.any(Number), eventId: expect.any(String) });
    const hit = await eventually(async () => withEvent(testEvent.eventId)[0], 10_000, 'the test event at the receiver');
    expect(hit.path).toBe(hookPath);
    expect(hit.body).toMatchObject({ id: testEvent.eventId, type: 'webhook.test', organizationId: orgId });
    expect(hit.headers['x-webhook-id']).toBe(testEvent.eventId);
    expect(signedWith(hit.headers['x-signature-256'], hit.raw, firstSecret)).toBe(true);
    expect(signedWith(hit.headers['x-signature-256'], hit.raw, 'whsec_not-the-secret')).toBe(false);
    // Not a rotation: one signature.
    expect(String(hit.headers['x-signature-256']).split(',')).toHaveLength(1);
  });

  it('the delivery log shows the test delivered: attempts, status 200, latency; filtered by state; one with every attempt', async () => {
    const detail = await eventually(
      async () => {
        const res = await call(developer, 'GET', `${W()}/deliveries/${testEvent.deliveryId}`);
        const d = res.json() as Detail;
        return res.statusCode === 200 && d.state === 'succeeded' ? d : undefined;
      },
      10_000,
      'the delivery recorded as succeeded',
    );
    expect(detail).toMatchObject({
      id: testEvent.deliveryId,
      eventId: testEvent.eventId,
      eventType: 'webhook.test',
      state: 'succeeded',
      lastStatus: 200,
      lastError: null,
      nextAttemptAt: null,
      createdAt: expect.stringMatching(ISO_UTC),
      completedAt: expect.stringMatching(ISO_UTC),
      payload: { id: testEvent.eventId, type: 'webhook.test', category: 'test', organizationId: orgId },
    });
    expect(detail.attempts).toBeGreaterThanOrEqual(1);
    expect(detail.lastLatencyMs).toEqual(expect.any(Number));
    expect(detail.attemptLog).toHaveLength(detail.attempts);
    expect(detail.attemptLog[0]).toEqual({
      attempt: 1,
      startedAt: expect.stringMatching(ISO_UTC),
      url: `${receiverBase}${hookPath}`,
      status: 200,
      error: null,
      latencyMs: expect.any(Number),
      responseBody: 'ok',
    });

    const page = await call(developer, 'GET', `${W()}/deliveries?page=0&size=10`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ page: 0, size: 10, totalElements: 1, totalPages: 1, first: true, last: true });
    expect(page.json().content).toEqual([
      expect.objectContaining({
        id: testEvent.deliveryId,
        state: 'succeeded',
        lastStatus: 200,
        attempts: detail.attempts,
      }),
    ]);
    expect(page.json().content[0]).not.toHaveProperty('attemptLog');
    expect((await call(developer, 'GET', `${W()}/deliveries?state=succeeded`)).json().totalElements).toBe(1);
    expect((await call(developer, 'GET', `${W()}/deliveries?state=failed`)).json()).toMatchObject({
      content: [],
      totalElements: 0,
    });
    expectError(await call(developer, 'GET', `${W()}/deliveries?state=lost`), 400, {
      field: 'state',
      code: 'VALIDATION_FAILED',
    });
    expectError(await call(developer, 'GET', `${W()}/deliveries/987654321`), 404, {
      code: 'WEBHOOK_DELIVERY_NOT_FOUND',
    });
  });

  it('redelivery sends the same event again', async () => {
    const res = await call(developer, 'POST', `${W()}/deliveries/${testEvent.deliveryId}/redeliver`);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ id: testEvent.deliveryId, eventId: testEvent.eventId, state: 'pending' });
    const hits = await eventually(
      async () => withEvent(testEvent.eventId).length >= 2 && withEvent(testEvent.eventId),
      10_000,
      'the redelivery',
    );
    expect(hits).toHaveLength(2);
    expect(hits[1]!.headers['x-webhook-id']).toBe(testEvent.eventId);
    expect(hits[1]!.raw.equals(hits[0]!.raw)).toBe(true);
    expect(signedWith(hits[1]!.headers['x-signature-256'], hits[1]!.raw, firstSecret)).toBe(true);
    const detail = await eventually(
      async () => {
        const d = (await call(developer, 'GET', `${W()}/deliveries/${testEvent.deliveryId}`)).json() as Detail;
        return d.state === 'succeeded' && d.attemptLog.length >= 2 ? d : undefined;
      },
      10_000,
      'the second attempt recorded',
    );
    expect(detail.attemptLog.map((a) => a.status)).toEqual([200, 200]);
  });

  it('a rotation shows a new secret once; the next delivery carries both signatures, the new one first', async () => {
    const res = await call(developer, 'POST', `${W()}/secret`);
    expect(res.statusCode, res.body).toBe(200);
    rotatedSecret = res.json().secret;
    expect(rotatedSecret).toMatch(SECRET);
    expect(rotatedSecret).not.toBe(firstSecret);
    const { endpoint } = res.json();
    expect(endpoint).toMatchObject({
      url: `${receiverBase}${hookPath}`,
      events: ['click', 'goal', 'funnel'],
      enabled: true,
      secretRotation: true,
    });
    // The default overlap: 24 hours.
    const overlapHours = (Date.parse(endpoint.previousSecretValidUntil) - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);
    const read = await call(developer, 'GET', W());
    expect(read.body).not.toContain(rotatedSecret);
    expect(read.json().endpoint).toMatchObject({
      secretRotation: true,
      previousSecretValidUntil: endpoint.previousSecretValidUntil,
    });

    const queued = (await call(developer, 'POST', `${W()}/test`)).json() as { eventId: string };
    const hit = await eventually(async () => withEvent(queued.eventId)[0], 10_000, 'the event after the rotation');
    const signatures = String(hit.headers['x-signature-256']).split(',');
    expect(signatures).toHaveLength(2);
    expect(signedWith(signatures[0], hit.raw, rotatedSecret)).toBe(true);
    expect(signedWith(signatures[1], hit.raw, firstSecret)).toBe(true);

    // A save afterwards keeps the new secret (and the overlap).
    const saved = await call(developer, 'PUT', W(), {
      url: `${receiverBase}${hookPath}`,
      events: ['click', 'goal', 'funnel'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ secret: null, endpoint: { secretRotation: true } });
    const after = (await call(developer, 'POST', `${W()}/test`)).json() as { eventId: string };
    const later = await eventually(async () => withEvent(after.eventId)[0], 10_000, 'the event after the save');
    expect(signedWith(String(later.headers['x-signature-256']).split(',')[0], later.raw, rotatedSecret)).toBe(true);
  });

  it('the changes are audited with the member as actor', async () => {
    const res = await call(owner, 'GET', `/organizations/${orgId}/audit-log`);
    expect(res.statusCode, res.body).toBe(200);
    const webhookEntries = (
      res.json() as {
        action: string;
        actorType: string;
        actorUserId: number | null;
        details: Record<string, unknown>;
      }[]
    ).filter((e) => e.action.startsWith('webhook.'));
    expect(webhookEntries.map((e) => e.action)).toEqual([
      'webhook.changed',
      'webhook.secret_rotated',
      'webhook.changed',
      'webhook.changed',
    ]);
    for (const e of webhookEntries) expect(e).toMatchObject({ actorType: 'user', actorUserId: expect.any(Number) });
    expect(new Set(webhookEntries.map((e) => e.actorUserId)).size).toBe(1);
    expect(webhookEntries[1]!.details).toMatchObject({ secretChanged: true });
    expect(JSON.stringify(res.json())).not.toContain('whsec_');
  });

  it('an analyst is refused every webhook call (ROLE_FORBIDDEN)', async () => {
    const body = { url: `${receiverBase}${hookPath}`, events: ['click'] };
    const calls: [string, string, unknown?][] = [
      ['GET', W()],
      ['PUT', W(), body],
      ['POST', `${W()}/secret`],
      ['POST', `${W()}/test`],
      ['GET', `${W()}/deliveries`],
      ['GET', `${W()}/deliveries/${testEvent.deliveryId}`],
      ['POST', `${W()}/deliveries/${testEvent.deliveryId}/redeliver`],
    ];
    for (const [method, url, payload] of calls)
      expectError(await call(analyst, method, url, payload), 403, { code: 'ROLE_FORBIDDEN' });
    // Nothing changed.
    expect((await call(developer, 'GET', W())).json().endpoint.events).toEqual(['click', 'goal', 'funnel']);
  });

  it('a member of another organization gets 404 on every call naming this one; ids of this one are not found in theirs', async () => {
    const body = { url: `${receiverBase}/hooks/stolen`, events: ['click'] };
    const calls: [string, string, unknown?][] = [
      ['GET', W()],
      ['PUT', W(), body],
      ['POST', `${W()}/secret`],
      ['POST', `${W()}/test`],
      ['GET', `${W()}/deliveries`],
      ['GET', `${W()}/deliveries/${testEvent.deliveryId}`],
      ['POST', `${W()}/deliveries/${testEvent.deliveryId}/redeliver`],
    ];
    for (const [method, url, payload] of calls) {
      const res = await call(outsider, method, url, payload);
      expectError(res, 404, { code: 'ORGANIZATION_NOT_FOUND' });
      expect(res.body).not.toContain(receiverBase);
    }
    const own = `/organizations/${otherOrgId}/webhook`;
    expect((await call(outsider, 'GET', own)).json()).toEqual({ endpoint: null });
    expectError(await call(outsider, 'GET', `${own}/deliveries/${testEvent.deliveryId}`), 404, {
      code: 'WEBHOOK_DELIVERY_NOT_FOUND',
    });
    expectError(await call(outsider, 'POST', `${own}/deliveries/${testEvent.deliveryId}/redeliver`), 404, {
      code: 'WEBHOOK_DELIVERY_NOT_FOUND',
    });
    expect((await call(outsider, 'GET', `${own}/deliveries`)).json()).toMatchObject({ content: [], totalElements: 0 });
  });

  it('state changes need the CSRF token; reads do not', async () => {
    const body = { url: `${receiverBase}/hooks/csrf`, events: ['click'] };
    for (const [method, url, payload] of [
      ['PUT', W(), body],
      ['POST', `${W()}/secret`],
      ['POST', `${W()}/test`],
      ['POST', `${W()}/deliveries/${testEvent.deliveryId}/redeliver`],
    ] as const) {
      expectError(await call(developer, method, url, payload, { csrf: false }), 403, { code: 'CSRF_TOKEN_INVALID' });
    }
    expect((await call(developer, 'GET', W(), undefined, { csrf: false })).json().endpoint.url).toBe(
      `${receiverBase}${hookPath}`,
    );
    const signedOut = await svc.inject({ method: 'GET', url: `/console/api${W()}` });
    expectError(signedOut, 401, { code: 'SESSION_REQUIRED' });
  });

  it('refuses a bad URL or categories with the field at fault, and changes nothing', async () => {
    expectError(await call(developer, 'PUT', W(), { url: 'not a url', events: ['click'] }), 400, {
      field: 'url',
      code: 'VALIDATION_FAILED',
    });
    // Plain HTTP is for loopback in development only.
    expectError(await call(developer, 'PUT', W(), { url: 'http://hooks.example.com/in', events: ['click'] }), 400, {
      field: 'url',
      code: 'WEBHOOK_URL_INSECURE',
    });
    expectError(await call(developer, 'PUT', W(), { url: 'https://10.0.0.7/in', events: ['click'] }), 400, {
      field: 'url',
      code: 'WEBHOOK_URL_FORBIDDEN',
    });
    expectError(await call(developer, 'PUT', W(), { url: `${receiverBase}/x`, events: [] }), 400, {
      field: 'events',
      code: 'VALIDATION_FAILED',
    });
    expectError(await call(developer, 'PUT', W(), { url: `${receiverBase}/x`, events: ['clicks'] }), 400, {
      field: 'events',
      code: 'VALIDATION_FAILED',
    });
    expectError(await call(developer, 'PUT', W(), { url: `${receiverBase}/x` }), 400, {
      field: 'events',
      code: 'VALIDATION_FAILED',
    });
    expect((await call(developer, 'GET', W())).json().endpoint).toMatchObject({
      url: `${receiverBase}${hookPath}`,
      events: ['click', 'goal', 'funnel'],
    });
  });

  it('a disabled endpoint takes no test event; enabling it again does', async () => {
    const own = `/organizations/${otherOrgId}/webhook`;
    const saved = await call(outsider, 'PUT', own, {
      url: `${receiverBase}/hooks/other`,
      events: ['session'],
      enabled: false,
    });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json()).toMatchObject({
      secret: expect.stringMatching(SECRET),
      endpoint: { enabled: false, disabledAt: expect.stringMatching(ISO_UTC) },
    });
    expectError(await call(outsider, 'POST', `${own}/test`), 409, { code: 'WEBHOOK_DISABLED' });
    const enabled = await call(outsider, 'PUT', own, {
      url: `${receiverBase}/hooks/other`,
      events: ['session'],
      enabled: true,
    });
    expect(enabled.json()).toMatchObject({ secret: null, endpoint: { enabled: true, disabledAt: null } });
    const queued = await call(outsider, 'POST', `${own}/test`);
    expect(queued.statusCode, queued.body).toBe(202);
    const hit = await eventually(
      async () => withEvent(queued.json().eventId)[0],
      10_000,
      "the other organization's test event",
    );
    expect(hit).toMatchObject({ path: '/hooks/other', body: { organizationId: otherOrgId } });
    expect(signedWith(hit.headers['x-signature-256'], hit.raw, saved.json().secret)).toBe(true);
    expect(signedWith(hit.headers['x-signature-256'], hit.raw, rotatedSecret)).toBe(false);
  });
});
