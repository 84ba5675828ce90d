// Console sign-in by mail link and by the operator's login link, and the session rules: cookie
// flags, a new session at every sign-in (no fixation), idle and absolute expiry, sign-out here
// and everywhere, CSRF refusal, per-address and per-email limits, and roles checked on the server.
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from './support/outbox.js';
import { isolate, startService, type Isolation, type TestService } from './support/service.js';

const BASE = 'http://localhost:8080';

const cookieOf = (res: LightMyRequestResponse, name: string): string | undefined => {
  const all = res.headers['set-cookie'];
  const list = Array.isArray(all) ? all : all ? [String(all)] : [];
  return list
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0]
    ?.slice(name.length + 1);
};

const linkIn = (text: string) => /http:\/\/localhost:8080(\/console\/auth\/link\?token=[A-Za-z0-9_-]+)/.exec(text)?.[1];

describe('console sessions', () => {
  let isolation: Isolation;
  let svc: TestService;
  let orgId: number;

  const get = (url: string, cookie?: string) =>
    svc.inject({ method: 'GET', url, headers: cookie ? { cookie: `sp_session=${cookie}` } : {} });
  const call = (
    method: string,
    url: string,
    cookie: string,
    options: { csrf?: string; origin?: string | null; body?: unknown } = {},
  ) =>
    svc.inject({
      method: method as 'POST',
      url,
      headers: {
        cookie: `sp_session=${cookie}`,
        ...(options.origin === null ? {} : { origin: options.origin ?? BASE }),
        ...(options.csrf ? { 'x-csrf-token': options.csrf } : {}),
      },
      ...(options.body === undefined ? {} : { payload: options.body as object }),
    });

  async function signIn(email: string): Promise<{ cookie: string; csrf: string }> {
    const link = await svc.admin('POST', '/login-links', { email });
    expect(link.statusCode).toBe(201);
    const res = await get(new URL(link.json().url).pathname + new URL(link.json().url).search);
    expect(res.statusCode).toBe(302);
    const cookie = cookieOf(res, 'sp_session')!;
    const session = (await get('/console/api/session', cookie)).json();
    return { cookie, csrf: session.csrfToken };
  }

  beforeAll(async () => {
    isolation = await isolate();
    svc = await startService(isolation, {
      PUBLIC_BASE_URL: BASE,
      SIGN_IN_LIMIT_PER_EMAIL: '3',
      SIGN_IN_LIMIT_PER_IP: '12',
    });
    orgId = (await svc.createOrganization('Console Org')).id;
    for (const [email, role] of [
      ['owner@example.com', 'owner'],
      ['admin@example.com', 'admin'],
      ['analyst@example.com', 'analyst'],
    ]) {
      expect((await svc.admin('POST', `/organizations/${orgId}/members`, { email, role })).statusCode).toBe(201);
    }
  });

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  it('operator members: created with the account, listed, the same address again changes the role', async () => {
    const added = await svc.admin('POST', `/organizations/${orgId}/members`, {
      email: 'Dev@Example.com',
      role: 'developer',
      name: 'Dev',
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ email: 'Dev@example.com', role: 'developer', name: 'Dev', lastLoginAt: null });
    const again = await svc.admin('POST', `/organizations/${orgId}/members`, {
      email: 'dev@example.com',
      role: 'analyst',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: added.json().id, role: 'analyst' });
    const list = (await svc.admin('GET', `/organizations/${orgId}/members`)).json() as {
      email: string;
      role: string;
    }[];
    expect(list.map((m) => [m.email, m.role])).toEqual([
      ['owner@example.com', 'owner'],
      ['admin@example.com', 'admin'],
      ['analyst@example.com', 'analyst'],
      ['Dev@example.com', 'analyst'],
    ]);
    expect(
      (await svc.admin('POST', '/organizations/999999/members', { email: 'x@example.com', role: 'owner' })).statusCode,
    ).toBe(404);
    expect(
      (await svc.admin('POST', `/organizations/${orgId}/members`, { email: 'not-an-address', role: 'owner' }))
        .statusCode,
    ).toBe(400);
    // The address is sealed at rest.
    const rows = await svc.container.postgres.sql<{ email_sealed: string }[]>`select email_sealed from users`;
    expect(rows.every((r) => !r.email_sealed.includes('@'))).toBe(true);
  });

  it("the operator's login link: 15 minutes, once, a session cookie and the console", async () => {
    const res = await svc.admin('POST', '/login-links', { email: 'OWNER@example.com' });
    expect(res.statusCode).toBe(201);
    const { url, expiresAt } = res.json();
    expect(url).toMatch(/^http:\/\/localhost:8080\/console\/auth\/link\?token=/);
    expect(Math.abs(new Date(expiresAt).getTime() - Date.now() - 15 * 60_000)).toBeLessThan(10_000);
    const opened = await get(new URL(url).pathname + new URL(url).search);
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/console/');
    const setCookie = String(opened.headers['set-cookie']);
    expect(setCookie).toMatch(/^sp_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Expires=/);
    expect(setCookie).not.toContain('Secure');
    // The console app's page: Korean by default, never cached, scripts only from this origin.
    const page = await get('/console/', cookieOf(opened, 'sp_session'));
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/^<!doctype html>\s*<html lang="ko">/i);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'; style-src 'self' 'nonce-[^']+'/);
    expect(page.body).toContain(
      `content="${/nonce-([^']+)/.exec(String(page.headers['content-security-policy']))![1]}"`,
    );
    const english = await svc.inject({
      method: 'GET',
      url: '/console/members?lang=en',
      headers: { cookie: `sp_session=${cookieOf(opened, 'sp_session')}` },
    });
    expect(english.body).toMatch(/<html lang="en">/);
    // Its hashed assets are immutable; an unknown one, or an unknown API path, is a JSON 404.
    const script = /src="\/console\/assets\/([^"]+\.js)"/.exec(page.body)![1]!;
    const asset = await get(`/console/assets/${script}`);
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/console/assets/nope.js')).statusCode).toBe(404);
    expect((await get('/console/api/nope', cookieOf(opened, 'sp_session'))).json().code).toBe('ROUTE_NOT_FOUND');
    expect((await get(new URL(url).pathname + new URL(url).search)).statusCode).toBe(410);
    expect((await svc.admin('POST', '/login-links', { email: 'nobody@example.com' })).statusCode).toBe(404);
  });

  it('a sign-in replaces a planted session: the fixed token is revoked, the new one differs', async () => {
    const victim = await signIn('admin@example.com');
    const link = (await svc.admin('POST', '/login-links', { email: 'admin@example.com' })).json().url as string;
    const res = await svc.inject({
      method: 'GET',
      url: new URL(link).pathname + new URL(link).search,
      headers: { cookie: `sp_session=${victim.cookie}` },
    });
    const fresh = cookieOf(res, 'sp_session')!;
    expect(fresh).not.toBe(victim.cookie);
    expect((await get('/console/api/session', victim.cookie)).statusCode).toBe(401);
    expect((await get('/console/api/session', fresh)).statusCode).toBe(200);
  });

  it('refuses a state change without the CSRF token or from another origin', async () => {
    const { cookie, csrf } = await signIn('owner@example.com');
    const url = `/console/api/organizations/${orgId}/members`;
    const body = { email: 'csrf@example.com', role: 'analyst' };
    const noToken = await call('POST', url, cookie, { body });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().code).toBe('CSRF_TOKEN_INVALID');
    const wrongToken = await call('POST', url, cookie, { body, csrf: `${csrf}x` });
    expect(wrongToken.statusCode).toBe(403);
    const otherOrigin = await call('POST', url, cookie, { body, csrf, origin: 'https://evil.example' });
    expect(otherOrigin.json().code).toBe('CSRF_ORIGIN_MISMATCH');
    const noOrigin = await call('POST', url, cookie, { body, csrf, origin: null });
    expect(noOrigin.statusCode).toBe(403);
    const members = (await svc.admin('GET', `/organizations/${orgId}/members`)).json() as { email: string }[];
    expect(members.map((m) => m.email)).not.toContain('csrf@example.com');
    expect((await call('POST', url, cookie, { body, csrf })).statusCode).toBe(201);
  });

  it('roles are checked on the server: an analyst reads, an admin cannot touch owners, the last owner stays', async () => {
    const analyst = await signIn('analyst@example.com');
    const url = `/console/api/organizations/${orgId}/members`;
    expect((await get(url, analyst.cookie)).statusCode).toBe(200);
    const refused = await call('POST', url, analyst.cookie, {
      csrf: analyst.csrf,
      body: { email: 'x@example.com', role: 'analyst' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ROLE_FORBIDDEN');
    expect((await get(`/console/api/organizations/${orgId}/audit-log`, analyst.cookie)).statusCode).toBe(403);

    const admin = await signIn('admin@example.com');
    expect(
      (
        await call('POST', url, admin.cookie, { csrf: admin.csrf, body: { email: 'boss@example.com', role: 'owner' } })
      ).json().code,
    ).toBe('OWNER_ROLE_RESERVED');
    const list = (await get(url, admin.cookie)).json() as { id: number; email: string }[];
    const ownerId = list.find((m) => m.email === 'owner@example.com')!.id;
    expect((await call('DELETE', `${url}/${ownerId}`, admin.cookie, { csrf: admin.csrf })).statusCode).toBe(403);

    const owner = await signIn('owner@example.com');
    const demote = await call('PUT', `${url}/${ownerId}`, owner.cookie, { csrf: owner.csrf, body: { role: 'admin' } });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().code).toBe('LAST_OWNER');

    // Another organization's id answers as if it did not exist.
    const other = await svc.createOrganization('Elsewhere');
    expect((await get(`/console/api/organizations/${other.id}/members`, owner.cookie)).statusCode).toBe(404);

    const audit = (await get(`/console/api/organizations/${orgId}/audit-log`, owner.cookie)).json() as {
      action: string;
    }[];
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['member.added', 'member.role_changed']));
  });

  it('sign-out ends this session; sign-out everywhere ends them all', async () => {
    const one = await signIn('analyst@example.com');
    const two = await signIn('analyst@example.com');
    expect((await call('POST', '/console/api/sign-out', one.cookie, { csrf: one.csrf })).statusCode).toBe(204);
    expect((await get('/console/api/session', one.cookie)).statusCode).toBe(401);
    expect((await get('/console/api/session', two.cookie)).statusCode).toBe(200);
    const three = await signIn('analyst@example.com');
    const all = await call('POST', '/console/api/sign-out-everywhere', three.cookie, { csrf: three.csrf });
    // two, three and the one the roles test left open.
    expect(all.json()).toEqual({ ended: 3 });
    expect((await get('/console/api/session', two.cookie)).statusCode).toBe(401);
    expect((await get('/console/', two.cookie)).headers.location).toMatch(/^\/console\/sign-in/);
    const audited = await svc.container.postgres.sql<{ action: string; details: { ended?: number } }[]>`
      select action, details from audit_log where action like 'sign_out%' order by id`;
    expect(audited).toEqual([
      { action: 'sign_out', details: {} },
      { action: 'sign_out.everywhere', details: { ended: 3 } },
    ]);
  });

  it('idle and absolute expiry end a session', async () => {
    const idle = await signIn('admin@example.com');
    const absolute = await signIn('admin@example.com');
    const { sql } = svc.container.postgres;
    await sql`update console_sessions set last_seen_at = now() - interval '13 hours' where token_hash = sha256(${idle.cookie}::bytea)`;
    await sql`update console_sessions set expires_at = now() - interval '1 second' where token_hash = sha256(${absolute.cookie}::bytea)`;
    expect((await get('/console/api/session', idle.cookie)).statusCode).toBe(401);
    expect((await get('/console/api/session', absolute.cookie)).statusCode).toBe(401);
  });

  it('mail-link sign-in: the form mails a link to an account in its language, says the same for an unknown address, and limits per address', async () => {
    const form = (email: string, origin: string | null = BASE) =>
      svc.inject({
        method: 'POST',
        url: '/console/sign-in',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(origin ? { origin } : {}),
          'x-forwarded-for': '203.0.113.9',
        },
        payload: `email=${encodeURIComponent(email)}`,
      });
    const before = (await readOutbox(svc)).length;
    const known = await form('analyst@example.com');
    const unknown = await form('stranger@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    // Word for word the same page (each has its own CSP nonce): the form tells no one who has an account.
    const withoutNonce = (html: string) => html.replace(/nonce="[^"]+"/g, '');
    expect(withoutNonce(unknown.body)).toBe(withoutNonce(known.body));
    const mails = (await readOutbox(svc)).slice(before);
    expect(mails).toEqual([expect.objectContaining({ to: 'analyst@example.com', subject: 'Signpost 로그인 링크' })]);
    const signedIn = await get(linkIn(mails[0]!.text)!);
    expect(signedIn.headers.location).toBe('/console/');

    expect((await form('analyst@example.com', null)).statusCode).toBe(403);
    expect((await form('analyst@example.com')).statusCode).toBe(200);
    expect((await form('analyst@example.com')).statusCode).toBe(200);
    const limited = await form('analyst@example.com');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('limits sign-in attempts per client address', async () => {
    const attempt = () =>
      svc.inject({ method: 'GET', url: '/console/auth/link?token=guess', remoteAddress: '198.51.100.7' });
    const statuses = [];
    for (let i = 0; i < 14; i++) statuses.push((await attempt()).statusCode);
    expect(statuses.slice(0, 12).every((s) => s === 410)).toBe(true);
    expect(statuses.slice(12)).toEqual([429, 429]);
    // Another address is untouched.
    expect(
      (await svc.inject({ method: 'GET', url: '/console/auth/link?token=guess', remoteAddress: '198.51.100.8' }))
        .statusCode,
    ).toBe(410);
  });
});

describe('console without a built app', () => {
  let isolation: Isolation;
  let svc: TestService;

  beforeAll(async () => {
    isolation = await isolate();
    // A checkout whose prepare step did not run: an empty app folder.
    const empty = fs.mkdtempSync(path.join(isolation.dataDir, 'no-console-'));
    svc = await startService(isolation, { PUBLIC_BASE_URL: BASE, CONSOLE_DIR: empty });
  });

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  it('answers the server-rendered landing page: who is signed in, their organizations, sign-out', async () => {
    const org = await svc.createOrganization('Plain');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'plain@example.com', role: 'developer' });
    const link = new URL((await svc.admin('POST', '/login-links', { email: 'plain@example.com' })).json().url);
    const opened = await svc.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    const page = await svc.inject({
      method: 'GET',
      url: '/console/',
      headers: { cookie: `sp_session=${cookieOf(opened, 'sp_session')}` },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<strong data-testid="user-email">plain@example.com</strong>');
    expect(page.body).toContain('Plain</strong> · 개발자');
    expect(page.body).toContain('action="/console/sign-out"');
  });
});
