// Partner single sign-on (GET /sso/callback) row by row: the spec's processing order and error
// table, the contract's statuses, HTTPS and origin rules, the partner's organization and role,
// secret rotation, and replay across two instances sharing PostgreSQL. Mail goes to the outbox
// (no SMTP_URL), where the tests read the links, as a developer would.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { simpleParser } from 'mailparser';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { isolate, startService, type Isolation, type TestService } from './support/service.js';

const BASE = 'https://sp.example.com';
const PARTNER_ORIGIN = 'https://partner.example';
const LOGIN_URL = 'https://partner.example/login';

interface Partner {
  clientId: string;
  sharedSecret: string;
}

async function sign(
  partner: Partner,
  claims: Record<string, unknown>,
  options: { lifetime?: number; iat?: number | null; jti?: string | null; secret?: string } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  const iat = options.iat === undefined ? now : options.iat;
  const jwt = new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime((iat ?? now) + (options.lifetime ?? 120));
  if (iat !== null) jwt.setIssuedAt(iat);
  if (options.jti !== null) jwt.setJti(options.jti ?? randomUUID());
  return jwt.sign(new TextEncoder().encode(options.secret ?? partner.sharedSecret));
}

function callback(
  svc: TestService,
  token: string,
  clientId: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return svc.inject({
    method: 'GET',
    url: `/sso/callback?token=${encodeURIComponent(token)}&client_id=${encodeURIComponent(clientId)}`,
    headers: { host: 'sp.example.com', 'x-forwarded-proto': 'https', referer: `${PARTNER_ORIGIN}/app`, ...headers },
  });
}

const cookieOf = (res: LightMyRequestResponse, name: string): string | undefined => {
  const all = res.headers['set-cookie'];
  const list = Array.isArray(all) ? all : all ? [String(all)] : [];
  return list
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0]
    ?.slice(name.length + 1);
};

/** The links of the outbox's messages to `to`, oldest first. */
async function outboxLinks(svc: TestService, to: string): Promise<string[]> {
  const dir = path.join(svc.config.stores.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  const links: string[] = [];
  for (const file of fs.readdirSync(dir).sort()) {
    const mail = await simpleParser(fs.readFileSync(path.join(dir, file)));
    if (mail.to && !Array.isArray(mail.to) && mail.to.value[0]?.address === to) {
      const link = /https:\/\/sp\.example\.com\/console\/auth\/link\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0];
      if (link) links.push(link);
    }
  }
  return links;
}

async function follow(svc: TestService, link: string): Promise<LightMyRequestResponse> {
  const url = new URL(link);
  return svc.inject({
    method: 'GET',
    url: `${url.pathname}${url.search}`,
    headers: { host: 'sp.example.com', 'x-forwarded-proto': 'https' },
  });
}

const session = (svc: TestService, cookie: string) =>
  svc.inject({
    method: 'GET',
    url: '/console/api/session',
    headers: { host: 'sp.example.com', 'x-forwarded-proto': 'https', cookie: `sp_session=${cookie}` },
  });

describe('partner single sign-on', () => {
  let isolation: Isolation;
  let svc: TestService;
  let partner: Partner;

  beforeAll(async () => {
    isolation = await isolate();
    svc = await startService(isolation, { PUBLIC_BASE_URL: BASE, TRUST_PROXY: 'true' });
    const res = await svc.admin('POST', '/partners', {
      serviceName: 'Partner Shop',
      allowedOrigins: [PARTNER_ORIGIN, 'http://localhost:3000'],
      loginUrl: LOGIN_URL,
      contactEmail: 'dev@partner.example',
    });
    expect(res.statusCode).toBe(201);
    partner = res.json();
  });

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  it('new user: terms consent, then a verification mail, then an account of their own (FREE, owner) and a session', async () => {
    const res = await callback(
      svc,
      await sign(partner, { sub: 'u-new', email: 'new@example.com', name: 'New Person' }),
      partner.clientId,
    );
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(/^\/sso\/consent/);
    const consent = cookieOf(res, 'sp_sso_consent')!;
    expect(String(res.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax; Secure/);

    const page = await svc.inject({
      method: 'GET',
      url: '/sso/consent',
      headers: { host: 'sp.example.com', cookie: `sp_sso_consent=${consent}` },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="ko">');
    expect(page.body).toContain('서비스 이용약관 동의');
    expect(page.body).toContain('new@example.com');

    // A cross-site form post is refused; the same-origin one sends the verification mail.
    const form = {
      'content-type': 'application/x-www-form-urlencoded',
      host: 'sp.example.com',
      cookie: `sp_sso_consent=${consent}`,
    };
    const crossSite = await svc.inject({
      method: 'POST',
      url: '/sso/consent',
      headers: { ...form, origin: 'https://evil.example' },
      payload: 'decision=accept&accept=yes',
    });
    expect(crossSite.statusCode).toBe(403);
    expect(await outboxLinks(svc, 'new@example.com')).toHaveLength(0);
    const accepted = await svc.inject({
      method: 'POST',
      url: '/sso/consent',
      headers: { ...form, origin: BASE },
      payload: 'decision=accept&accept=yes',
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.body).toContain('n***@example.com');
    const [link] = await outboxLinks(svc, 'new@example.com');
    expect(link).toBeDefined();

    const signedIn = await follow(svc, link!);
    expect(signedIn.statusCode).toBe(302);
    expect(signedIn.headers.location).toBe('/console/');
    const me = (await session(svc, cookieOf(signedIn, 'sp_session')!)).json();
    expect(me.user).toMatchObject({ email: 'new@example.com', name: 'New Person' });
    expect(me.memberships).toEqual([
      expect.objectContaining({ organizationName: 'New Person', plan: 'FREE', role: 'owner' }),
    ]);
    // The link worked once.
    expect((await follow(svc, link!)).statusCode).toBe(410);

    // Linked now: the next sign-in goes straight into the console.
    const again = await callback(svc, await sign(partner, { sub: 'u-new' }), partner.clientId);
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('/console/');
    expect(cookieOf(again, 'sp_session')).toBeTruthy();
  });

  it('existing account by email (any case): a verification link to that address links the accounts', async () => {
    const org = await svc.createOrganization('Existing');
    expect(
      (await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'kim@example.com', role: 'analyst' }))
        .statusCode,
    ).toBe(201);
    const res = await callback(svc, await sign(partner, { sub: 'kim-1', email: 'KIM@Example.com' }), partner.clientId);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('k***@example.com');
    const [link] = await outboxLinks(svc, 'kim@example.com');
    const signedIn = await follow(svc, link!);
    expect(signedIn.statusCode).toBe(302);
    const me = (await session(svc, cookieOf(signedIn, 'sp_session')!)).json();
    // No organization of their own: they already belong to one.
    expect(me.memberships).toEqual([expect.objectContaining({ organizationId: org.id, role: 'analyst' })]);
    expect((await callback(svc, await sign(partner, { sub: 'kim-1' }), partner.clientId)).headers.location).toBe(
      '/console/',
    );
  });

  it('one partner service per account: the second link to the same account is refused with a page', async () => {
    const org = await svc.createOrganization('Lee Org');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'lee@example.com', role: 'developer' });
    const other = (
      await svc.admin('POST', '/partners', {
        serviceName: 'Other Shop',
        allowedOrigins: PARTNER_ORIGIN,
        loginUrl: 'https://other.example/login',
        contactEmail: 'o@other.example',
      })
    ).json() as Partner;
    expect(
      (await callback(svc, await sign(partner, { sub: 'lee-1', email: 'lee@example.com' }), partner.clientId))
        .statusCode,
    ).toBe(200);
    expect(
      (await callback(svc, await sign(other, { sub: 'lee-2', email: 'lee@example.com' }), other.clientId)).statusCode,
    ).toBe(200);
    // Whichever link is followed first links its partner; the other is refused.
    const answers = await Promise.all((await outboxLinks(svc, 'lee@example.com')).map((link) => follow(svc, link)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([302, 409]);
    const refused = answers.find((r) => r.statusCode === 409)!;
    expect(refused.headers['content-type']).toMatch(/text\/html/);
    expect(refused.body).toContain('이 계정은 이미 다른 파트너 서비스와 연결되어 있습니다.');
    expect(refused.body).toMatch(/href="https:\/\/(other|partner)\.example\/login"/);
    // And the linked account cannot start another link either.
    const again = await callback(svc, await sign(other, { sub: 'lee-3', email: 'lee@example.com' }), other.clientId);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('이 계정은 이미 다른 파트너 서비스와 연결되어 있습니다.');
  });

  it("a partner's organizationId: its users join it with the partner's role", async () => {
    const org = await svc.createOrganization('Partner Org');
    const res = await svc.admin('POST', '/partners', {
      serviceName: 'Org Partner',
      allowedOrigins: PARTNER_ORIGIN,
      loginUrl: LOGIN_URL,
      contactEmail: 'x@partner.example',
      organizationId: org.id,
      defaultRole: 'analyst',
    });
    const orgPartner = res.json() as Partner;
    const first = await callback(
      svc,
      await sign(orgPartner, { sub: 'op-1', email: 'joiner@example.com' }),
      orgPartner.clientId,
    );
    const consent = cookieOf(first, 'sp_sso_consent')!;
    await svc.inject({
      method: 'POST',
      url: '/sso/consent',
      payload: 'decision=accept&accept=yes',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        host: 'sp.example.com',
        origin: BASE,
        cookie: `sp_sso_consent=${consent}`,
      },
    });
    const signedIn = await follow(svc, (await outboxLinks(svc, 'joiner@example.com'))[0]!);
    const me = (await session(svc, cookieOf(signedIn, 'sp_session')!)).json();
    expect(me.memberships).toEqual([expect.objectContaining({ organizationId: org.id, role: 'analyst' })]);
    const listed = (await svc.admin('GET', `/partners/${orgPartner.clientId}`)).json();
    expect(listed).toMatchObject({ organizationId: org.id, defaultRole: 'analyst', serviceName: 'Org Partner' });
    expect(JSON.stringify(listed)).not.toContain(orgPartner.sharedSecret);
  });

  it('refuses, with the spec message, the status of the contract and a link to the partner login', async () => {
    const now = Math.floor(Date.now() / 1000);
    const rows: [string, () => Promise<LightMyRequestResponse>, number, string][] = [
      [
        'unknown client_id',
        async () => callback(svc, await sign(partner, { sub: 'a', email: 'a@example.com' }), 'spc_unknown'),
        401,
        '등록되지 않은 파트너이거나 SSO 설정이 완료되지 않았습니다.',
      ],
      [
        'expired',
        async () =>
          callback(svc, await sign(partner, { sub: 'a' }, { iat: now - 400, lifetime: 300 }), partner.clientId),
        401,
        '토큰이 만료되었습니다. (최대 유효시간 5분)',
      ],
      [
        'lives more than 5 minutes',
        async () => callback(svc, await sign(partner, { sub: 'a' }, { lifetime: 301 }), partner.clientId),
        401,
        '토큰 유효시간이 너무 깁니다. (최대 유효시간 5분)',
      ],
      [
        'lives long without iat',
        async () => callback(svc, await sign(partner, { sub: 'a' }, { iat: null, lifetime: 900 }), partner.clientId),
        401,
        '토큰 유효시간이 너무 깁니다. (최대 유효시간 5분)',
      ],
      [
        'future iat stretching the life',
        async () =>
          callback(svc, await sign(partner, { sub: 'a' }, { iat: now + 3600, lifetime: 60 }), partner.clientId),
        401,
        '토큰 유효시간이 너무 깁니다. (최대 유효시간 5분)',
      ],
      [
        'wrong key',
        async () =>
          callback(
            svc,
            await sign(partner, { sub: 'a' }, { secret: 'another-secret-another-secret-another' }),
            partner.clientId,
          ),
        401,
        '토큰 서명이 유효하지 않습니다.',
      ],
      [
        'alg none',
        async () =>
          callback(
            svc,
            new UnsecuredJWT({ sub: 'a', jti: randomUUID() }).setExpirationTime('2m').encode(),
            partner.clientId,
          ),
        401,
        '토큰 서명이 유효하지 않습니다.',
      ],
      [
        'HS512',
        async () =>
          callback(
            svc,
            await new SignJWT({ sub: 'a', jti: randomUUID() })
              .setProtectedHeader({ alg: 'HS512' })
              .setExpirationTime('2m')
              .sign(new TextEncoder().encode(partner.sharedSecret)),
            partner.clientId,
          ),
        401,
        '토큰 서명이 유효하지 않습니다.',
      ],
      ['not a JWT', async () => callback(svc, 'not-a-token', partner.clientId), 401, '토큰 서명이 유효하지 않습니다.'],
      [
        'client_id mismatch',
        async () => callback(svc, await sign(partner, { sub: 'a', client_id: 'spc_other' }), partner.clientId),
        401,
        'client_id가 일치하지 않습니다.',
      ],
      [
        'no jti',
        async () => callback(svc, await sign(partner, { sub: 'a' }, { jti: null }), partner.clientId),
        400,
        '토큰에 필수 클레임(sub, jti, exp)이 없습니다.',
      ],
      [
        'no sub',
        async () => callback(svc, await sign(partner, {}), partner.clientId),
        400,
        '토큰에 필수 클레임(sub, jti, exp)이 없습니다.',
      ],
      [
        'new user without email',
        async () => callback(svc, await sign(partner, { sub: 'nobody-yet' }), partner.clientId),
        400,
        '이메일 정보가 없어 가입할 수 없습니다.',
      ],
      [
        'disallowed origin',
        async () =>
          callback(svc, await sign(partner, { sub: 'a' }), partner.clientId, { referer: 'https://evil.example/x' }),
        403,
        '허용되지 않은 출처(origin)에서 온 SSO 요청입니다.',
      ],
      [
        'plain HTTP',
        async () => callback(svc, await sign(partner, { sub: 'a' }), partner.clientId, { 'x-forwarded-proto': 'http' }),
        403,
        'SSO 요청은 HTTPS로만 받을 수 있습니다.',
      ],
    ];
    for (const [name, call, status, message] of rows) {
      const res = await call();
      expect({ name, status: res.statusCode }).toEqual({ name, status });
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body, name).toContain(message);
      if (name !== 'unknown client_id') expect(res.body, name).toContain(`href="${LOGIN_URL}"`);
      expect(res.headers['set-cookie'], name).toBeUndefined();
    }
  });

  it('answers JSON to a client that accepts only JSON', async () => {
    const res = await callback(svc, await sign(partner, { sub: 'a' }, { secret: 'x'.repeat(40) }), partner.clientId, {
      accept: 'application/json',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      status: 401,
      error: 'Unauthorized',
      message: '토큰 서명이 유효하지 않습니다.',
      code: 'SSO_SIGNATURE_INVALID',
    });
  });

  it('a reused jti is 400 even when the rest of the token is new', async () => {
    const jti = randomUUID();
    const first = await callback(svc, await sign(partner, { sub: 'u-new' }, { jti }), partner.clientId);
    expect(first.statusCode).toBe(302);
    const replay = await callback(
      svc,
      await sign(partner, { sub: 'u-new', name: 'other' }, { jti, lifetime: 200 }),
      partner.clientId,
    );
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('이미 사용된 토큰입니다.');
  });

  it('a partner with no allowed origins is refused outright', async () => {
    const res = await svc.admin('POST', '/partners', {
      serviceName: 'Closed',
      allowedOrigins: [],
      loginUrl: LOGIN_URL,
      contactEmail: 'c@partner.example',
    });
    const closed = res.json() as Partner;
    const refused = await callback(svc, await sign(closed, { sub: 'z', email: 'z@example.com' }), closed.clientId, {
      referer: '',
    });
    expect(refused.statusCode).toBe(403);
  });

  it('a new secret: the old one fails, linked users keep their account', async () => {
    const rotated = await svc.admin('POST', `/partners/${partner.clientId}/secret`);
    expect(rotated.statusCode).toBe(201);
    const fresh = rotated.json() as Partner;
    expect(fresh.sharedSecret).not.toBe(partner.sharedSecret);
    expect((await callback(svc, await sign(partner, { sub: 'u-new' }), partner.clientId)).statusCode).toBe(401);
    const ok = await callback(svc, await sign(fresh, { sub: 'u-new' }), partner.clientId);
    expect(ok.headers.location).toBe('/console/');
    partner = fresh;
  });

  it('partners are listed, updated and deleted; the audit log names each security action', async () => {
    const list = (await svc.admin('GET', '/partners?size=100')).json() as { content: { clientId: string }[] };
    expect(list.content.map((p) => p.clientId)).toContain(partner.clientId);
    const updated = await svc.admin('PUT', `/partners/${partner.clientId}`, {
      serviceName: 'Partner Shop 2',
      allowedOrigins: PARTNER_ORIGIN,
      loginUrl: LOGIN_URL,
      contactEmail: 'dev@partner.example',
    });
    expect(updated.json()).toMatchObject({ serviceName: 'Partner Shop 2' });
    const actions = await svc.container.postgres.sql<{ action: string }[]>`select distinct action from audit_log`;
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'partner.registered',
        'partner.secret_rotated',
        'sso.signup',
        'sso.linked',
        'sign_in',
        'member.added',
      ]),
    );
    expect((await svc.admin('DELETE', `/partners/${partner.clientId}`)).statusCode).toBe(204);
    expect((await svc.admin('GET', `/partners/${partner.clientId}`)).statusCode).toBe(404);
    expect((await callback(svc, await sign(partner, { sub: 'u-new' }), partner.clientId)).statusCode).toBe(401);
  });
});

describe('partner single sign-on behind no proxy', () => {
  let isolation: Isolation;
  let svc: TestService;

  beforeAll(async () => {
    isolation = await isolate();
    // A public address and no TRUST_PROXY: X-Forwarded-Proto is a client's claim, not the transport.
    svc = await startService(isolation, { PUBLIC_BASE_URL: BASE });
  });

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  it('refuses plain HTTP even when the request claims https', async () => {
    const partner = (
      await svc.admin('POST', '/partners', {
        serviceName: 'P',
        allowedOrigins: PARTNER_ORIGIN,
        loginUrl: LOGIN_URL,
        contactEmail: 'p@partner.example',
      })
    ).json() as Partner;
    const res = await callback(svc, await sign(partner, { sub: 'x', email: 'x@example.com' }), partner.clientId);
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('SSO 요청은 HTTPS로만 받을 수 있습니다.');
    expect(res.body).toContain(`href="${LOGIN_URL}"`);
  });
});

describe.runIf(backend === 'services')('partner single sign-on on two instances', () => {
  let isolation: Isolation;
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    isolation = await isolate();
    const env = { PUBLIC_BASE_URL: BASE, TRUST_PROXY: 'true' };
    a = await startService(isolation, env);
    b = await startService(isolation, env);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await isolation?.dispose();
  });

  it('a jti used on one instance is refused on the other', async () => {
    const partner = (
      await a.admin('POST', '/partners', {
        serviceName: 'Both',
        allowedOrigins: PARTNER_ORIGIN,
        loginUrl: LOGIN_URL,
        contactEmail: 'b@partner.example',
      })
    ).json() as Partner;
    const token = await sign(partner, { sub: 's-1', email: 'twice@example.com' });
    expect((await callback(a, token, partner.clientId)).statusCode).toBe(302);
    const replay = await callback(b, token, partner.clientId);
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('이미 사용된 토큰입니다.');
  });
});
