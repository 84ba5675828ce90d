// Input at the edge: text no field may hold (NUL, control characters, lone UTF-16 surrogates) and
// JSON nested too deep are a 400 naming the field, on every route and on the redirect's fast path;
// a value PostgreSQL refuses is a 400, not a 500; and failures Fastify and Node's HTTP parser
// answer before routing (bad URL, URI too long, headers too large, malformed requests) carry the
// API's error body, checked over a real socket.
import net from 'node:net';
import { STATUS_CODES } from 'node:http';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerShutdownAnswer } from '../src/api/edge-errors.js';
import { registerErrorHandling } from '../src/api/error-handler.js';
import { ADMIN_TOKEN, serviceForFile } from './support/service.js';
import { expectError, ISO_UTC } from './support/error-body.js';
import { journeyClient, journeyOrg, type JourneyApp } from './support/journey.js';
import { BASE, PLATFORM_HOST, UA, createApps, createCampaign, tap, tapToLanding } from './support/deep-links.js';

let app: JourneyApp;
let journey: ReturnType<typeof journeyClient>;
let sessionId: string;
let host: string;
let port: number;

const svc = serviceForFile({ PUBLIC_BASE_URL: BASE });

beforeAll(async () => {
  app = await journeyOrg(svc, 'Edge');
  journey = journeyClient(svc, app);
  const session = await journey('POST', '/session/create', { platform: 'WEB' });
  expect(session.statusCode, session.body).toBe(201);
  sessionId = session.json().sessionId;
  const link = await svc.service('POST', '/urls', app.org.apiKey, {
    url: 'https://example.com/edge',
    customAlias: 'edge',
  });
  expect(link.statusCode, link.body).toBe(201);
  const address = new URL(await svc.container.listen());
  host = address.hostname;
  port = Number(address.port);
}, 120_000);

/** Writes `raw` on a fresh connection and reads one answer (the socket stays open for writing
 * until then: a client that half-closes early may find its connection dropped by Node). */
function rawHttp(raw: string | Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let received = Buffer.alloc(0);
    const parse = (complete: boolean) => {
      const text = received.toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd < 0) return complete ? { status: NaN, headers: {}, body: text } : undefined;
      const [statusLine = '', ...lines] = text.slice(0, headEnd).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const body = received.subarray(headEnd + 4);
      if (!complete && body.length < Number(headers['content-length'] ?? Infinity)) return undefined;
      return { status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') };
    };
    const finish = (complete: boolean) => {
      const answer = parse(complete);
      if (!answer) return;
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      finish(false);
    });
    socket.on('error', (err) => (received.length ? undefined : reject(err)));
    socket.on('close', () => finish(true));
    socket.write(raw);
  });
}

function expectRawError(
  res: { status: number; headers: Record<string, string>; body: string },
  status: number,
  code: string,
) {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toContain('application/json');
  const body = JSON.parse(res.body);
  const keys = ['code', 'error', 'message', 'status', 'timestamp', ...(status === 400 ? ['details'] : [])];
  expect(Object.keys(body).sort()).toEqual(keys.sort());
  expect(body).toMatchObject({ status, error: STATUS_CODES[status], code });
  expect(body.timestamp).toMatch(ISO_UTC);
}

describe('text no field may hold is a 400 naming the field', () => {
  it('NUL in a query string (was a 500 from PostgreSQL 22021)', async () => {
    for (const keyword of ['%00', 'a%00b', '%01', 'a%0Ab']) {
      const res = await svc.service('GET', `/urls?keyword=${keyword}`, app.org.apiKey);
      expectError(res, 400, { code: 'VALIDATION_FAILED', field: 'querystring.keyword' });
    }
  });

  it('percent-encoded bytes in a query value that are not UTF-8 (were accepted as other text)', async () => {
    for (const [query, field] of [
      ['keyword=%ED%A0%80', 'keyword'],
      ['keyword=ok&customId=a%FFb', 'customId'],
      ['cid=%C0%80', 'cid'],
    ]) {
      const res = await svc.service('GET', `/urls?${query}`, app.org.apiKey);
      expectError(res, 400, { code: 'VALIDATION_FAILED', field: `querystring.${field}` });
      expect(res.json().message).toContain('UTF-8');
    }
    // Well-formed UTF-8, encoded or not, still passes.
    expect((await svc.service('GET', '/urls?keyword=%ED%95%9C%EA%B8%80+x', app.org.apiKey)).statusCode).toBe(200);
  });

  it('NUL in the web SDK token (was a 500 without any credentials)', async () => {
    const res = await svc.inject({
      method: 'POST',
      url: '/api/v1/sdk/web/deeplink/track-store-visit',
      payload: { token: '\u0000' },
    });
    expectError(res, 400, { code: 'VALIDATION_FAILED', field: 'body.token' });
  });

  it('a lone surrogate in an event type or a tracker alias (ClickHouse refused the whole batch)', async () => {
    const event = await journey('POST', '/session/event', { sessionId, eventType: '\ud800' });
    expectError(event, 400, { code: 'VALIDATION_FAILED', field: 'body.eventType' });
    const click = await svc.inject({
      method: 'POST',
      url: '/api/v1/sdk/mobile/clicks/campaign',
      headers: { 'x-app-id': String(app.appId), 'x-mobile-app-api-key': app.appKey },
      payload: { campaignAlias: 'nothing', trackerAlias: '\ud800' },
    });
    expectError(click, 400, { code: 'VALIDATION_FAILED', field: 'body.trackerAlias' });
    const inProperties = await journey('POST', '/session/event', {
      sessionId,
      eventType: 'view',
      properties: { list: ['ok', 'x\udfff'] },
    });
    expectError(inProperties, 400, { code: 'VALIDATION_FAILED', field: 'body.properties.list.1' });
  });

  it('control characters in object keys, path parameters and single-line fields', async () => {
    const key = await journey('POST', '/session/event', { sessionId, eventType: 'view', properties: { 'a\u0000': 1 } });
    expectError(key, 400, { code: 'VALIDATION_FAILED', field: 'body.properties' });
    const param = await svc.service('GET', '/users/a%00b', app.org.apiKey);
    expectError(param, 400, { code: 'VALIDATION_FAILED', field: 'params.externalUserId' });
    const newline = await journey('POST', '/session/event', { sessionId, eventType: 'page\nview' });
    expectError(newline, 400, { code: 'VALIDATION_FAILED', field: 'body.eventType' });
    const bell = await svc.service('POST', '/urls', app.org.apiKey, {
      url: 'https://example.com/x',
      ogDescription: 'ring\u0007',
    });
    expectError(bell, 400, { code: 'VALIDATION_FAILED', field: 'body.ogDescription' });
  });

  it('text that is merely unusual still passes: tabs and newlines in free text, emoji, other scripts', async () => {
    const created = await svc.service('POST', '/urls', app.org.apiKey, {
      url: 'https://example.com/y',
      ogDescription: 'two\nlines\tand a tab 😀 한국어',
    });
    expect(created.statusCode, created.body).toBe(201);
    const event = await journey('POST', '/session/event', {
      sessionId,
      eventType: '구매 😀',
      properties: { note: 'a\nb\tc', 키: '값' },
    });
    expect(event.statusCode, event.body).toBe(201);
  });
});

describe('free-form objects and the body are bounded', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it('properties 5,000 levels deep is a 400 (was a stack overflow, 500)', async () => {
    const res = await svc.inject({
      method: 'POST',
      url: '/api/v1/sdk/web/journey/session/event',
      headers: { 'x-app-id': String(app.appId), 'content-type': 'application/json' },
      payload: `{"sessionId":"${sessionId}","eventType":"deep","properties":${nested(5_000)}}`,
    });
    const body = expectError(res, 400, { code: 'VALIDATION_FAILED', field: 'body.properties' });
    expect(body.message).toContain('nested too deeply');
  });

  it('properties: 8 levels pass, 9 levels, 1,001 keys or 16 KiB of JSON do not', async () => {
    const post = (properties: string) =>
      svc.inject({
        method: 'POST',
        url: '/api/v1/sdk/web/journey/session/event',
        headers: { 'x-app-id': String(app.appId), 'content-type': 'application/json' },
        payload: `{"sessionId":"${sessionId}","eventType":"bounded","properties":${properties}}`,
      });
    expect((await post(nested(8))).statusCode).toBe(201);
    expectError(await post(nested(9)), 400, { code: 'VALIDATION_FAILED', field: 'body.properties' });
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`k${i}`, i])));
    expectError(await post(wide), 400, { code: 'VALIDATION_FAILED', field: 'body.properties' });
    expectError(await post(JSON.stringify({ big: 'x'.repeat(17_000) })), 400, {
      code: 'VALIDATION_FAILED',
      field: 'body.properties',
    });
  });

  it('any body nested deeper than 32 levels is refused before validation', async () => {
    for (const payload of ['['.repeat(100_000) + ']'.repeat(100_000), nested(40)]) {
      const res = await svc.inject({
        method: 'POST',
        url: '/api/admin/v1/organizations',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload,
      });
      expectError(res, 400, { code: 'VALIDATION_FAILED', field: 'body' });
    }
  });

  it('every array is bounded: 100,000 webhook categories (once stored as one) are a 400, as is any list over 10,000 items', async () => {
    const put = (events: unknown) =>
      svc.admin('PUT', `/organizations/${app.org.id}/webhook`, {
        url: 'https://hooks.example.com/in',
        secret: 'whsec-0123456789-abcdef',
        events,
      });
    const huge = await put(Array.from({ length: 100_000 }, () => 'click'));
    expectError(huge, 400, { code: 'VALIDATION_FAILED', field: 'body.events' });
    expect(huge.json().message).toContain('at most 10000');
    // Nothing was stored.
    expect((await svc.admin('GET', `/organizations/${app.org.id}/webhook`)).statusCode).toBe(404);
  });
});

describe('the redirect routes and their fast path', () => {
  it('hostile slugs never reach PostgreSQL, through the router or in front of it', async () => {
    for (const path of [
      '/%00',
      '/a%00',
      '/a%ED%A0%80',
      '/edge%0A',
      '/x/%00',
      '/x/a%ED%A0%80',
      '/%C0%80',
      `/${'a'.repeat(600)}`,
    ]) {
      const injected = await svc.inject({ method: 'GET', url: path });
      expect(injected.statusCode, `${path} ${injected.body}`).toBeGreaterThanOrEqual(400);
      expect(injected.statusCode, `${path} ${injected.body}`).toBeLessThan(500);
      expectError(injected, injected.statusCode);
      const socket = await rawHttp(`GET ${path} HTTP/1.1\r\nHost: ${PLATFORM_HOST}\r\nConnection: close\r\n\r\n`);
      expect(socket.status, `${path} ${socket.body}`).toBe(injected.statusCode);
      expectRawError(socket, injected.statusCode, injected.json().code);
    }
    // The link itself still redirects in front of the router.
    const ok = await rawHttp(`GET /edge HTTP/1.1\r\nHost: ${PLATFORM_HOST}\r\nConnection: close\r\n\r\n`);
    expect(ok.status).toBe(302);
    expect(ok.headers.location).toBe('https://example.com/edge');
  });

  it('a link opened with odd click parameters still redirects, through the router and in front of it', async () => {
    const query = 'utm_source=a%00b&utm_medium=%01%7F&cid=x%0Ay';
    const routed = await svc.inject({ method: 'GET', url: `/edge?${query}`, headers: { host: PLATFORM_HOST } });
    expect(routed.statusCode, routed.body).toBe(302);
    const inFront = await rawHttp(`GET /edge?${query} HTTP/1.1\r\nHost: ${PLATFORM_HOST}\r\nConnection: close\r\n\r\n`);
    expect(inFront.status, inFront.body).toBe(302);
  });

  it('a campaign opened on a phone with a NUL in its cid still lands with a token, and the next phone too', async () => {
    // The token write used to fail on the NUL, which turned landing pages off for every link.
    const apps = await createApps(svc, app.org, 'Edge');
    const campaign = await createCampaign(svc, app.org, {
      originalUrl: 'https://example.com/winter',
      iosAppId: apps.ios.id,
      alias: 'edge-winter',
    });
    const page = await tapToLanding(svc, `/${campaign.alias}?cid=a%00b%E2%80%A8c&tracker=%01insta`, { ua: UA.iPhone });
    const rows = await svc.container.postgres.sql<
      { cid: string; tracker: string }[]
    >`select cid, tracker from deep_link_tokens where token = ${page.token}`;
    expect(rows[0]).toEqual({ cid: 'abc', tracker: 'insta' });
    const next = await tap(svc, `/${campaign.alias}`, { ua: UA.iPhone });
    expect(next.body).toContain('signpost:deeplink-token');
  });
});

describe("Fastify's and Node's own refusals answer the API's error body", () => {
  it('a URL whose percent-encoding is not UTF-8 is 400 BAD_URL', async () => {
    expectError(await svc.inject({ method: 'GET', url: '/api/v1/service/urls/%ED%A0%80' }), 400, { code: 'BAD_URL' });
    expectRawError(await rawHttp(`GET /api/v1/service/users/%FF HTTP/1.1\r\nHost: ${host}\r\n\r\n`), 400, 'BAD_URL');
  });

  it('a path segment over the router limit is 414, a URL over the header limit is 414, headers are 431', async () => {
    expectError(await svc.inject({ method: 'GET', url: `/api/v1/service/users/${'a'.repeat(600)}` }), 414, {
      code: 'URI_TOO_LONG',
    });
    expectRawError(
      await rawHttp(`GET /api/v1/service/users/${'a'.repeat(600)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`),
      414,
      'URI_TOO_LONG',
    );
    expectRawError(await rawHttp(`GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`), 414, 'URI_TOO_LONG');
    expectRawError(
      await rawHttp(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`),
      431,
      'HEADERS_TOO_LARGE',
    );
  });

  it('malformed request lines, methods and Content-Length are 400s', async () => {
    expectRawError(await rawHttp('GARBAGE\r\n\r\n'), 400, 'MALFORMED_REQUEST');
    expectRawError(await rawHttp(`G@T /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`), 400, 'MALFORMED_REQUEST');
    expectRawError(await rawHttp(`GET /healthz HTTP/9.9\r\nHost: ${host}\r\n\r\n`), 400, 'MALFORMED_REQUEST');
    expectRawError(
      await rawHttp(
        `POST /api/admin/v1/organizations HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`,
      ),
      400,
      'INVALID_CONTENT_LENGTH',
    );
    expectRawError(
      await rawHttp(
        `POST /api/admin/v1/organizations HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      ),
      400,
      'INVALID_CONTENT_LENGTH',
    );
    expectRawError(
      await rawHttp(
        `POST /api/admin/v1/organizations HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
      ),
      400,
      'MALFORMED_BODY',
    );
  });

  it('a wrong content type is 415 and a body over 1 MiB is 413, over the socket too', async () => {
    const auth = `Authorization: Bearer ${ADMIN_TOKEN}`;
    expectRawError(
      await rawHttp(
        `POST /api/admin/v1/organizations HTTP/1.1\r\nHost: ${host}\r\n${auth}\r\nContent-Type: application/xml\r\nContent-Length: 2\r\nConnection: close\r\n\r\n<a>`,
      ),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    const big = JSON.stringify({ name: 'x'.repeat(1_100_000) });
    expectRawError(
      await rawHttp(
        `POST /api/admin/v1/organizations HTTP/1.1\r\nHost: ${host}\r\n${auth}\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\nConnection: close\r\n\r\n${big}`,
      ),
      413,
      'BODY_TOO_LARGE',
    );
  });
});

describe('shutting down', () => {
  it('a request arriving on an open connection while the service closes gets a 503 error body with Connection: close', async () => {
    // A bare app with the service's hooks: the first request holds its connection open while the
    // app starts closing; the second, pipelined behind it, arrives once the close has begun.
    const probe = Fastify({ return503OnClosing: false });
    registerErrorHandling(probe);
    registerShutdownAnswer(probe);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const firstArrived = new Promise<void>((resolve) => (started = resolve));
    let closingBegun!: () => void;
    const begun = new Promise<void>((resolve) => (closingBegun = resolve));
    probe.addHook('preClose', (done) => {
      closingBegun();
      done();
    });
    let secondAnswered!: () => void;
    const answered = new Promise<void>((resolve) => (secondAnswered = resolve));
    probe.addHook('onSend', (request, _reply, payload, done) => {
      if (request.url === '/fast') secondAnswered();
      done(null, payload);
    });
    probe.get('/slow', async () => {
      started();
      await held;
      return { ok: true };
    });
    probe.get('/fast', async () => ({ ok: true }));
    await probe.listen({ port: 0, host: '127.0.0.1' });
    const { port: probePort } = probe.server.address() as net.AddressInfo;
    const socket = net.connect({ host: '127.0.0.1', port: probePort });
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /slow HTTP/1.1\r\nHost: probe\r\n\r\n');
    await firstArrived;
    const closed = probe.close();
    await begun;
    socket.write('GET /fast HTTP/1.1\r\nHost: probe\r\n\r\n');
    await answered;
    release();
    await Promise.all([ended, closed]);
    const text = Buffer.concat(chunks).toString('utf8');
    const second = text.slice(text.indexOf('HTTP/1.1', 1));
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second.toLowerCase()).toContain('connection: close');
    const body = JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4));
    expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'status', 'timestamp']);
    expect(body).toMatchObject({ status: 503, error: 'Service Unavailable', code: 'SHUTTING_DOWN' });
  });
});

describe('a value PostgreSQL refuses is a 400, not a 500', () => {
  it('maps data exceptions (SQLSTATE class 22) and values too large (54000) in the one error handler', async () => {
    // A bare app with the service's error handler, running statements on the real database: the
    // edge's own checks stop these before PostgreSQL, so nothing else reaches the handler this way.
    const probe = Fastify();
    registerErrorHandling(probe);
    const { sql } = svc.container.postgres;
    const statements: Record<string, () => Promise<unknown>> = {
      nul: () => sql`select ${'a\u0000b'}::text`,
      int: () => sql`select ${'abc'}::int`,
      long: () =>
        sql.begin(async (tx) => {
          await tx`create temp table edge_probe (v varchar(2)) on commit drop`;
          await tx`insert into edge_probe values (${'abcdef'})`;
        }),
      range: () => sql`select ${'99999999999'}::int4`,
      date: () => sql`select (${'2025-13-45'}::text)::timestamptz`,
      tsvector: () => sql`select repeat('x', 1100000)::tsvector`,
      missing: () => sql`select * from no_such_table`,
    };
    probe.get('/:name', async (request) => statements[(request.params as { name: string }).name]!());
    const expected: Record<string, [number, string]> = {
      nul: [400, 'INVALID_TEXT'],
      int: [400, 'INVALID_VALUE'],
      long: [400, 'VALUE_TOO_LONG'],
      range: [400, 'VALUE_OUT_OF_RANGE'],
      date: [400, 'INVALID_DATE_TIME'],
      tsvector: [400, 'VALUE_TOO_LARGE'],
      missing: [500, 'INTERNAL_ERROR'],
    };
    for (const [name, [status, code]] of Object.entries(expected)) {
      const res = await probe.inject({ method: 'GET', url: `/${name}` });
      const body = expectError(res, status, { code });
      expect(body.message, name).not.toMatch(/select|relation|syntax/i);
    }
    await probe.close();
  });
});
