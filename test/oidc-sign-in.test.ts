// Console sign-in through an OpenID Connect provider, over HTTP, against a real provider running in
// this process (oidc-provider on a loopback port): the redirect and each parameter the contract
// names, a member signing in into a working session, and every refusal: a wrong state, a replayed
// code, an ID token for another audience or past its expiry or with another nonce, an unverified
// email, an unknown person; and an unknown person of an allowed domain joining the configured
// organization.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from './support/oidc-provider.js';
import { serviceForFile } from './support/service.js';

const PUBLIC_BASE_URL = 'http://127.0.0.1:8080';
const REDIRECT_URI = `${PUBLIC_BASE_URL}/console/auth/oidc/callback`;
const MEMBER = 'member@example.com';

let op: TestOidcProvider;
beforeAll(async () => {
  op = await startOidcProvider();
  op.register(REDIRECT_URI);
});
afterAll(async () => {
  await op?.close();
});

// Registered after the provider's hook, so the service starts knowing its issuer. The first
// organization of the file's stores is number 1 (checked below): people of join.example join it.
// Its log at info shows why each refusal was made.
const logLines: string[] = [];
const svc = serviceForFile(
  () => ({
    LOG_LEVEL: 'info',
    PUBLIC_BASE_URL,
    OIDC_ISSUER: op.issuer,
    OIDC_CLIENT_ID: op.clientId,
    OIDC_CLIENT_SECRET: op.clientSecret,
    OIDC_PROVIDER_NAME: 'Example SSO',
    OIDC_ALLOWED_DOMAINS: 'join.example',
    OIDC_JOIN_ORGANIZATION_ID: '1',
    OIDC_JOIN_ROLE: 'developer',
  }),
  { logDestination: { write: (line: string) => void logLines.push(line) } },
);

/** The reason of the last refusal the service logged. */
function lastRefusal(): string | undefined {
  const line = logLines.findLast((l) => l.includes('OpenID Connect sign-in refused'));
  return line === undefined ? undefined : (JSON.parse(line) as { reason: string }).reason;
}

/** `name=value` of a cookie the response sets, if it does. */
function cookieOf(res: LightMyRequestResponse, name: string): string | undefined {
  const all = res.headers['set-cookie'];
  const list = all === undefined ? [] : Array.isArray(all) ? all : [all];
  const pair = list.find((c) => c.startsWith(`${name}=`))?.split(';')[0];
  return pair === `${name}=` ? undefined : pair;
}

/** GET /console/auth/oidc: the provider's authorization URL and the pending sign-in's cookie. */
async function start(): Promise<{ url: URL; cookie: string; setCookie: string }> {
  const res = await svc.inject({ method: 'GET', url: '/console/auth/oidc' });
  expect(res.statusCode, res.body).toBe(302);
  const setCookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('sp_oidc='));
  const cookie = cookieOf(res, 'sp_oidc');
  if (!cookie || !setCookie) throw new Error('no sp_oidc cookie');
  return { url: new URL(String(res.headers.location)), cookie, setCookie };
}

/** The provider's answer brought back to the callback, with the pending sign-in's cookie. */
const callback = (answer: URL, cookie: string) =>
  svc.inject({
    method: 'GET',
    url: `/console/auth/oidc/callback${answer.search}`,
    headers: { cookie, 'accept-language': 'en' },
  });

/** A whole sign-in as `login`: the callback's response and the provider's answer. */
async function signInAs(login: string): Promise<{ res: LightMyRequestResponse; answer: URL; cookie: string }> {
  const { url, cookie } = await start();
  const answer = await op.signIn(url.href, login);
  return { res: await callback(answer, cookie), answer, cookie };
}

async function sessionOf(res: LightMyRequestResponse) {
  const session = cookieOf(res, 'sp_session');
  expect(session, 'a session cookie').toBeDefined();
  const me = await svc.inject({ method: 'GET', url: '/console/api/session', headers: { cookie: session! } });
  expect(me.statusCode, me.body).toBe(200);
  return me.json() as {
    user: { email: string; name: string | null };
    memberships: { organizationId: number; role: string }[];
  };
}

/** A refusal: the sign-in page with the message, no session. */
function expectRefused(res: LightMyRequestResponse, status: number, message: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/text\/html/);
  expect(res.body).toContain(message);
  expect(res.body).toContain('href="/console/auth/oidc"');
  expect(cookieOf(res, 'sp_session')).toBeUndefined();
}

let orgId: number;
beforeAll(async () => {
  ({ id: orgId } = await svc.createOrganization('Acme'));
  expect(orgId, 'OIDC_JOIN_ORGANIZATION_ID above assumes the first organization is 1').toBe(1);
  const added = await svc.admin('POST', `/organizations/${orgId}/members`, { email: MEMBER, role: 'admin' });
  expect(added.statusCode, added.body).toBe(201);
});

describe('GET /console/auth/oidc', () => {
  it('answers 302 to the discovered authorization endpoint with every parameter of the code flow with PKCE', async () => {
    const discovery = (await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as {
      authorization_endpoint: string;
    };
    const { url, setCookie } = await start();
    expect(`${url.origin}${url.pathname}`).toBe(discovery.authorization_endpoint);
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(op.clientId);
    expect(q.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(q.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email']));
    expect(q.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(q.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('code_challenge_method')).toBe('S256');
    // Each start is a sign-in of its own.
    const again = (await start()).url.searchParams;
    expect(again.get('state')).not.toBe(q.get('state'));
    expect(again.get('nonce')).not.toBe(q.get('nonce'));
    // What the callback must compare stays with this browser, out of scripts' reach, for its path only.
    expect(setCookie).toMatch(/; Path=\/console\/auth\/oidc; HttpOnly; SameSite=Lax/);
    expect(setCookie).not.toContain(q.get('state'));
  });

  it('the sign-in page offers the provider by its configured name beside the mailed link', async () => {
    const en = await svc.inject({ method: 'GET', url: '/console/sign-in?lang=en' });
    expect(en.body).toContain('<a class="button" href="/console/auth/oidc">Sign in with Example SSO</a>');
    expect(en.body).toContain('name="email"');
    const ko = await svc.inject({ method: 'GET', url: '/console/sign-in' });
    expect(ko.body).toContain('Example SSO(으)로 로그인');
  });
});

describe('the callback', () => {
  it('signs a member in: the session cookie as the mailed link sets it, then the console', async () => {
    const { res } = await signInAs(MEMBER);
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/console/');
    const setCookie = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('sp_session='));
    expect(setCookie).toMatch(/^sp_session=[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Expires=/);
    // The pending sign-in is spent.
    expect(res.headers['set-cookie']).toContain('sp_oidc=; Path=/console/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=0');
    const me = await sessionOf(res);
    expect(me.user.email).toBe(MEMBER);
    expect(me.memberships).toEqual([expect.objectContaining({ organizationId: orgId, role: 'admin' })]);
  });

  it('refuses an answer whose state is not this browser’s sign-in', async () => {
    const { url, cookie } = await start();
    const answer = await op.signIn(url.href, MEMBER);
    answer.searchParams.set('state', 'not-the-state-we-sent');
    expectRefused(await callback(answer, cookie), 400, 'That answer does not belong to this sign-in');
    // Nor an answer that comes back without the cookie (another browser, or too late).
    expectRefused(
      await svc.inject({
        method: 'GET',
        url: `/console/auth/oidc/callback${answer.search}`,
        headers: { 'accept-language': 'ko' },
      }),
      400,
      '다른 브라우저에서 시작했습니다',
    );
  });

  it('says so when the person turned the provider down', async () => {
    const { url, cookie } = await start();
    const answer = new URL(REDIRECT_URI);
    answer.search = new URLSearchParams({
      error: 'access_denied',
      state: url.searchParams.get('state')!,
      iss: op.issuer,
    }).toString();
    expectRefused(await callback(answer, cookie), 403, 'The identity provider did not sign you in');
  });

  it('refuses a replayed code', async () => {
    const first = await signInAs(MEMBER);
    expect(first.res.statusCode).toBe(302);
    expectRefused(await callback(first.answer, first.cookie), 400, 'The identity provider refused the sign-in code');
  });

  // The provider's own ID token, changed and signed again with its key: only the claim is wrong.
  it.each([
    ['another audience', '"aud"', (c: Record<string, unknown>) => ({ ...c, aud: 'some-other-client' })],
    ['an expiry in the past', '"exp"', (c: Record<string, unknown>) => ({ ...c, iat: now() - 3600, exp: now() - 600 })],
    ['another nonce', '"nonce"', (c: Record<string, unknown>) => ({ ...c, nonce: 'not-the-nonce-we-sent' })],
    ['another issuer', '"iss"', (c: Record<string, unknown>) => ({ ...c, iss: 'https://idp.example' })],
  ])('refuses an ID token with %s', async (_, claim, change) => {
    op.doctorNextIdToken(change);
    const { res } = await signInAs(MEMBER);
    expectRefused(res, 400, 'answer failed its checks');
    expect(lastRefusal()).toContain(claim);
  });

  it('refuses an email address the provider has not verified', async () => {
    op.people.set('unverified', { email: MEMBER, email_verified: false });
    const { res } = await signInAs('unverified');
    expectRefused(res, 403, 'The identity provider has not verified your email address');
  });

  it.each([
    ['an Okta-style string', { email_verified: 'true' }, 302],
    ["Entra ID's xms_edov true", { xms_edov: true }, 302],
    ["Entra ID's xms_edov false", { xms_edov: false }, 403],
    ['neither claim', {}, 403],
  ] as const)('takes the address as verified, or not, from %s', async (_, claims, status) => {
    const login = `claims-${status}-${Object.keys(claims).join('-') || 'none'}-${String(Object.values(claims)[0])}`;
    op.people.set(login, { email: MEMBER, ...claims });
    const { res } = await signInAs(login);
    if (status === 302) {
      expect(res.statusCode, res.body).toBe(302);
      expect((await sessionOf(res)).user).toMatchObject({ email: MEMBER });
    } else {
      expectRefused(res, 403, 'The identity provider has not verified your email address');
    }
  });

  it('refuses a person without an account whose domain is not allowed to join', async () => {
    const { res } = await signInAs('stranger@elsewhere.example');
    expectRefused(res, 403, 'No account has this email address');
    const members = await svc.admin('GET', `/organizations/${orgId}/members`);
    expect(members.json()).toHaveLength(1);
  });

  it('lets a person of an allowed domain join the configured organization with the configured role', async () => {
    op.people.set('new-person', { email: 'New.Person@Join.Example', email_verified: true, name: 'New Person' });
    const { res } = await signInAs('new-person');
    expect(res.statusCode, res.body).toBe(302);
    const me = await sessionOf(res);
    // The domain in lower case, as every address is kept.
    expect(me.user).toMatchObject({ email: 'New.Person@join.example', name: 'New Person' });
    expect(me.memberships).toEqual([expect.objectContaining({ organizationId: orgId, role: 'developer' })]);
    // The next sign-in finds the account: no second membership, the same person.
    const again = await sessionOf((await signInAs('new-person')).res);
    expect(again.memberships).toHaveLength(1);
    const members = (await svc.admin('GET', `/organizations/${orgId}/members`)).json() as { email: string }[];
    expect(members.map((m) => m.email).sort()).toEqual(['New.Person@join.example', MEMBER]);
    // The organization's audit log shows who joined, how and as what (read by its admin).
    const admin = cookieOf((await signInAs(MEMBER)).res, 'sp_session')!;
    const log = await svc.inject({
      method: 'GET',
      url: `/console/api/organizations/${orgId}/audit-log?action=member.added`,
      headers: { cookie: admin },
    });
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json()).toEqual([
      expect.objectContaining({
        action: 'member.added',
        actor: { email: 'New.Person@join.example', name: 'New Person' },
        details: { role: 'developer', method: 'oidc' },
      }),
      // The operator's adding of the first member.
      expect.objectContaining({ action: 'member.added', actorType: 'operator' }),
    ]);
  });
});

function now(): number {
  return Math.floor(Date.now() / 1000);
}
