// Webhooks as a customer's receiver sees them: a real HTTP server on loopback (the service runs
// with WEBHOOK_ALLOW_INSECURE) checks the signature over the exact raw body; clicks, campaign
// changes and funnel stages arrive in the documented shape; retries, rotation, disabling, safety,
// isolation between organizations, and a restart of the service in the middle of a retry.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backend } from './support/backend.js';
import { expectError } from './support/error-body.js';
import { eventually, isolate, startService, type Isolation, type TestService } from './support/service.js';
import { signedWith } from './support/webhook-signature.js';

const PLATFORM_HOST = 'sgnp.example';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const ENV = {
  PUBLIC_BASE_URL: `https://${PLATFORM_HOST}`,
  WEBHOOK_ALLOW_INSECURE: '1',
  WEBHOOK_POLL_MS: '100',
  WEBHOOK_RETRY_BASE_MS: '200',
  WEBHOOK_RETRY_MAX_DELAY_MS: '800',
  WEBHOOK_RETRY_WINDOW_MS: '600000',
  WEBHOOK_DISABLE_AFTER_FAILURES: '6',
  // Long enough that a held request is still held while the test looks at other organizations.
  WEBHOOK_TIMEOUT_MS: '20000',
};

// ---------------------------------------------------------------------------------------------
// The receiver: one server, one path per scenario, each path with its own behaviour.

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  body: {
    id: string;
    type: string;
    category: string;
    occurredAt: string;
    organizationId: number;
    data: Record<string, unknown>;
  };
  answered: number;
}

type Behaviour = (n: number) => number | 'hold';

const received: Received[] = [];
const behaviours = new Map<string, Behaviour>();
const held: (() => void)[] = [];
let receiver: http.Server;
let receiverBase: string;

const at = (path: string) => received.filter((r) => r.path === path);
let pathCounter = 0;
/** A fresh receiver path with a behaviour: status per request number (1-based), or hold it. */
function hook(name: string, behaviour: Behaviour = () => 200): string {
  const path = `/hooks/${name}-${++pathCounter}`;
  behaviours.set(path, behaviour);
  return path;
}

async function startReceiver(): Promise<void> {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = req.url ?? '';
      const n = at(path).length + 1;
      const status = (behaviours.get(path) ?? (() => 404))(n);
      const entry: Received = { path, headers: req.headers, raw, body: JSON.parse(raw.toString('utf8')), answered: 0 };
      received.push(entry);
      if (status === 'hold') {
        held.push(() => {
          entry.answered = 200;
          res.writeHead(200).end();
        });
        return;
      }
      entry.answered = status;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `nope ${n}`);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
}

/** X-Signature-256 entries that verify against the raw body with this secret. */
const verifies = (r: Received, secret: string): boolean => signedWith(r.headers['x-signature-256'], r.raw, secret);

/** The Standard Webhooks headers of a delivery, as a receiver hands them to its library. */
const standardHeaders = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

/** Whether the standardwebhooks package accepts the delivery now: a `whsec_` secret as such, any other as raw bytes. */
function standardVerifies(r: Received, secret: string, headers = standardHeaders(r)): boolean {
  const webhook = secret.startsWith('whsec_') ? new Webhook(secret) : new Webhook(secret, { format: 'raw' });
  try {
    webhook.verify(r.raw, headers);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------

let isolation: Isolation;
let svc: TestService;

beforeAll(async () => {
  await startReceiver();
  isolation = await isolate();
  svc = await startService(isolation, ENV);
});

afterAll(async () => {
  for (const release of held.splice(0)) release();
  await svc?.close();
  await isolation?.dispose();
  await new Promise<void>((r) => receiver?.close(() => r()));
});

let orgCounter = 0;
async function orgWithHook(path: string, secret = 'whsec-test-0123456789', extra: Record<string, unknown> = {}) {
  const org = await svc.createOrganization(`Hooked ${++orgCounter}`);
  const res = await svc.admin('PUT', `/organizations/${org.id}/webhook`, {
    url: `${receiverBase}${path}`,
    secret,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...org, secret };
}

const sendTest = async (orgId: number) => {
  const res = await svc.admin('POST', `/organizations/${orgId}/webhook/test`);
  expect(res.statusCode, res.body).toBe(202);
  return res.json() as { deliveryId: number; eventId: string };
};

const delivery = async (orgId: number, id: number) => {
  const res = await svc.admin('GET', `/organizations/${orgId}/webhook/deliveries/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const deliveries = async (orgId: number) => {
  const res = await svc.admin('GET', `/organizations/${orgId}/webhook/deliveries?size=100`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().content as { id: number; eventId: string; eventType: string; state: string; attempts: number }[];
};

const BODY_KEYS = ['id', 'type', 'category', 'occurredAt', 'organizationId', 'data'];

describe(`webhook deliveries (${backend})`, () => {
  it('delivers a human click on a short link, signed over the exact raw body, without personal data', async () => {
    const path = hook('click');
    const org = await orgWithHook(path);
    const link = await svc.createLink(org, { url: 'https://shop.example/sale' });
    // A preview fetcher is no click; the person that follows is.
    await svc.inject({
      method: 'GET',
      url: `/${link.shortCode}`,
      headers: { host: PLATFORM_HOST, 'user-agent': 'facebookexternalhit/1.1' },
      remoteAddress: '198.51.100.77',
    });
    const visit = await svc.inject({
      method: 'GET',
      url: `/${link.shortCode}?utm_source=news`,
      headers: {
        host: PLATFORM_HOST,
        'user-agent': CHROME,
        referer: 'https://news.example/story?user=someone@example.com',
      },
      remoteAddress: '198.51.100.77',
    });
    expect(visit.statusCode).toBe(302);

    const [hit] = await eventually(async () => at(path).length > 0 && at(path), 15_000, 'the click webhook');
    expect(Object.keys(hit!.body)).toEqual(BODY_KEYS);
    expect(hit!.body).toMatchObject({ type: 'click.url', category: 'click', organizationId: org.id });
    expect(hit!.body.data).toMatchObject({
      urlId: link.id,
      shortCode: link.shortCode,
      host: PLATFORM_HOST,
      referrerHost: 'news.example',
      deviceType: 'Desktop',
      os: 'Windows',
      browser: 'Chrome',
      utmSource: 'news',
    });
    expect(new Date(hit!.body.occurredAt).toISOString()).toBe(hit!.body.occurredAt);
    // Headers of the contract.
    expect(hit!.headers['content-type']).toBe('application/json');
    expect(hit!.headers['user-agent']).toMatch(/^Signpost-Webhooks\//);
    expect(hit!.headers['x-webhook-id']).toBe(hit!.body.id);
    expect(Math.abs(Number(hit!.headers['x-webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    expect(hit!.headers['x-signature-256']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifies(hit!, org.secret)).toBe(true);
    expect(verifies(hit!, 'another-secret-0123456789')).toBe(false);
    // The raw bytes were signed: the same JSON re-serialised with other spacing would not verify.
    expect(verifies({ ...hit!, raw: Buffer.from(JSON.stringify(hit!.body, null, 1)) }, org.secret)).toBe(false);
    // No IP address, user agent or full referrer in what the customer receives.
    const text = hit!.raw.toString('utf8');
    for (const secretish of ['198.51.100.77', 'Chrome/126', 'someone@example.com', 'userAgent', '"ip"'])
      expect(text).not.toContain(secretish);

    // The log shows this one delivery only (the preview fetch made none).
    // The receiver has the request before the sender has its answer: the log follows a moment later.
    const log = await eventually(
      async () => {
        const l = await deliveries(org.id);
        return l[0]?.state === 'succeeded' && l;
      },
      10_000,
      'the delivery logged as succeeded',
    );
    expect(log.map((d) => d.eventType)).toEqual(['click.url']);
    expect(log[0]).toMatchObject({ state: 'succeeded', attempts: 1, eventId: hit!.body.id });
    expect(hit!.body.data).toMatchObject({ destinationUrl: null, route: null });
  });

  it("says in a click's payload where the link's routing rule sent it", async () => {
    const path = hook('routed');
    const org = await orgWithHook(path);
    const created = await svc.service('POST', '/urls', org.apiKey, {
      url: 'https://shop.example/all',
      routingRules: [{ conditions: { query: { src: 'ad' } }, url: 'https://shop.example/ad' }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const visit = await svc.inject({
      method: 'GET',
      url: `/${created.json().shortCode}?src=ad`,
      headers: { host: PLATFORM_HOST, 'user-agent': CHROME },
      remoteAddress: '198.51.100.78',
    });
    expect(visit.headers.location).toMatch(/^https:\/\/shop\.example\/ad\b/);
    const [hit] = await eventually(async () => at(path).length > 0 && at(path), 15_000, 'the routed click webhook');
    expect(hit!.body.data).toMatchObject({ destinationUrl: 'https://shop.example/ad', route: 'rule:0' });
  });

  it('signs per Standard Webhooks as well: the standardwebhooks package verifies id.timestamp.body, and refuses a replay', async () => {
    // A secret as the console makes it (whsec_ and base64), and one an operator chose.
    for (const secret of [`whsec_${randomBytes(32).toString('base64')}`, 'my own secret, 0123456789']) {
      const path = hook('standard');
      const org = await orgWithHook(path, secret);
      const { eventId } = await sendTest(org.id);
      const [hit] = await eventually(async () => at(path).length > 0 && at(path), 10_000, 'the test delivery');
      expect(hit!.headers['webhook-id']).toBe(eventId);
      expect(hit!.headers['webhook-id']).toBe(hit!.headers['x-webhook-id']);
      expect(hit!.headers['webhook-timestamp']).toBe(hit!.headers['x-webhook-timestamp']);
      expect(hit!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(standardVerifies(hit!, secret)).toBe(true);
      expect(verifies(hit!, secret)).toBe(true);
      expect(standardVerifies(hit!, `whsec_${randomBytes(32).toString('base64')}`)).toBe(false);
      // The id and the time are signed: the same body and signature under another id, or sent
      // again later, are refused.
      expect(
        standardVerifies(hit!, secret, {
          ...standardHeaders(hit!),
          'webhook-id': '01939a4e-5c1d-7e0a-9b7e-3f1c2a4d5e6f',
        }),
      ).toBe(false);
      const timestamp = Number(hit!.headers['webhook-timestamp']);
      expect(
        standardVerifies(hit!, secret, { ...standardHeaders(hit!), 'webhook-timestamp': String(timestamp + 1) }),
      ).toBe(false);
      vi.useFakeTimers({ toFake: ['Date'], now: (timestamp + 6 * 60) * 1000 });
      try {
        expect(standardVerifies(hit!, secret)).toBe(false);
      } finally {
        vi.useRealTimers();
      }
    }
  });

  it('delivers campaign clicks and campaign changes with the documented payloads', async () => {
    const path = hook('campaign');
    const org = await orgWithHook(path);
    const campaign = await svc.createCampaign(org, {
      name: 'Summer Hooks',
      originalUrl: 'https://shop.example/summer',
    });
    await svc.inject({
      method: 'GET',
      url: `/${campaign.alias}?cid=user-42&tracker=insta`,
      headers: { host: PLATFORM_HOST, 'user-agent': CHROME },
    });
    // The alias is looked up when the click is processed: a campaign deleted before that gives null.
    await eventually(async () => at(path).some((r) => r.body.type === 'click.campaign'), 15_000, 'the campaign click');
    expect(
      (await svc.service('PUT', `/campaigns/${campaign.id}`, org.apiKey, { name: 'Summer Hooks 2' })).statusCode,
    ).toBe(200);
    expect((await svc.service('DELETE', `/campaigns/${campaign.id}`, org.apiKey)).statusCode).toBe(204);

    const byType = await eventually(
      async () => {
        const types = new Map(at(path).map((r) => [r.body.type, r]));
        return (
          ['campaign.created', 'click.campaign', 'campaign.updated', 'campaign.deleted'].every((t) => types.has(t)) &&
          types
        );
      },
      15_000,
      'the campaign webhooks',
    );
    expect(byType.get('campaign.created')!.body).toMatchObject({
      category: 'campaign',
      organizationId: org.id,
      data: { campaign: { id: campaign.id, name: 'Summer Hooks', alias: campaign.alias } },
    });
    expect(byType.get('campaign.updated')!.body.data).toEqual({
      campaign: { id: campaign.id, name: 'Summer Hooks 2', alias: campaign.alias },
    });
    expect(byType.get('campaign.deleted')!.body.data).toEqual({
      campaign: { id: campaign.id, name: 'Summer Hooks 2', alias: campaign.alias },
    });
    expect(byType.get('click.campaign')!.body).toMatchObject({
      category: 'click',
      data: { campaignId: campaign.id, alias: campaign.alias, cid: 'user-42', tracker: 'insta' },
    });
    for (const r of at(path)) expect(verifies(r, org.secret)).toBe(true);
  });

  it('sends only the subscribed categories, and funnel stages with a goal as funnel.stage and goal.completed', async () => {
    const path = hook('funnel');
    const org = await orgWithHook(path, undefined, { events: ['goal', 'funnel'] });
    await svc.createCampaign(org, { name: 'Not subscribed', originalUrl: 'https://shop.example/x' });
    svc.container.events.record({
      eventId: '01939a4e-0000-7000-8000-000000000001',
      type: 'funnel_stage',
      occurredAt: Date.now(),
      organizationId: org.id,
      data: {
        appId: 7,
        platform: 'IOS',
        sessionId: 's-1',
        stage: 'GOAL_COMPLETED',
        linkType: 'campaign',
        linkId: 12,
        goalType: 'purchase',
        goalValue: 19.9,
        currency: 'krw',
        externalUserId: 'u-9',
        source: 'sdk',
      },
    });
    svc.container.events.record({
      eventId: '01939a4e-0000-7000-8000-000000000002',
      type: 'journey_funnel',
      occurredAt: Date.now(),
      organizationId: org.id,
      data: {
        sessionId: 'w-1',
        appId: 3,
        platform: 'WEB',
        stage: 'CONTENT_VIEWED',
        goalType: null,
        goalValue: null,
        currency: null,
        transactionId: null,
        urlId: 5,
        campaignId: null,
        externalUserId: null,
      },
    });
    const types = await eventually(
      async () =>
        at(path).length >= 3 &&
        at(path)
          .map((r) => r.body.type)
          .sort(),
      15_000,
      'the funnel webhooks',
    );
    expect(types).toEqual(['funnel.stage', 'funnel.stage', 'goal.completed']);
    const goal = at(path).find((r) => r.body.type === 'goal.completed')!.body;
    expect(goal).toMatchObject({
      category: 'goal',
      data: {
        funnel: 'mobile',
        sessionId: 's-1',
        appId: 7,
        platform: 'IOS',
        campaignId: 12,
        urlId: null,
        goalType: 'purchase',
        goalValue: 19.9,
        currency: 'KRW',
        externalUserId: 'u-9',
      },
    });
    expect(goal.id).not.toBe('01939a4e-0000-7000-8000-000000000001');
    const web = at(path).find((r) => r.body.data.funnel === 'web')!.body;
    expect(web).toMatchObject({
      id: '01939a4e-0000-7000-8000-000000000002',
      category: 'funnel',
      data: { stage: 'CONTENT_VIEWED', urlId: 5, platform: 'WEB' },
    });
    // The campaign created before the funnel events was not sent (category not subscribed).
    expect((await deliveries(org.id)).map((d) => d.eventType).sort()).toEqual([
      'funnel.stage',
      'funnel.stage',
      'goal.completed',
    ]);
  });

  it('retries a failing receiver: fails twice, then one success; the log shows three attempts; redelivery resends', async () => {
    const path = hook('flaky', (n) => (n <= 2 ? 503 : 200));
    const org = await orgWithHook(path);
    const { deliveryId, eventId } = await sendTest(org.id);
    const done = await eventually(
      async () => {
        const d = await delivery(org.id, deliveryId);
        return d.state === 'succeeded' && d;
      },
      20_000,
      'the retried delivery',
    );
    expect(done).toMatchObject({
      eventId,
      eventType: 'webhook.test',
      attempts: 3,
      lastStatus: 200,
      nextAttemptAt: null,
    });
    expect(done.attemptLog.map((a: { status: number }) => a.status)).toEqual([503, 503, 200]);
    expect(done.attemptLog[0]).toMatchObject({
      attempt: 1,
      error: 'HTTP 503',
      responseBody: 'nope 1',
      url: `${receiverBase}${path}`,
    });
    expect(done.payload).toMatchObject({ id: eventId, type: 'webhook.test', category: 'test', organizationId: org.id });
    const hits = at(path);
    expect(hits.filter((r) => r.answered === 200)).toHaveLength(1);
    // Every attempt carried the same event id and the same bytes.
    expect(new Set(hits.map((r) => r.headers['x-webhook-id']))).toEqual(new Set([eventId]));
    expect(new Set(hits.map((r) => r.raw.toString()))).toHaveProperty('size', 1);

    const again = await svc.admin('POST', `/organizations/${org.id}/webhook/deliveries/${deliveryId}/redeliver`);
    expect(again.statusCode, again.body).toBe(202);
    await eventually(async () => at(path).length === 4, 10_000, 'the redelivery');
    expect(at(path)[3]!.headers['x-webhook-id']).toBe(eventId);
    await eventually(async () => (await delivery(org.id, deliveryId)).attempts === 4, 10_000, 'the redelivery logged');
  });

  it('signs with both secrets during a rotation, and with the new one alone after it', async () => {
    const path = hook('rotation');
    const org = await orgWithHook(path, 'whsec-old-0123456789');
    const rotated = await svc.admin('PUT', `/organizations/${org.id}/webhook`, {
      url: `${receiverBase}${path}`,
      secret: 'whsec-new-9876543210',
    });
    expect(rotated.json()).toMatchObject({ secretRotation: true });
    const until = Date.parse(rotated.json().previousSecretValidUntil);
    expect(until - Date.now()).toBeGreaterThan(23 * 3600_000);
    await sendTest(org.id);
    const [first] = await eventually(async () => at(path).length === 1 && at(path), 10_000, 'the rotated delivery');
    expect(String(first!.headers['x-signature-256']).split(',')).toHaveLength(2);
    expect(verifies(first!, 'whsec-new-9876543210')).toBe(true);
    expect(verifies(first!, 'whsec-old-0123456789')).toBe(true);
    expect(String(first!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(standardVerifies(first!, 'whsec-new-9876543210')).toBe(true);
    expect(standardVerifies(first!, 'whsec-old-0123456789')).toBe(true);

    // The operator ends the rotation: the secret is left out and stays, the previous one goes.
    const ended = await svc.admin('PUT', `/organizations/${org.id}/webhook`, {
      url: `${receiverBase}${path}`,
      keepPreviousSecretHours: 0,
    });
    expect(ended.json()).toMatchObject({ secretRotation: false, previousSecretValidUntil: null });
    await sendTest(org.id);
    const second = await eventually(async () => at(path)[1], 10_000, 'the delivery after the rotation');
    expect(second.headers['x-signature-256']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifies(second, 'whsec-new-9876543210')).toBe(true);
    expect(verifies(second, 'whsec-old-0123456789')).toBe(false);
    expect(standardVerifies(second, 'whsec-new-9876543210')).toBe(true);
    expect(standardVerifies(second, 'whsec-old-0123456789')).toBe(false);
  });

  it('sends nothing to a disabled endpoint', async () => {
    const offPath = hook('disabled');
    const off = await orgWithHook(offPath, undefined, { enabled: false });
    const fencePath = hook('fence');
    const fence = await orgWithHook(fencePath);
    expect((await svc.admin('GET', `/organizations/${off.id}/webhook`)).json()).toMatchObject({
      enabled: false,
      disabledReason: 'turned off in the settings',
    });
    expectError(await svc.admin('POST', `/organizations/${off.id}/webhook/test`), 409, { code: 'WEBHOOK_DISABLED' });
    await svc.createCampaign(off, { name: 'Quiet', originalUrl: 'https://shop.example/q' });
    // The same consumer handles the next organization's event after this one's.
    await svc.createCampaign(fence, { name: 'Fence', originalUrl: 'https://shop.example/f' });
    await eventually(async () => at(fencePath).length > 0, 15_000, 'the fence event');
    expect(at(offPath)).toHaveLength(0);
    expect(await deliveries(off.id)).toEqual([]);
  });

  it('refuses private addresses when the URL is set, and again at delivery when the address changed', async () => {
    const org = await svc.createOrganization('Sneaky');
    for (const url of [
      'https://10.0.0.5/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:169.254.169.254]/',
      'https://[fd00:ec2::254]/',
      // Local names, refused up front as link destinations are.
      'https://metadata.google.internal/x',
      'https://router.lan/x',
      'https://nas.home.arpa/x',
    ]) {
      expectError(
        await svc.admin('PUT', `/organizations/${org.id}/webhook`, { url, secret: 'whsec-0123456789-abcdef' }),
        400,
        { code: 'WEBHOOK_URL_FORBIDDEN' },
      );
    }
    expectError(
      await svc.admin('PUT', `/organizations/${org.id}/webhook`, {
        url: 'http://hooks.example.com/x',
        secret: 'whsec-0123456789-abcdef',
      }),
      400,
      { code: 'WEBHOOK_URL_INSECURE' },
    );
    expectError(await svc.admin('GET', `/organizations/${org.id}/webhook`), 404, { code: 'WEBHOOK_NOT_CONFIGURED' });

    // Accepted while it pointed at an allowed address; by delivery time it points at the metadata
    // service (as a changed DNS answer would): the attempt is refused without a connection.
    const path = hook('moved');
    const moved = await orgWithHook(path);
    await svc.container.postgres
      .sql`update webhook_endpoints set url = 'https://169.254.169.254/latest/meta-data' where organization_id = ${moved.id}`;
    const { deliveryId } = await sendTest(moved.id);
    const refused = await eventually(
      async () => {
        const d = await delivery(moved.id, deliveryId);
        return d.attempts >= 1 && d;
      },
      10_000,
      'the refused attempt',
    );
    expect(refused.attemptLog[0]).toMatchObject({ status: null });
    expect(refused.attemptLog[0].error).toMatch(/^WEBHOOK_URL_FORBIDDEN/);
    expect(refused.state).toBe('pending');
    expect(at(path)).toHaveLength(0);
    await svc.admin('PUT', `/organizations/${moved.id}/webhook`, { url: `${receiverBase}${path}`, enabled: false });
  });

  it("keeps one slow endpoint to its own slots: another organization's delivery is not held up", async () => {
    let holding = true;
    const slowPath = hook('slow', () => (holding ? 'hold' : 200));
    const slow = await orgWithHook(slowPath);
    for (let i = 0; i < 6; i++) await sendTest(slow.id);
    await eventually(async () => at(slowPath).length >= 2, 10_000, 'the slow endpoint busy');
    const fastPath = hook('fast');
    const fast = await orgWithHook(fastPath);
    await sendTest(fast.id);
    await eventually(async () => at(fastPath).length === 1, 10_000, "the other organization's delivery");
    // All this while the slow endpoint held its requests, at most two at a time (its own limit).
    expect(at(slowPath).every((r) => r.answered === 0)).toBe(true);
    expect(at(slowPath)).toHaveLength(2);
    holding = false;
    for (const release of held.splice(0)) release();
    await eventually(
      async () => (await deliveries(slow.id)).every((d) => d.state === 'succeeded'),
      20_000,
      'the slow deliveries',
    );
    expect(new Set(at(slowPath).map((r) => r.body.id)).size).toBe(6);
  });

  it('disables an endpoint after repeated failures, with a notice; enabling it again resumes the delivery', async () => {
    let healthy = false;
    const path = hook('down', () => (healthy ? 200 : 500));
    const org = await orgWithHook(path);
    const { deliveryId } = await sendTest(org.id);
    const endpoint = await eventually(
      async () => {
        const e = (await svc.admin('GET', `/organizations/${org.id}/webhook`)).json();
        return e.enabled === false && e;
      },
      20_000,
      'the endpoint disabled',
    );
    expect(endpoint).toMatchObject({ consecutiveFailures: 6, disabledReason: '6 delivery attempts in a row failed' });
    const notices = (await svc.admin('GET', `/organizations/${org.id}/notices`)).json().content;
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ code: 'WEBHOOK_ENDPOINT_DISABLED' });
    expect(notices[0].message).toContain('6 delivery attempts in a row failed');
    expect(await delivery(org.id, deliveryId)).toMatchObject({ state: 'pending', attempts: 6 });
    expect(at(path)).toHaveLength(6);

    healthy = true;
    const enabled = await svc.admin('PUT', `/organizations/${org.id}/webhook`, { url: `${receiverBase}${path}` });
    expect(enabled.json()).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledReason: null });
    await eventually(
      async () => (await delivery(org.id, deliveryId)).state === 'succeeded',
      15_000,
      'the resumed delivery',
    );
    expect(at(path).filter((r) => r.answered === 200)).toHaveLength(1);
  });

  it("answers the operator API in its documented shape, and 404 for another organization's delivery", async () => {
    const path = hook('api');
    const org = await orgWithHook(path);
    const other = await svc.createOrganization('Other');
    const got = await svc.admin('GET', `/organizations/${org.id}/webhook`);
    expect(got.statusCode).toBe(200);
    expect(got.body).not.toContain(org.secret);
    expect(got.json()).toMatchObject({
      url: `${receiverBase}${path}`,
      enabled: true,
      events: ['click', 'campaign', 'goal', 'funnel', 'session'],
    });
    const { deliveryId } = await sendTest(org.id);
    await eventually(
      async () => (await delivery(org.id, deliveryId)).state === 'succeeded',
      10_000,
      'the test delivery',
    );
    const page = (await svc.admin('GET', `/organizations/${org.id}/webhook/deliveries?page=0&size=10`)).json();
    expect(page).toMatchObject({ page: 0, size: 10, totalElements: 1, first: true, last: true });
    expect(Object.keys(page.content[0]).sort()).toEqual(
      [
        'attempts',
        'completedAt',
        'createdAt',
        'eventId',
        'eventType',
        'id',
        'lastError',
        'lastLatencyMs',
        'lastStatus',
        'nextAttemptAt',
        'state',
      ].sort(),
    );
    expect(typeof page.content[0].lastLatencyMs).toBe('number');
    expectError(await svc.admin('GET', `/organizations/${other.id}/webhook/deliveries/${deliveryId}`), 404, {
      code: 'WEBHOOK_DELIVERY_NOT_FOUND',
    });
    expectError(await svc.admin('POST', `/organizations/${other.id}/webhook/deliveries/${deliveryId}/redeliver`), 404, {
      code: 'WEBHOOK_DELIVERY_NOT_FOUND',
    });
    expect((await svc.admin('GET', `/organizations/${other.id}/notices`)).json()).toEqual({ content: [] });
  });

  // Last: it replaces the service.
  it('finishes a delivery after a restart of the service in the middle of its retries', async () => {
    let healthy = false;
    const path = hook('restart', () => (healthy ? 200 : 500));
    const org = await orgWithHook(path);
    const { deliveryId, eventId } = await sendTest(org.id);
    await eventually(async () => at(path).length >= 1, 10_000, 'a first failed attempt');
    await svc.close();
    const failedBefore = at(path).length;
    healthy = true;
    svc = await startService(isolation, ENV);
    const done = await eventually(
      async () => {
        const d = await delivery(org.id, deliveryId);
        return d.state === 'succeeded' && d;
      },
      20_000,
      'the delivery after the restart',
    );
    expect(done.attempts).toBe(failedBefore + 1);
    expect(
      at(path)
        .filter((r) => r.answered === 200)
        .map((r) => r.body.id),
    ).toEqual([eventId]);
  });
});

describe('user-journey events', () => {
  it('arrive as session.started, funnel.stage, goal.completed and session.transition, without the properties', async () => {
    const path = hook('journey');
    const org = await orgWithHook(path);
    expect((await svc.admin('PUT', `/organizations/${org.id}/add-ons`, { userJourney: true })).statusCode).toBe(200);
    const app = await svc.createApp(org, { platform: 'IOS', appName: 'Shop', bundleId: 'com.shop' });
    const journey = (url: string, body: unknown) =>
      svc.inject({
        method: 'POST',
        url: `/api/v1/sdk/web/journey${url}`,
        headers: { 'x-app-id': String(app.id) },
        payload: body as object,
      });
    const session = await journey('/session/create', { platform: 'WEB', utmSource: 'kakao' });
    expect(session.statusCode, session.body).toBe(201);
    const { sessionId } = session.json() as { sessionId: string };
    const goal = await journey('/session/funnel/track', {
      sessionId,
      stage: 'GOAL_COMPLETED',
      goalType: 'purchase_KRW',
      goalValue: 12000,
      currency: 'KRW',
      transactionId: 'T-1',
    });
    expect(goal.statusCode, goal.body).toBe(201);
    const move = await journey('/session/transition', {
      sessionId,
      fromPlatform: 'WEB',
      toPlatform: 'IOS',
      properties: { email: 'someone@example.com' },
    });
    expect(move.statusCode, move.body).toBe(201);

    const types = ['session.started', 'funnel.stage', 'goal.completed', 'session.transition'];
    await eventually(
      async () => types.every((t) => at(path).some((r) => r.body.type === t)),
      20_000,
      'journey webhooks',
    );
    const of = (type: string) => at(path).find((r) => r.body.type === type)!;
    for (const type of types) {
      expect(verifies(of(type), org.secret)).toBe(true);
      expect(of(type).body).toMatchObject({ organizationId: org.id, data: { sessionId } });
    }
    expect(of('session.started').body).toMatchObject({
      category: 'session',
      data: { platform: 'WEB', utmSource: 'kakao', appId: app.id },
    });
    expect(of('goal.completed').body).toMatchObject({
      category: 'goal',
      data: { goalType: 'purchase_KRW', goalValue: 12000, currency: 'KRW' },
    });
    expect(of('session.transition').body.data).toMatchObject({ fromPlatform: 'WEB', toPlatform: 'IOS' });
    expect(of('session.transition').raw.toString()).not.toContain('someone@example.com');
  });
});
