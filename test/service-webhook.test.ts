// The organization's webhook through the Service API, against a real receiver on loopback (the
// service runs with WEBHOOK_ALLOW_INSECURE): a full key sets it (the secret shown once), sends a
// signed test event, reads the log, redelivers, rotates the secret and removes the endpoint; a
// `read` key reads and is refused every change; a key of another resource is refused naming
// webhooks:read; another organization's delivery is not found; an unsafe URL is refused with the
// field at fault.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { expectError } from './support/error-body.js';
import { eventually, isolate, startService, type Isolation, type TestService } from './support/service.js';
import { signedWith } from './support/webhook-signature.js';
import { type ReceivedHook, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

const ENV = { WEBHOOK_ALLOW_INSECURE: '1', WEBHOOK_POLL_MS: '100' };
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

let receiver: WebhookReceiver;
let received: ReceivedHook[];
let hookUrl: string;

let isolation: Isolation;
let svc: TestService;
let org: { id: number; apiKey: string };
let other: { id: number; apiKey: string };

const issue = async (orgId: number, scopes: string[]) => {
  const res = await svc.admin('POST', `/organizations/${orgId}/api-keys`, { scopes });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().apiKey as string;
};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  received = receiver.received;
  hookUrl = `${receiver.base}/hooks/service`;
  isolation = await isolate();
  svc = await startService(isolation, ENV);
  org = await svc.createOrganization('Hooked');
  other = await svc.createOrganization('Other');
});

afterAll(async () => {
  await svc?.close();
  await isolation?.dispose();
  await receiver?.close();
});

describe(`the webhook through the Service API (${backend})`, () => {
  let secret: string;
  let test: { deliveryId: number; eventId: string };

  it('a full key sets the endpoint, its secret shown once, and sends a signed test event', async () => {
    expect((await svc.service('GET', '/webhook', org.apiKey)).json()).toEqual({ endpoint: null });

    const first = await svc.service('PUT', '/webhook', org.apiKey, { url: hookUrl, events: ['click', 'campaign'] });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().endpoint).toMatchObject({ url: hookUrl, events: ['click', 'campaign'], enabled: true });
    secret = first.json().secret;
    expect(secret).toMatch(SECRET);

    const again = await svc.service('PUT', '/webhook', org.apiKey, { url: hookUrl, events: ['click'] });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().secret).toBeNull();
    const read = await svc.service('GET', '/webhook', org.apiKey);
    expect(read.json().endpoint).toMatchObject({ url: hookUrl, events: ['click'] });
    expect(read.body).not.toContain('whsec_');

    const sent = await svc.service('POST', '/webhook/test', org.apiKey);
    expect(sent.statusCode, sent.body).toBe(202);
    test = sent.json();
    const hit = await eventually(async () => received.find((r) => r.body.id === test.eventId), 10_000, 'the test');
    expect(hit.body).toMatchObject({ type: 'webhook.test', organizationId: org.id });
    expect(signedWith(hit.headers['x-signature-256'], hit.raw, secret)).toBe(true);
  });

  it('a full key reads the delivery log, paged, and redelivers a delivery', async () => {
    const delivered = await eventually(
      async () => {
        const d = (await svc.service('GET', `/webhook/deliveries/${test.deliveryId}`, org.apiKey)).json();
        return d.state === 'succeeded' ? d : undefined;
      },
      10_000,
      'the test delivered',
    );
    expect(delivered).toMatchObject({ eventId: test.eventId, eventType: 'webhook.test', attempts: 1 });
    expect(delivered.attemptLog).toEqual([expect.objectContaining({ status: 200, url: hookUrl })]);

    const page = (await svc.service('GET', '/webhook/deliveries?size=1&state=succeeded', org.apiKey)).json();
    expect(page).toMatchObject({ page: 0, size: 1, totalElements: 1 });
    expect(page.content).toEqual([expect.objectContaining({ id: test.deliveryId, state: 'succeeded' })]);
    expectError(await svc.service('GET', '/webhook/deliveries?size=1000', org.apiKey), 400, { field: 'size' });

    const redelivered = await svc.service('POST', `/webhook/deliveries/${test.deliveryId}/redeliver`, org.apiKey);
    expect(redelivered.statusCode, redelivered.body).toBe(202);
    expect(redelivered.json()).toMatchObject({ id: test.deliveryId, eventId: test.eventId, state: 'pending' });
    await eventually(
      async () => received.filter((r) => r.body.id === test.eventId).length === 2,
      10_000,
      'the redelivery',
    );
  });

  it('a read key reads the webhook and its log, and is refused every change naming webhooks:write', async () => {
    const reader = await issue(org.id, ['read']);
    expect((await svc.service('GET', '/webhook', reader)).json().endpoint).toMatchObject({ url: hookUrl });
    expect((await svc.service('GET', '/webhook/deliveries', reader)).json().totalElements).toBe(1);
    expect((await svc.service('GET', `/webhook/deliveries/${test.deliveryId}`, reader)).statusCode).toBe(200);
    const writes: Array<[string, string, unknown?]> = [
      ['PUT', '/webhook', { url: 'https://hooks.example.com/stolen', events: ['click'] }],
      ['DELETE', '/webhook'],
      ['POST', '/webhook/secret'],
      ['POST', '/webhook/test'],
      ['POST', `/webhook/deliveries/${test.deliveryId}/redeliver`],
    ];
    for (const [method, path, body] of writes)
      expectError(await svc.service(method, path, reader, body), 403, { missingScope: 'webhooks:write' });
    // Nothing changed.
    expect((await svc.service('GET', '/webhook', org.apiKey)).json().endpoint).toMatchObject({ url: hookUrl });
    expect((await svc.service('GET', '/webhook/deliveries', org.apiKey)).json().totalElements).toBe(1);
  });

  it('a key of another resource is refused naming webhooks:read; webhooks:write reads and writes', async () => {
    const links = await issue(org.id, ['links:read']);
    expectError(await svc.service('GET', '/webhook', links), 403, { missingScope: 'webhooks:read' });
    expectError(await svc.service('GET', '/webhook/deliveries', links), 403, { missingScope: 'webhooks:read' });
    expectError(await svc.service('POST', '/webhook/test', links), 403, { missingScope: 'webhooks:write' });

    const manager = await issue(org.id, ['webhooks:write']);
    expect((await svc.service('GET', '/webhook/deliveries', manager)).statusCode).toBe(200);
    const rotated = await svc.service('POST', '/webhook/secret', manager);
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json().secret).toMatch(SECRET);
    expect(rotated.json().secret).not.toBe(secret);
    expect(rotated.json().endpoint).toMatchObject({ secretRotation: true });
    expectError(await svc.service('GET', '/urls', manager), 403, { missingScope: 'links:read' });
  });

  it("another organization's key finds neither this webhook nor its deliveries", async () => {
    expect((await svc.service('GET', '/webhook', other.apiKey)).json()).toEqual({ endpoint: null });
    expect((await svc.service('GET', '/webhook/deliveries', other.apiKey)).json()).toMatchObject({
      totalElements: 0,
      content: [],
    });
    const path = `/webhook/deliveries/${test.deliveryId}`;
    expectError(await svc.service('GET', path, other.apiKey), 404, { code: 'WEBHOOK_DELIVERY_NOT_FOUND' });
    expectError(await svc.service('POST', `${path}/redeliver`, other.apiKey), 404, {
      code: 'WEBHOOK_DELIVERY_NOT_FOUND',
    });
    expectError(await svc.service('POST', '/webhook/test', other.apiKey), 404, { code: 'WEBHOOK_NOT_CONFIGURED' });
    expect(received.filter((r) => r.body.organizationId === other.id)).toEqual([]);
  });

  it('refuses a local or private address, plain http elsewhere and unbounded categories, with the field', async () => {
    const put = (body: unknown) => svc.service('PUT', '/webhook', other.apiKey, body);
    for (const url of ['https://10.0.0.7/in', 'https://169.254.169.254/latest', 'https://metadata.google.internal/x'])
      expectError(await put({ url, events: ['click'] }), 400, { field: 'url', code: 'WEBHOOK_URL_FORBIDDEN' });
    expectError(await put({ url: 'http://hooks.example.com/in', events: ['click'] }), 400, {
      field: 'url',
      code: 'WEBHOOK_URL_INSECURE',
    });
    expectError(await put({ url: 'https://hooks.example.com/in', events: Array(100_000).fill('click') }), 400, {
      field: 'events',
      code: 'VALIDATION_FAILED',
    });
    expectError(await put({ url: 'https://hooks.example.com/in', events: ['clicks'] }), 400, { field: 'events.0' });
    expect((await svc.service('GET', '/webhook', other.apiKey)).json()).toEqual({ endpoint: null });
  });

  it('removes the endpoint (the log stays), audited with the key as actor; a second removal is 404', async () => {
    const removed = await svc.service('DELETE', '/webhook', org.apiKey);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(removed.body).toBe('');
    expect((await svc.service('GET', '/webhook', org.apiKey)).json()).toEqual({ endpoint: null });
    expect((await svc.service('GET', '/webhook/deliveries', org.apiKey)).json().totalElements).toBe(1);
    expectError(await svc.service('DELETE', '/webhook', org.apiKey), 404, { code: 'WEBHOOK_NOT_CONFIGURED' });
    expectError(await svc.service('POST', '/webhook/test', org.apiKey), 404, { code: 'WEBHOOK_NOT_CONFIGURED' });

    // Set again: a new secret, shown once.
    const again = await svc.service('PUT', '/webhook', org.apiKey, { url: hookUrl, events: ['goal'] });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().secret).toMatch(SECRET);
    expect(again.json().secret).not.toBe(secret);

    const trail = await svc.container.postgres.sql<{ action: string; actor_type: string; details: object }[]>`
      select action, actor_type, details from audit_log
      where organization_id = ${org.id} and action like 'webhook.%' order by id`;
    expect(trail.map((e) => e.action)).toEqual([
      'webhook.changed',
      'webhook.changed',
      'webhook.secret_rotated',
      'webhook.removed',
      'webhook.changed',
    ]);
    expect(new Set(trail.map((e) => e.actor_type))).toEqual(new Set(['api_key']));
    expect(trail[0]!.details).toMatchObject({ apiKeyId: expect.any(Number), url: hookUrl });
  });
});
