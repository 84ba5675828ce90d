// The HTTP core: the API's error body for every client mistake, health and readiness, request
// ids, the OpenAPI document and the reference page.
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, serviceForFile } from './support/service.js';
import { expectError } from './support/error-body.js';

const svc = serviceForFile();

const adminHeaders = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('error bodies', () => {
  it('malformed JSON is 400 MALFORMED_JSON', async () => {
    const res = await svc.inject({
      method: 'POST',
      url: '/api/admin/v1/organizations',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: '{"name": "Acme",',
    });
    const body = expectError(res, 400, { code: 'MALFORMED_JSON' });
    expect(body.error).toBe('Bad Request');
  });

  it('a wrong content type is 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await svc.inject({
        method: 'POST',
        url: '/api/admin/v1/organizations',
        headers: { ...adminHeaders, 'content-type': type },
        payload: 'name=Acme',
      });
      expectError(res, 415, { code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
  });

  it('an empty JSON body is 400', async () => {
    const res = await svc.inject({
      method: 'POST',
      url: '/api/admin/v1/organizations',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(400);
    expectError(res, 400, { code: res.json().code });
  });

  it('an unknown route is 404 ROUTE_NOT_FOUND, for any method', async () => {
    for (const [method, url] of [
      ['GET', '/no/such/thing'],
      ['POST', '/api/v1/service/nothing'],
      ['DELETE', '/api/admin/v1/nothing'],
    ] as const) {
      const res = await svc.inject({ method, url, headers: adminHeaders });
      expectError(res, 404, { code: 'ROUTE_NOT_FOUND' });
    }
  });

  it('an invalid id is 400 naming the parameter', async () => {
    for (const id of ['abc', '-1', '0', '1.5', '99999999999999999999']) {
      const res = await svc.inject({ method: 'GET', url: `/api/admin/v1/organizations/${id}`, headers: adminHeaders });
      const body = expectError(res, 400, { code: 'VALIDATION_FAILED' });
      expect(body.message).toContain('params.orgId');
    }
  });

  it('a body of the wrong shape names each offending field', async () => {
    const res = await svc.inject({
      method: 'POST',
      url: '/api/admin/v1/organizations',
      headers: adminHeaders,
      payload: { name: 42, plan: 'NOPE' },
    });
    const body = expectError(res, 400, { code: 'VALIDATION_FAILED' });
    expect(body.message).toContain('body.name');
    expect(body.message).toContain('body.plan');
  });

  it('a body over 1 MiB is 413', async () => {
    const res = await svc.inject({
      method: 'POST',
      url: '/api/admin/v1/organizations',
      headers: { ...adminHeaders, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
    });
    expectError(res, 413, { code: 'BODY_TOO_LARGE' });
  });
});

describe('health and readiness', () => {
  it('/healthz answers {"status":"ok"}', async () => {
    const res = await svc.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('/readyz answers 200 while serving', async () => {
    const res = await svc.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
  });

  it('/metrics speaks the Prometheus text format', async () => {
    const res = await svc.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('# TYPE signpost_events_accepted_total counter');
  });
});

describe('request ids', () => {
  it('echoes a sane incoming X-Request-Id and makes one otherwise', async () => {
    const given = await svc.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await svc.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    const another = await svc.inject({ method: 'GET', url: '/healthz' });
    expect(another.headers['x-request-id']).not.toBe(made.headers['x-request-id']);
    const error = await svc.inject({ method: 'GET', url: '/nothing' });
    expect(error.headers['x-request-id']).toBeTruthy();
  });
});

describe('API documentation', () => {
  it('serves an OpenAPI 3.1 document generated from the route schemas', async () => {
    const res = await svc.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/v1/service/usage'].get.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths['/api/admin/v1/organizations'].post.requestBody).toBeTruthy();
    expect(doc.components.schemas.ErrorBody.required).toEqual(
      expect.arrayContaining(['status', 'error', 'message', 'timestamp', 'code']),
    );
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-KEY' });
  });

  it('serves a readable reference page at /docs', async () => {
    const res = await svc.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger-ui');
  });
});
