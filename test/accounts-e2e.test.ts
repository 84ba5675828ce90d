// Partner single sign-on and mail-link sign-in end to end: the real service listening on loopback
// (PUBLIC_BASE_URL is the address it listens on, so cookies and origins work as in development),
// its mail delivered over SMTP to a real peer, a headless Chromium for what a new user sees, and
// plain HTTP with hand-carried cookies for an existing user and the sign-in form.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, signInAs, startListeningService } from './support/console-browser.js';
import { launchChromium } from './support/chromium.js';
import { isolate, type Isolation, type TestService } from './support/service.js';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from './support/smtp-peer.js';

interface Partner {
  clientId: string;
  sharedSecret: string;
}

interface SessionJson {
  user: { id: number; email: string; name: string | null; language: string };
  memberships: {
    organizationId: number;
    organizationName: string;
    plan: string;
    role: string;
    permissions: string[];
  }[];
  csrfToken: string;
  expiresAt: string;
}

const PARTNER_ORIGIN = 'https://partner.example';
const LOGIN_URL = 'https://partner.example/login';

/** A partner's sign-in token: HS256, two minutes, a fresh jti every time. */
function signToken(partner: Partner, sub: string, claims: Record<string, unknown>): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('2m')
    .setJti(randomUUID())
    .setSubject(sub)
    .sign(new TextEncoder().encode(partner.sharedSecret));
}

/** The value of a cookie the response sets (`name=value`, ready for a Cookie header), if it sets it. */
function cookieFrom(response: Response, name = 'sp_session'): string | undefined {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return cookie?.split(';')[0];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('accounts end to end', () => {
  let isolation: Isolation;
  let svc: TestService;
  let peer: SmtpPeer;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let BASE: string;

  /** The one sign-in link of a mail's text part, on this service's public address. */
  function linkIn(mail: ReceivedMail): string {
    const escaped = BASE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const link = new RegExp(`${escaped}/console/auth/link\\?token=[A-Za-z0-9_-]+`).exec(mail.text)?.[0];
    if (!link) throw new Error(`no sign-in link in the mail "${mail.subject}":\n${mail.text}`);
    return link;
  }

  const mailTo = (address: string) => (m: ReceivedMail) => m.to.includes(address);

  /** A request to the listening service, redirects not followed. */
  const http = (path: string, init: RequestInit = {}) => fetch(`${BASE}${path}`, { redirect: 'manual', ...init });

  const sessionWith = async (cookie: string): Promise<SessionJson> => {
    const res = await http('/console/api/session', { headers: { cookie } });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as SessionJson;
  };

  async function createPartner(body: Record<string, unknown>): Promise<Partner> {
    const res = await svc.admin('POST', '/partners', {
      loginUrl: LOGIN_URL,
      contactEmail: 'dev@partner.example',
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Partner;
  }

  beforeAll(async () => {
    peer = await startSmtpPeer();
    isolation = await isolate();
    ({ svc, base: BASE } = await startListeningService(isolation, { SMTP_URL: peer.url }));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await svc?.close();
    await peer?.close();
    await isolation?.dispose();
  });

  it('a new partner user consents, confirms by mail and lands in their own organization; the next sign-in goes straight in', {
    timeout: 60_000,
  }, async () => {
    const partner = await createPartner({ serviceName: 'Partner Shop', allowedOrigins: [BASE, PARTNER_ORIGIN] });
    browser = await launchChromium();
    // A Korean user's browser: the pages answer in Accept-Language's first language we speak.
    context = await browser.newContext({ locale: 'ko-KR' });
    const page = await context.newPage();

    const callbackUrl = async () =>
      `${BASE}/sso/callback?token=${encodeURIComponent(await signToken(partner, 'p-1', { email: 'new.user@example.com', name: '새 사용자' }))}&client_id=${encodeURIComponent(partner.clientId)}`;

    // The terms consent, in Korean.
    await page.goto(await callbackUrl());
    expect(new URL(page.url()).pathname).toBe('/sso/consent');
    expect(await page.getAttribute('html', 'lang')).toBe('ko');
    await expect.poll(() => page.locator('h1').innerText()).toBe('서비스 이용약관 동의');
    expect(await page.locator('main').innerText()).toContain('new.user@example.com');

    await expectAccessible(page, 'consent page');
    await page.locator('input[name=accept]').check();
    await Promise.all([page.waitForNavigation(), page.locator('button[name=decision][value=accept]').click()]);
    expect(await page.locator('h1').innerText()).toBe('메일을 확인하세요');
    expect(await page.getByRole('status').innerText()).toContain('15분');

    // The verification link, as the user finds it in their mailbox.
    const mail = await peer.waitFor(mailTo('new.user@example.com'), 10_000);
    expect(mail.subject).toBe('Signpost 가입을 마치려면 이메일 주소를 확인하세요');
    await page.goto(linkIn(mail));
    expect(new URL(page.url()).pathname).toBe('/console/');
    expect(await page.getByTestId('user-email').innerText()).toBe('new.user@example.com');
    // The overview of their own organization: its name, the plan, the role.
    await expect.poll(() => page.getByRole('heading', { level: 2 }).innerText()).toBe('새 사용자');
    expect(await page.getByTestId('role').innerText()).toBe('소유자');
    // The plan comes with the usage card, which loads after the page.
    await expect.poll(() => page.getByTestId('plan').innerText()).toBe('FREE');
    expect(await page.getByRole('button', { name: '로그아웃', exact: true }).isVisible()).toBe(true);
    await expectAccessible(page, 'console landing page');

    const sessionCookie = (await context.cookies(BASE)).find((c) => c.name === 'sp_session');
    expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });

    // The console's API in the same browser context (the session cookie goes along).
    const res = await page.request.get(`${BASE}/console/api/session`);
    expect(res.status(), await res.text()).toBe(200);
    const session = (await res.json()) as SessionJson;
    expect(session.user).toMatchObject({ email: 'new.user@example.com', name: '새 사용자', language: 'ko' });
    expect(session.memberships).toHaveLength(1);
    expect(session.memberships[0]).toMatchObject({ role: 'owner', plan: 'FREE', organizationName: '새 사용자' });

    // The same partner account again, signed out first: linked now, so straight in and no mail.
    const mailsBefore = peer.messages.length;
    await context.clearCookies();
    await page.goto(await callbackUrl());
    expect(new URL(page.url()).pathname).toBe('/console/');
    expect(await page.getByTestId('user-email').innerText()).toBe('new.user@example.com');
    expect((await context.cookies(BASE)).some((c) => c.name === 'sp_session')).toBe(true);
    await sleep(500);
    expect(peer.messages.length).toBe(mailsBefore);

    // Signing out from the page ends the session: the console sends the browser to sign in.
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: '로그아웃', exact: true }).click()]);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await expectAccessible(page, 'sign-in page');
    expect((await page.request.get(`${BASE}/console/api/session`)).status()).toBe(401);
  });

  it('an existing member signing in through a partner links the accounts by mail and joins the partner organization', async () => {
    const first = await svc.createOrganization('Ann Analytics', 'FREE');
    const member = await svc.admin('POST', `/organizations/${first.id}/members`, {
      email: 'ann@example.com',
      role: 'analyst',
      name: 'Ann',
    });
    expect(member.statusCode, member.body).toBe(201);
    const partnerOrg = await svc.createOrganization('Partner Org', 'FREE');
    const partner = await createPartner({
      serviceName: 'Ann Partner',
      allowedOrigins: [PARTNER_ORIGIN],
      organizationId: partnerOrg.id,
      defaultRole: 'developer',
    });

    // The address in the token differs from the account's only in case.
    const token = await signToken(partner, 'ann-partner', { email: 'ANN@example.com' });
    const callback = await http(
      `/sso/callback?token=${encodeURIComponent(token)}&client_id=${encodeURIComponent(partner.clientId)}`,
      {
        headers: { referer: `${PARTNER_ORIGIN}/app` },
      },
    );
    const page = await callback.text();
    expect(callback.status, page).toBe(200);
    expect(callback.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page).toContain('메일을 확인하세요');
    expect(cookieFrom(callback)).toBeUndefined();

    const mail = await peer.waitFor(mailTo('ann@example.com'), 10_000);
    expect(mail.subject).toBe('Ann Partner 계정을 Signpost 계정에 연결하기');
    const link = linkIn(mail);

    const followed = await http(new URL(link).pathname + new URL(link).search);
    expect(followed.status, await followed.text()).toBe(302);
    expect(followed.headers.get('location')).toBe('/console/');
    const setCookie = followed.headers.getSetCookie().find((c) => c.startsWith('sp_session='));
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).not.toMatch(/; Secure/);
    const cookie = cookieFrom(followed)!;

    const session = await sessionWith(cookie);
    expect(session.user.email).toBe('ann@example.com');
    const roles = Object.fromEntries(session.memberships.map((m) => [m.organizationId, m.role]));
    expect(roles).toEqual({ [first.id]: 'analyst', [partnerOrg.id]: 'developer' });

    const home = await http('/console/', { headers: { cookie } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<html lang="ko">');

    // A link works once.
    const again = await http(new URL(link).pathname + new URL(link).search);
    expect(again.status).toBe(410);
    expect(cookieFrom(again)).toBeUndefined();
    expect(await again.text()).toContain('링크를 사용할 수 없습니다');

    const listed = await svc.admin('GET', `/organizations/${partnerOrg.id}/members`);
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as { email: string; role: string }[]).map((m) => [m.email, m.role])).toEqual([
      ['ann@example.com', 'developer'],
    ]);
  });

  it('the sign-in form mails a one-time link to a known address only, and refuses a post without Origin', async () => {
    const origin = new URL(BASE).origin;
    const signIn = (email: string, headers: Record<string, string> = { origin }) =>
      http('/console/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ email }).toString(),
      });

    const form = await http('/console/sign-in');
    const formPage = await form.text();
    expect(form.status).toBe(200);
    expect(formPage).toContain('name="email"');
    expect(formPage).toContain('<button type="submit">');

    const before = peer.messages.filter(mailTo('ann@example.com')).length;
    const known = await signIn('ann@example.com');
    const knownPage = await known.text();
    expect(known.status, knownPage).toBe(200);
    expect(knownPage).toContain('메일을 확인하세요');

    const mail = await peer.waitFor(
      (m) => mailTo('ann@example.com')(m) && m.subject === 'Signpost 로그인 링크',
      10_000,
    );
    expect(peer.messages.filter(mailTo('ann@example.com')).length).toBe(before + 1);
    const link = linkIn(mail);
    const followed = await http(new URL(link).pathname + new URL(link).search);
    expect(followed.status).toBe(302);
    expect(followed.headers.get('location')).toBe('/console/');
    const session = await sessionWith(cookieFrom(followed)!);
    expect(session.user.email).toBe('ann@example.com');
    expect((await http(new URL(link).pathname + new URL(link).search)).status).toBe(410);

    // An unknown address: the very same page, and no mail.
    const count = peer.messages.length;
    const unknown = await signIn('nobody@example.com');
    const unknownPage = await unknown.text();
    expect(unknown.status).toBe(200);
    const withoutNonce = (html: string) => html.replace(/nonce="[^"]*"/g, '');
    expect(withoutNonce(unknownPage)).toBe(withoutNonce(knownPage));
    await sleep(1_000);
    expect(peer.messages.length).toBe(count);
    expect(peer.messages.some(mailTo('nobody@example.com'))).toBe(false);

    // A cross-site form post cannot ask for links: no Origin (nor Referer) is refused.
    const noOrigin = await signIn('ann@example.com', {});
    expect(noOrigin.status).toBe(403);
    await sleep(300);
    expect(peer.messages.length).toBe(count);
  });

  it('the console: an owner invites a member and sees it in the audit log; an analyst cannot', {
    timeout: 120_000,
  }, async () => {
    const org = await svc.createOrganization('Team Console', 'PRO');
    await svc.admin('POST', `/organizations/${org.id}/members`, {
      email: 'lead@example.com',
      role: 'owner',
      name: 'Lead',
    });
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'viewer@example.com', role: 'analyst' });
    browser ??= await launchChromium();
    const { ctx: ownerCtx, page } = await signInAs(browser, svc, BASE, 'lead@example.com');
    await page.getByRole('link', { name: '멤버' }).click();
    expect(new URL(page.url()).pathname).toBe('/console/members');
    await expect.poll(() => page.getByRole('row').count()).toBe(3);
    await expectAccessible(page, 'members screen');
    await page.getByLabel('이메일').fill('newbie@example.com');
    await page.getByRole('button', { name: '초대' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toContain('newbie@example.com');
    await expect.poll(() => page.getByRole('row').count()).toBe(4);
    const members = (await svc.admin('GET', `/organizations/${org.id}/members`)).json() as {
      email: string;
      role: string;
    }[];
    expect(members.find((m) => m.email === 'newbie@example.com')?.role).toBe('analyst');
    // The new member hears of it by mail, in their language, with a link that signs them in.
    const invitation = await peer.waitFor(mailTo('newbie@example.com'), 10_000);
    expect(invitation.subject).toBe('Lead 님이 Signpost의 Team Console 조직에 초대했습니다');
    expect(invitation.text).toContain('3일 동안 한 번만');
    const invited = await http(new URL(linkIn(invitation)).pathname + new URL(linkIn(invitation)).search);
    expect(invited.status).toBe(302);
    expect((await sessionWith(cookieFrom(invited)!)).user.email).toBe('newbie@example.com');

    // A short link made in the console works at once, and shows in the list.
    await page.getByRole('link', { name: '링크' }).click();
    await expect.poll(() => page.locator('main').innerText()).toContain('아직 링크가 없습니다.');
    await expectAccessible(page, 'links screen (empty)');
    await page.getByLabel('원본 URL').fill('https://example.com/spring-sale');
    await page.getByLabel('별칭 (선택)').fill('spring-sale');
    await page.getByRole('button', { name: '만들기' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toContain(`${BASE}/spring-sale`);
    await expect.poll(() => page.getByRole('link', { name: `${BASE}/spring-sale` }).count()).toBe(1);
    const redirect = await http('/spring-sale');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('https://example.com/spring-sale');
    await page.getByLabel('검색 (URL, 단축 코드)').fill('no-such-link');
    await expect.poll(() => page.locator('main').innerText()).toContain('검색과 일치하는 링크가 없습니다.');

    // A campaign, and a tracked link built for one user and one tracker that redirects.
    await page.getByRole('link', { name: '캠페인' }).click();
    await expect.poll(() => page.locator('main').innerText()).toContain('아직 캠페인이 없습니다.');
    await page.getByLabel('캠페인 이름').fill('Spring Push');
    await page.getByLabel('원본 URL').fill('https://example.com/spring');
    await page.getByLabel('별칭 (선택)').fill('spring-push');
    await page.getByRole('button', { name: '만들기' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toContain(`${BASE}/spring-push`);
    await page.getByLabel('사용자 추적 ID (cid)').fill('u-1');
    await page.getByLabel('트래커').fill('kakao');
    const tracked = await page.getByTestId('tracked-url').innerText();
    expect(tracked).toBe(`${BASE}/spring-push?cid=u-1&tracker=kakao`);
    const campaignRedirect = await http(new URL(tracked).pathname + new URL(tracked).search);
    expect(campaignRedirect.status).toBe(302);
    expect(campaignRedirect.headers.get('location')).toMatch(/^https:\/\/example\.com\/spring/);
    await expectAccessible(page, 'campaigns screen');

    // A custom domain: waiting for its DNS record, which the screen spells out.
    await page.getByRole('link', { name: '커스텀 도메인' }).click();
    await expect.poll(() => page.locator('main').innerText()).toContain('등록된 도메인이 없습니다.');
    await page.getByLabel('도메인').fill('go.team-console.example');
    await page.getByRole('button', { name: '추가', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('cname').innerText())
      .toBe('go.team-console.example. CNAME cname.127.0.0.1.');
    expect(await page.locator('main').innerText()).toContain('확인 대기');
    await expectAccessible(page, 'custom domains screen');

    // An app registered in the console: its card shows the app id and SDK key the SDK sends.
    await page.getByRole('link', { name: '모바일 앱' }).click();
    await expect.poll(() => page.locator('main').innerText()).toContain('등록된 앱이 없습니다.');
    await page.getByLabel('앱 이름').fill('Team App');
    await page.getByLabel('번들 ID').fill('com.team.app');
    await page.getByLabel('URL 스킴').fill('teamapp');
    await page.getByRole('button', { name: '등록', exact: true }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toContain('Team App');
    const apps = (await svc.service('GET', '/mobile-apps', org.apiKey)).json() as {
      content: { id: number; apiKey: string; scheme: string }[];
    };
    expect(apps.content).toHaveLength(1);
    expect(apps.content[0]!.scheme).toBe('teamapp://');
    // The list refreshes after the notice shows: wait for the card.
    await expect.poll(() => page.locator('main').innerText()).toContain(`X-App-ID: ${apps.content[0]!.id}`);
    expect(await page.locator('main').innerText()).toContain(apps.content[0]!.apiKey);
    await expectAccessible(page, 'mobile apps screen');

    // A Service API key from the developer menu works against the Service API; regenerated, the old
    // one fails; deleted, the new one fails too.
    page.on('dialog', (dialog) => void dialog.accept());
    const usage = (apiKey: string) => http('/api/v1/service/usage', { headers: { 'x-api-key': apiKey } });
    await page.getByRole('link', { name: 'API 키' }).click();
    // The organization's first key, made with it by the operator, has no name (the keys list's
    // rows show each key's first characters; the form's rows are the scopes to tick).
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'sp_live_' }).count()).toBe(1);
    await page.getByLabel('이름').fill('backend');
    // Scoped to the plan and usage: it reads those, and nothing else.
    await page.getByRole('checkbox', { name: '요금제와 사용량: 읽기' }).check();
    await page.getByRole('button', { name: '새 키 발급' }).click();
    const first = await page.getByTestId('new-api-key').innerText();
    expect(first).toMatch(/^sp_live_/);
    expect((await usage(first)).status).toBe(200);
    const links = await http('/api/v1/service/urls', { headers: { 'x-api-key': first } });
    expect(links.status).toBe(403);
    expect(((await links.json()) as { details: unknown }).details).toEqual([
      { field: 'scope', message: 'links:read is required' },
    ]);
    const backend = page.getByRole('row').filter({ hasText: 'backend' });
    await expect.poll(() => backend.count()).toBe(1);
    expect(await backend.innerText()).toContain('요금제와 사용량: 읽기');
    await expectAccessible(page, 'API keys screen');
    await backend.getByRole('button', { name: '재발급' }).click();
    await expect.poll(() => page.getByTestId('new-api-key').innerText()).not.toBe(first);
    const second = await page.getByTestId('new-api-key').innerText();
    expect((await usage(first)).status).toBe(401);
    expect((await usage(second)).status).toBe(200);
    // The IP allow-list: this machine's address left out, the key is refused (403); emptied, accepted again.
    await page.getByLabel('주소 또는 CIDR (한 줄에 하나)').fill('198.51.100.7');
    await page.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => page.getByText('저장했습니다.').count()).toBe(1);
    const blocked = await usage(second);
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as { code: string }).code).toBe('IP_NOT_ALLOWED');
    await page.getByLabel('주소 또는 CIDR (한 줄에 하나)').fill('');
    await page.getByRole('button', { name: '저장' }).click();
    await expect.poll(async () => (await usage(second)).status).toBe(200);
    await backend.getByRole('button', { name: '삭제' }).click();
    await expect.poll(() => backend.count()).toBe(0);
    expect((await usage(second)).status).toBe(401);

    await page.getByRole('link', { name: '감사 로그' }).click();
    await expect.poll(() => page.locator('main').textContent()).toContain('member.added');
    expect(await page.locator('main').textContent()).toContain('api_key.regenerated');
    await expectAccessible(page, 'audit log screen');

    // English on request, remembered for the user.
    await page.getByText('English').click();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).innerText()).toBe('Audit log');
    const me = (await (await page.request.get(`${BASE}/console/api/session`)).json()) as SessionJson;
    expect(me.user.language).toBe('en');
    await ownerCtx.close();

    // The analyst sees the list with every action disabled, and the server refuses it anyway.
    const { ctx: viewerCtx, page: viewer } = await signInAs(browser, svc, BASE, 'viewer@example.com');
    await viewer.goto(`${BASE}/console/members`);
    await expect.poll(() => viewer.getByRole('row').count()).toBe(4);
    expect(await viewer.getByRole('button', { name: '초대' }).isDisabled()).toBe(true);
    expect(await viewer.locator('main').innerText()).toContain('멤버를 관리하려면 관리자 이상의 역할이 필요합니다.');
    await viewer.getByRole('link', { name: 'API 키' }).click();
    await expect
      .poll(() => viewer.locator('main').innerText())
      .toContain('API 키는 개발자 이상의 역할만 관리할 수 있습니다.');
    await viewer.getByRole('link', { name: '링크' }).click();
    await expect.poll(() => viewer.getByRole('link', { name: `${BASE}/spring-sale` }).count()).toBe(1);
    expect(await viewer.getByRole('button', { name: '만들기' }).isDisabled()).toBe(true);
    const csrf = ((await (await viewer.request.get(`${BASE}/console/api/session`)).json()) as { csrfToken: string })
      .csrfToken;
    const refused = await viewer.request.post(`${BASE}/console/api/organizations/${org.id}/members`, {
      headers: { 'x-csrf-token': csrf, origin: BASE },
      data: { email: 'sneaky@example.com', role: 'owner' },
    });
    expect(refused.status()).toBe(403);
    const link = await viewer.request.post(`${BASE}/console/api/organizations/${org.id}/urls`, {
      headers: { 'x-csrf-token': csrf, origin: BASE },
      data: { url: 'https://example.com/sneaky' },
    });
    expect(link.status()).toBe(403);
    expect(((await link.json()) as { code: string }).code).toBe('ROLE_FORBIDDEN');
    await viewerCtx.close();
  });
});
