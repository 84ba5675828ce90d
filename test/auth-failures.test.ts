// Brute force: after AUTH_FAILURE_LIMIT wrong credentials from one address within the window, that
// address gets 429 with Retry-After and the error body on that surface (Service API key, operator
// token, mobile app API key, console session cookie), even for a right credential; other addresses, and callers that
// present no credential at all, are untouched.
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleSignIn } from './support/console-api.js';
import { expectError } from './support/error-body.js';
import { ADMIN_TOKEN, serviceForFile } from './support/service.js';

const LIMIT = 5;
let org: { id: number; apiKey: string };
let app: { id: number; apiKey: string };

const svc = serviceForFile({ AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_FAILURE_WINDOW_SECONDS: '600' });

beforeAll(async () => {
  org = await svc.createOrganization('Guarded', 'PRO');
  const res = await svc.service('POST', '/mobile-apps', org.apiKey, {
    platform: 'ANDROID',
    appName: 'Guarded',
    bundleId: 'com.example.guarded',
  });
  app = res.json() as typeof app;
});

type Call = (credential: string | undefined, remoteAddress: string) => Promise<LightMyRequestResponse>;

/** The same story on every surface. */
async function bruteForce(
  call: Call,
  right: string,
  wrong: string,
  codes: { invalid: string; limited: string; missing?: number },
) {
  const attacker = '198.51.100.7';
  const neighbour = '198.51.100.8';
  for (let i = 0; i < LIMIT; i++) expectError(await call(`${wrong}${i}`, attacker), 401, { code: codes.invalid });
  const blocked = expectError(await call(`${wrong}x`, attacker), 429, { code: codes.limited });
  expect(blocked.message).toMatch(/too many failed/);
  const withRight = await call(right, attacker);
  expectError(withRight, 429, { code: codes.limited });
  const retryAfter = Number(withRight.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
  // Another address: right credentials work, wrong ones are an ordinary 401.
  expect((await call(right, neighbour)).statusCode).toBe(200);
  expectError(await call(`${wrong}y`, neighbour), 401, { code: codes.invalid });
  // No credential at all is not a guess: never counted.
  const quiet = '198.51.100.9';
  for (let i = 0; i < LIMIT * 2; i++) expect((await call(undefined, quiet)).statusCode).toBe(codes.missing ?? 401);
  expect((await call(right, quiet)).statusCode).toBe(200);
}

describe('failed authentications per client address', () => {
  it('Service API keys', async () => {
    await bruteForce(
      (key, remoteAddress) =>
        svc.inject({
          method: 'GET',
          url: '/api/v1/service/usage',
          remoteAddress,
          headers: key === undefined ? {} : { 'x-api-key': key },
        }),
      org.apiKey,
      'sp_live_guess',
      { invalid: 'API_KEY_INVALID', limited: 'API_KEY_FAILURES' },
    );
  });

  it('operator tokens', async () => {
    await bruteForce(
      (token, remoteAddress) =>
        svc.inject({
          method: 'GET',
          url: `/api/admin/v1/organizations/${org.id}`,
          remoteAddress,
          headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        }),
      ADMIN_TOKEN,
      'guess-',
      { invalid: 'ADMIN_TOKEN_INVALID', limited: 'ADMIN_TOKEN_FAILURES' },
    );
  });

  it('mobile app API keys', async () => {
    await bruteForce(
      (key, remoteAddress) =>
        svc.inject({
          method: 'GET',
          url: '/api/v1/sdk/mobile/custom-domains',
          remoteAddress,
          headers: { 'x-app-id': String(app.id), ...(key === undefined ? {} : { 'x-mobile-app-api-key': key }) },
        }),
      app.apiKey,
      'guess-',
      { invalid: 'APP_CREDENTIALS_INVALID', limited: 'APP_CREDENTIALS_FAILURES' },
    );
  });

  it('console session cookies, whose refusal clears the cookie', async () => {
    const base = svc.config.server.publicBaseUrl;
    const member = await svc.admin('POST', `/organizations/${org.id}/members`, {
      email: 'guarded@example.com',
      role: 'analyst',
    });
    expect(member.statusCode, member.body).toBe(201);
    const signedIn = await consoleSignIn(svc, base, 'guarded@example.com');
    const token = /sp_session=([^;]+)/.exec(signedIn.cookie)![1]!;
    const call: Call = (cookie, remoteAddress) =>
      svc.inject({
        method: 'GET',
        url: '/console/api/session',
        remoteAddress,
        headers: cookie === undefined ? {} : { cookie: `sp_session=${cookie}` },
      });
    const wrong = await call('not-a-session', '198.51.100.70');
    expectError(wrong, 401, { code: 'SESSION_REQUIRED' });
    expect(String(wrong.headers['set-cookie'])).toMatch(/^sp_session=; Path=\/; .*Max-Age=0/);
    // A right cookie is left alone.
    expect((await call(token, '198.51.100.70')).headers['set-cookie']).toBeUndefined();
    await bruteForce(call, token, 'guess-', { invalid: 'SESSION_REQUIRED', limited: 'SESSION_FAILURES' });
  });

  it('keeps its own count per surface: an address locked out of one still uses the others', async () => {
    const address = '203.0.113.50';
    for (let i = 0; i <= LIMIT; i++)
      await svc.inject({
        method: 'GET',
        url: '/api/v1/service/usage',
        remoteAddress: address,
        headers: { 'x-api-key': `nope${i}` },
      });
    expectError(
      await svc.inject({
        method: 'GET',
        url: '/api/v1/service/usage',
        remoteAddress: address,
        headers: { 'x-api-key': org.apiKey },
      }),
      429,
      { code: 'API_KEY_FAILURES' },
    );
    const admin = await svc.inject({
      method: 'GET',
      url: `/api/admin/v1/organizations/${org.id}`,
      remoteAddress: address,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(admin.statusCode).toBe(200);
  });
});
