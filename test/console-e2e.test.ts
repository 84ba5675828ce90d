// The console's screens end to end in headless Chromium against the real service listening on
// loopback: the link editor (UTM, share preview, edit) and its QR download, goal types, a webhook
// registered and its delivery seen in the log (signed with the secret shown once) and redelivered,
// the audit log filtered on the server, an app's SDK key regenerated, a developer refused member
// management, the console at phone width (the home's clicks of today, lists as cards), a member's own sessions, and a link's dashboard
// filtered by a click on a country (every panel narrowed, the filter in the address through a
// reload), the organization's clicks by tag (a tag picked filters the page; the tags screen opens a
// tag's statistics). axe checks every screen.
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, signInAs, startListeningService } from './support/console-browser.js';
import { launchChromium } from './support/chromium.js';
import { journeyClient, journeyOrg } from './support/journey.js';
import { UA } from './support/deep-links.js';
import { recordClicks } from './support/recorded-clicks.js';
import { isolate, type Isolation, type TestService } from './support/service.js';
import { signedWith } from './support/webhook-signature.js';

const FINGERPRINT = Array.from({ length: 32 }, (_, i) => (i * 7 + 16).toString(16).padStart(2, '0').toUpperCase()).join(
  ':',
);

interface Received {
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

describe('console end to end', () => {
  let isolation: Isolation;
  let svc: TestService;
  let BASE: string;
  let browser: Browser;
  let receiver: http.Server;
  let receiverUrl: string;
  const received: Received[] = [];

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
        res.writeHead(200).end('thanks');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/signpost`;
    isolation = await isolate();
    // Deliveries are looked for every 100 ms, not every second: the test event and its redelivery
    // each wait for the next look.
    ({ svc, base: BASE } = await startListeningService(isolation, {
      WEBHOOK_ALLOW_INSECURE: 'true',
      WEBHOOK_POLL_MS: '100',
    }));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await isolation?.dispose();
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  });

  /** An organization with one member and one short link at /{alias} (to https://example.com/{alias}). */
  async function orgWithLink(name: string, plan: string, email: string, role: string, alias: string) {
    const org = await svc.createOrganization(name, plan);
    await svc.admin('POST', `/organizations/${org.id}/members`, { email, role });
    const url = (
      await svc.service('POST', '/urls', org.apiKey, { url: `https://example.com/${alias}`, customAlias: alias })
    ).json();
    return { org, url };
  }

  const redirectOf = async (path: string) =>
    (await fetch(`${BASE}${path}`, { redirect: 'manual' })).headers.get('location');

  it('makes a link with every field in the editor, edits it, and downloads its QR code', {
    timeout: 90_000,
  }, async () => {
    const org = await svc.createOrganization('Editor Team', 'PRO');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'maker@example.com', role: 'developer' });
    const { ctx, page } = await signInAs(browser, svc, BASE, 'maker@example.com');
    await page.getByRole('link', { name: '링크' }).click();
    await page.getByRole('button', { name: '옵션 더 보기' }).click();
    const editor = page.getByRole('dialog', { name: '새 단축 링크' });
    await editor.getByLabel('원본 URL').fill('https://example.com/summer?ref=mail');
    await editor.getByLabel('별칭 (선택)').fill('summer');
    await editor.getByLabel('utm_source').fill('kakao');
    await editor.getByLabel('utm_campaign').fill('summer-2026');
    expect(await editor.getByTestId('utm-destination').innerText()).toBe(
      'https://example.com/summer?ref=mail&utm_source=kakao&utm_campaign=summer-2026',
    );
    await editor.getByRole('button', { name: '소셜 공유 미리보기 (OG 태그)' }).click();
    await editor.getByLabel('OG 제목').fill('여름 세일');
    await editor.getByLabel('OG 설명').fill('이번 주만 최대 50%');
    const preview = editor.getByTestId('share-preview');
    await expect.poll(() => preview.innerText()).toContain('여름 세일');
    expect(await preview.innerText()).toContain('이번 주만 최대 50%');
    await expectAccessible(page, 'link editor');
    await editor.getByRole('button', { name: '만들기' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toContain(`${BASE}/summer`);

    // What the editor saved is what the Service API reads and what a click does.
    const [made] = (
      (await svc.service('GET', '/urls?keyword=summer', org.apiKey)).json() as { content: Record<string, unknown>[] }
    ).content;
    expect(made).toMatchObject({
      originalUrl: 'https://example.com/summer?ref=mail',
      utmSource: 'kakao',
      utmCampaign: 'summer-2026',
      ogTitle: '여름 세일',
      ogDescription: '이번 주만 최대 50%',
      showAdPage: false,
    });
    expect(await redirectOf('/summer')).toBe(
      'https://example.com/summer?ref=mail&utm_source=kakao&utm_campaign=summer-2026',
    );

    // Edited: the title set, the campaign parameter cleared.
    await page.getByRole('button', { name: `편집: ${BASE}/summer` }).click();
    const edit = page.getByRole('dialog', { name: '링크 편집' });
    expect(await edit.getByTestId('editing-address').innerText()).toBe(`${BASE}/summer`);
    await edit.getByLabel('제목', { exact: true }).fill('Summer sale');
    await edit.getByLabel('utm_campaign').fill('');
    await edit.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toContain('저장했습니다');
    const edited = (await svc.service('GET', `/urls/${made!.id}`, org.apiKey)).json();
    expect(edited).toMatchObject({ title: 'Summer sale', utmCampaign: null, utmSource: 'kakao', ogTitle: '여름 세일' });
    await expect.poll(() => redirectOf('/summer')).toBe('https://example.com/summer?ref=mail&utm_source=kakao');

    // The QR code: a preview, and a PNG file that is a PNG.
    await page.getByRole('button', { name: `QR: ${BASE}/summer` }).click();
    await expect.poll(() => page.getByTestId('qr-preview').count()).toBe(1);
    await expectAccessible(page, 'QR dialog');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'PNG 내려받기' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('qr-summer.png');
    const png = fs.readFileSync((await download.path())!);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    await ctx.close();
  });

  it('registers a webhook, sees its test delivery in the log, redelivers it, and finds the change in the audit log', {
    timeout: 90_000,
  }, async () => {
    const org = await svc.createOrganization('Hook Team', 'PRO');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'hooks@example.com', role: 'owner' });
    const { ctx, page } = await signInAs(browser, svc, BASE, 'hooks@example.com');
    // The deliveries list asks again every 2 s while one is pending: on Playwright's clock the test
    // moves the page's time on instead of waiting for the next ask.
    await page.clock.install();
    await page.reload();

    // Goal types first: the organization's own, next to the presets.
    await page.getByRole('link', { name: '목표 유형' }).click();
    await expect.poll(() => page.getByRole('row').count()).toBe(9);
    await page.getByLabel('이름').fill('newsletterSignup');
    await page.getByLabel('설명').fill('뉴스레터 구독');
    await page.getByRole('button', { name: '추가', exact: true }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'newsletterSignup' }).count()).toBe(1);
    await expectAccessible(page, 'goal types screen');

    await page.getByRole('link', { name: '웹훅' }).click();
    await expect.poll(() => page.locator('main').innerText()).toContain('아직 웹훅이 없습니다.');
    await expectAccessible(page, 'webhooks screen (empty)');
    await page.getByLabel('엔드포인트 URL').fill(receiverUrl);
    await page.getByLabel('세션').uncheck();
    await page.getByRole('button', { name: '저장' }).click();
    const secret = await page.getByTestId('webhook-secret').innerText();
    expect(secret).toMatch(/^whsec_/);
    const before = received.length;
    await page.getByRole('button', { name: '테스트 이벤트 보내기' }).click();
    const row = page.getByTestId('deliveries').getByRole('row').filter({ hasText: 'webhook.test' });
    await expect
      .poll(
        async () => {
          await page.clock.runFor(2_000);
          return row.innerText();
        },
        { timeout: 20_000 },
      )
      .toContain('성공');
    expect(await row.innerText()).toContain('200');
    const test = received.slice(before);
    expect(test).toHaveLength(1);
    expect(signedWith(test[0]!.headers['x-signature-256'], test[0]!.raw, secret)).toBe(true);
    const eventId = (JSON.parse(test[0]!.raw.toString()) as { id: string }).id;
    await expectAccessible(page, 'webhooks screen with a delivery');

    await row.getByRole('button', { name: /^자세히/ }).click();
    const detail = page.getByRole('dialog');
    await expect.poll(() => detail.innerText()).toContain(eventId);
    expect(await detail.innerText()).toContain('thanks');
    await expectAccessible(page, 'delivery detail');
    await detail.getByRole('button', { name: '닫기' }).click();

    await row.getByRole('button', { name: /^다시 보내기/ }).click();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(before + 2);
    expect((JSON.parse(received[before + 1]!.raw.toString()) as { id: string }).id).toBe(eventId);
    const endpoint = (await svc.admin('GET', `/organizations/${org.id}/webhook`)).json();
    expect(endpoint).toMatchObject({
      url: receiverUrl,
      events: ['click', 'campaign', 'goal', 'funnel'],
      enabled: true,
    });

    // The audit log, filtered on the server to the webhook change.
    await page.getByRole('link', { name: '감사 로그' }).click();
    await expect.poll(() => page.locator('main').innerText()).toContain('goal_type.added');
    await page.getByRole('combobox', { name: '작업 종류' }).fill('webhook.changed');
    await page.getByRole('option', { name: /\(webhook\.changed\)/ }).click();
    await expect.poll(() => page.locator('main').innerText()).not.toContain('goal_type.added');
    expect(await page.locator('tbody').innerText()).toContain('hooks@example.com');
    expect(await page.locator('tbody tr').count()).toBe(1);
    await expectAccessible(page, 'audit log filtered');
    await ctx.close();
  });

  it("regenerates an app's SDK key and shows the association file as served", { timeout: 60_000 }, async () => {
    const org = await svc.createOrganization('App Team', 'PRO');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'apps@example.com', role: 'developer' });
    const created = (
      await svc.service('POST', '/mobile-apps', org.apiKey, {
        platform: 'ANDROID',
        appName: 'Team Android',
        bundleId: 'com.team.android',
        sha256CertFingerprints: [FINGERPRINT],
      })
    ).json();
    const { ctx, page } = await signInAs(browser, svc, BASE, 'apps@example.com');
    await page.getByRole('link', { name: '모바일 앱' }).click();
    await expect.poll(() => page.locator('main').innerText()).toContain(created.apiKey);
    page.on('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: '앱 API 키 재발급: Team Android' }).click();
    await expect.poll(() => page.getByRole('status').innerText()).toContain('Team Android');
    const renewed = (await svc.service('GET', `/mobile-apps/${created.id}`, org.apiKey)).json();
    expect(renewed.apiKey).not.toBe(created.apiKey);
    await expect.poll(() => page.locator('main').innerText()).toContain(renewed.apiKey);
    const sdk = (key: string) =>
      fetch(`${BASE}/api/v1/sdk/mobile/deeplink/match?token=none`, {
        headers: { 'x-app-id': String(created.id), 'x-mobile-app-api-key': key },
      });
    expect((await sdk(created.apiKey)).status).toBe(401);
    expect((await sdk(renewed.apiKey)).status).toBe(404);

    await page.getByRole('tab', { name: '플랫폼 설정' }).click();
    expect(await page.locator('main').innerText()).toContain(`android:pathPrefix="/${created.path}/"`);
    await page.getByRole('tab', { name: '연결 파일' }).click();
    await expect.poll(() => page.getByTestId('association-ANDROID').innerText()).toContain('com.team.android');
    await expectAccessible(page, 'mobile apps screen with the association file');
    await ctx.close();
  });

  it('custom domain deletionRequested: a member asks for deletion after a confirmation, sees it on the domain until the operator completes it, and can withdraw it', {
    timeout: 60_000,
  }, async () => {
    const org = await svc.createOrganization('Domain Team', 'PRO');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'domains@example.com', role: 'developer' });
    const domain = (
      await svc.admin('POST', `/organizations/${org.id}/custom-domains`, { domainName: 'go.leaving-team.example' })
    ).json();
    const { ctx, page } = await signInAs(browser, svc, BASE, 'domains@example.com');
    await page.getByRole('link', { name: '커스텀 도메인' }).click();
    await expect.poll(() => page.locator('main').innerText()).toContain('go.leaving-team.example');
    // Declining the confirmation changes nothing.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: '삭제 요청: go.leaving-team.example' }).click();
    expect((await svc.service('GET', `/custom-domains/${domain.id}`, org.apiKey)).json().deletionRequested).toBe(false);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: '삭제 요청: go.leaving-team.example' }).click();
    await expect
      .poll(() => page.getByRole('status').innerText())
      .toContain('go.leaving-team.example 삭제를 요청했습니다');
    await expect.poll(() => page.locator('main').innerText()).toContain('삭제 요청됨');
    expect((await svc.service('GET', `/custom-domains/${domain.id}`, org.apiKey)).json()).toMatchObject({
      deletionRequested: true,
    });
    await expectAccessible(page, 'custom domains with a deletion request');
    await page.getByRole('button', { name: '요청 취소: go.leaving-team.example' }).click();
    await expect.poll(() => page.getByRole('button', { name: '삭제 요청: go.leaving-team.example' }).count()).toBe(1);
    expect((await svc.service('GET', `/custom-domains/${domain.id}`, org.apiKey)).json()).toMatchObject({
      deletionRequested: false,
      deletionRequestedAt: null,
    });
    await ctx.close();
  });

  it("refuses member management to a developer, and works at phone width: today's clicks at home, lists as cards", {
    timeout: 90_000,
  }, async () => {
    const org = await svc.createOrganization('Phone Team', 'FREE');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'owner@phone.example', role: 'owner' });
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'dev@phone.example', role: 'developer' });
    // A destination far wider than a phone, and three clicks on it just now.
    const destination = `https://example.com/phone/${'a-rather-long-path-segment/'.repeat(6)}?utm_source=newsletter`;
    const url = (
      await svc.service('POST', '/urls', org.apiKey, { url: destination, customAlias: 'phone', title: 'Phone sale' })
    ).json();
    const now = new Date().toISOString();
    await recordClicks(svc, org.id, 'url', url.id, [{ at: now }, { at: now }, { at: now }]);
    const { ctx, page } = await signInAs(browser, svc, BASE, 'dev@phone.example', {
      viewport: { width: 375, height: 812 },
      timezoneId: 'UTC',
    });
    await expect.poll(() => page.getByTestId('plan').innerText()).toBe('FREE');
    expect(await page.getByTestId('calls').innerText()).toContain('/');
    // The home: today's clicks, the trend and the busiest link of the week, which opens its dashboard.
    await expect.poll(() => page.getByTestId('today-clicks').innerText()).toBe('3');
    expect(await page.getByTestId('trend-table').locator('tbody tr').last().textContent()).toBe(`${now.slice(0, 10)}3`);
    expect(await page.getByRole('link', { name: 'Phone sale' }).getAttribute('href')).toBe(
      `/console/stats/urls/${url.id}`,
    );
    await expectAccessible(page, 'home at phone width');
    const fits = () => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');
    expect(await fits()).toBe(true);

    // The menu folds behind its button on a phone: off the screen until opened.
    const menuRight = async () => (await page.getByRole('link', { name: '멤버' }).boundingBox())!.x + 100;
    expect(await menuRight()).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: '조직' }).click();
    await expect.poll(menuRight).toBeGreaterThan(100);
    await page.getByRole('link', { name: '멤버' }).click();
    // At phone width each member is a card.
    await expect.poll(() => page.getByRole('main').getByRole('listitem').count()).toBe(2);
    expect(await page.getByRole('button', { name: '초대' }).isDisabled()).toBe(true);
    expect(await fits()).toBe(true);
    const csrf = ((await (await page.request.get(`${BASE}/console/api/session`)).json()) as { csrfToken: string })
      .csrfToken;
    const refused = await page.request.post(`${BASE}/console/api/organizations/${org.id}/members`, {
      headers: { 'x-csrf-token': csrf, origin: BASE },
      data: { email: 'friend@phone.example', role: 'analyst' },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('ROLE_FORBIDDEN');

    // The links as cards: nothing wider than the screen, the destination on at most two lines
    // across the card, and the row's checkbox still selects it.
    await page.goto(`${BASE}/console/links`);
    const shown = page.getByRole('main').getByText(destination.slice(0, 40));
    await expect.poll(() => shown.count()).toBe(1);
    expect(await fits()).toBe(true);
    const box = (await shown.boundingBox())!;
    expect(box.width).toBeGreaterThan(200);
    expect(box.height).toBeLessThan(60);
    await page.getByRole('checkbox', { name: `선택: ${BASE}/phone` }).check();
    await expect.poll(() => page.getByText('1개 선택됨').count()).toBe(1);
    await expectAccessible(page, 'links at phone width');
    expect(await fits()).toBe(true);

    // On the FREE plan the QR dialog says which plan has QR codes.
    await page.getByRole('button', { name: `QR: ${BASE}/phone` }).click();
    await expect
      .poll(() => page.getByRole('dialog').innerText())
      .toContain('QR 코드는 PRO 요금제 이상에서 쓸 수 있습니다.');
    await expectAccessible(page, 'QR dialog on the FREE plan at phone width');
    await ctx.close();
  });

  it('lists my sessions with their devices and ends another one, which signs that browser out', {
    timeout: 60_000,
  }, async () => {
    const org = await svc.createOrganization('Session Team', 'FREE');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'owner@sessions.example', role: 'owner' });
    const other = await signInAs(browser, svc, BASE, 'owner@sessions.example');
    const { ctx, page } = await signInAs(browser, svc, BASE, 'owner@sessions.example');
    await page.getByRole('link', { name: '내 로그인 세션' }).click();
    await expect.poll(() => page.getByTestId('sessions').getByRole('row').count()).toBe(3);
    expect(await page.getByRole('row').filter({ hasText: '현재 세션' }).innerText()).toContain('127.0.0.1');
    await expectAccessible(page, 'sessions');
    page.once('dialog', (dialog) => void dialog.accept());
    await page
      .getByRole('row')
      .filter({ hasNotText: '현재 세션' })
      .getByRole('button', { name: /^종료: / })
      .click();
    await expect.poll(() => page.getByTestId('sessions').getByRole('row').count()).toBe(2);
    await other.page.reload();
    expect(new URL(other.page.url()).pathname).toBe('/console/sign-in');
    await other.ctx.close();
    await ctx.close();
  });

  it("shows a link's daily clicks in the viewer's time zone, exports them as the API counts them, and gives an analyst no edit actions", {
    timeout: 90_000,
  }, async () => {
    const org = await svc.createOrganization('Stats Team', 'ENTERPRISE');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'reader@stats.example', role: 'analyst' });
    const url = (
      await svc.service('POST', '/urls', org.apiKey, {
        url: 'https://example.com/tz',
        customAlias: 'tz',
        title: 'Time zones',
      })
    ).json();
    // Friday 2026-11-20 23:30 UTC is Saturday 08:30 in Seoul.
    await recordClicks(svc, org.id, 'url', url.id, [
      { at: '2026-11-20T23:30:00Z' },
      { at: '2026-11-20T23:45:00Z' },
      { at: '2026-11-20T23:50:00Z' },
      { at: '2026-11-21T10:00:00Z' },
    ]);
    const daily = async (timezoneId: string) => {
      const { ctx, page } = await signInAs(browser, svc, BASE, 'reader@stats.example', { timezoneId });
      await page.getByRole('link', { name: '링크' }).click();
      // An analyst looks but changes nothing.
      await expect.poll(() => page.getByRole('button', { name: `보기: ${BASE}/tz` }).count()).toBe(1);
      expect(await page.getByRole('button', { name: `편집: ${BASE}/tz` }).count()).toBe(0);
      expect(await page.getByRole('button', { name: '만들기' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: `통계: ${BASE}/tz` }).click();
      expect(new URL(page.url()).pathname).toBe(`/console/stats/urls/${url.id}`);
      await expect.poll(() => page.getByTestId('link-address').innerText()).toBe(`${BASE}/tz`);
      expect(await page.getByRole('combobox', { name: '시간대' }).inputValue()).toBe(timezoneId);
      await page.getByText('직접 지정').click();
      await page.getByLabel('시작일').fill('2026-11-20');
      await page.getByLabel('종료일').fill('2026-11-21');
      await expect.poll(() => page.getByTestId('range').innerText()).toBe('2026-11-20 – 2026-11-21');
      await expect.poll(() => page.getByTestId('total').innerText()).toBe('4');
      const rows = await page.getByTestId('daily-table').locator('tbody tr').allTextContents();
      const visitors = await page.getByTestId('visitors').innerText();
      await expectAccessible(page, `link statistics in ${timezoneId}`);
      // The CSV of the same panel, as the page offers it.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'CSV 내려받기: 일별 클릭' }).click(),
      ]);
      const csv = fs.readFileSync((await download.path())!, 'utf8');
      await ctx.close();
      return { rows, csv, visitors };
    };
    const utc = await daily('UTC');
    // Rows read date, clicks, visitors, then the previous period's date, clicks and visitors (none).
    // One address and browser: a visitor per UTC day.
    expect(utc.rows).toEqual(['2026-11-20312026-11-1800', '2026-11-21112026-11-1900']);
    expect(utc.visitors).toBe('2');
    const seoul = await daily('Asia/Seoul');
    expect(seoul.rows).toEqual(['2026-11-20002026-11-1800', '2026-11-21422026-11-1900']);
    // The CSV as the page offers it, with the previous period beside each day (the comparison is on).
    expect(seoul.csv).toBe(
      '\uFEFFdate (Asia/Seoul),clicks,visitors,previousDate,previousClicks,previousVisitors,change,trend\r\n' +
        '2026-11-20,0,0,2026-11-18,0,0,,none\r\n2026-11-21,4,2,2026-11-19,0,0,,new\r\n',
    );
    const api = (
      await svc.service(
        'GET',
        `/urls/${url.id}/stats?startDate=2026-11-20&endDate=2026-11-21&timeZone=Asia/Seoul`,
        org.apiKey,
      )
    ).json();
    expect(api.chartData).toEqual([0, 4]);
    expect(utc.csv).toContain('2026-11-20,3,1,2026-11-18,0,0,,new\r\n2026-11-21,1,1,2026-11-19,0,0,,new');
  });

  it("filters a link's dashboard by a country clicked: every panel narrows, the address keeps it through a reload and back; the previous period beside every figure, toggled by the address", {
    timeout: 120_000,
  }, async () => {
    const { org, url } = await orgWithLink('Filter Team', 'ENTERPRISE', 'owner@filters.example', 'owner', 'filtered');
    const KR = '211.234.10.1';
    const JP = '133.242.0.1';
    await recordClicks(svc, org.id, 'url', url.id, [
      { at: '2026-11-19T09:00:00Z', ip: KR },
      { at: '2026-11-20T09:00:00Z', ip: KR, utmSource: 'kakao' },
      { at: '2026-11-20T10:00:00Z', ip: KR, utmSource: 'kakao' },
      { at: '2026-11-21T09:00:00Z', ip: JP, userAgent: UA.desktop },
      { at: '2026-11-21T10:00:00Z', ip: JP },
    ]);
    const { ctx, page } = await signInAs(browser, svc, BASE, 'owner@filters.example', { timezoneId: 'UTC' });
    const home = `${BASE}/console/stats/urls/${url.id}?period=custom&from=2026-11-20&to=2026-11-21&timeZone=UTC`;
    await page.goto(home);
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('4');
    expect(await page.getByTestId('filter-chips').count()).toBe(0);

    // The previous period (2026-11-18 – 19, one click) beside the figures, on when the address does not say: an arrow,
    // a word for screen readers and the percent; the daily chart's second series in its table.
    expect(new URL(page.url()).searchParams.get('compare')).toBeNull();
    await expect.poll(() => page.getByTestId('change').innerText()).toMatch(/▲\s*증가\s*300%/);
    expect(await page.getByTestId('change-previous').innerText()).toBe('이전 기간(2026-11-18 – 2026-11-19): 1');
    const dailyHead = () => page.getByTestId('daily-table').locator('thead th').allInnerTexts();
    expect(await dailyHead()).toEqual([
      '날짜',
      '클릭',
      '순 방문자',
      '이전 기간 날짜',
      '클릭 (이전 기간)',
      '순 방문자 (이전 기간)',
    ]);
    expect(await page.getByTestId('daily-table').locator('tbody tr').first().textContent()).toBe(
      '2026-11-20212026-11-1800',
    );
    // Each row of a list beside its previous count: Korea 2 against 1, Japan new; the CSV link asks for the columns.
    const countryRow = (name: string) => page.locator('section[aria-label="국가"] li', { hasText: name }).textContent();
    expect(await countryRow('대한민국')).toMatch(/증가\s*100%.*이전 기간: 1/);
    expect(await countryRow('일본')).toMatch(/신규.*이전 기간: 0/);
    expect(await page.getByRole('link', { name: 'CSV 내려받기: 국가' }).getAttribute('href')).toContain(
      'compare=previous',
    );
    await expectAccessible(page, 'link statistics against the previous period');
    // Off: one series, no change, and the address says so through a reload; back turns it on again.
    await page.getByRole('switch', { name: '이전 기간과 비교' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('compare')).toBe('off');
    await expect.poll(dailyHead).toEqual(['날짜', '클릭', '순 방문자']);
    expect(await page.getByTestId('change').count()).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('4');
    expect(await dailyHead()).toEqual(['날짜', '클릭', '순 방문자']);
    expect(await page.getByRole('switch', { name: '이전 기간과 비교' }).isChecked()).toBe(false);
    await page.goBack();
    await expect.poll(dailyHead).toHaveLength(6);
    await expect.poll(() => page.getByTestId('change').innerText()).toContain('300%');

    await page.getByRole('button', { name: '국가: 일본만 보기' }).click();
    const params = () => new URL(page.url()).searchParams;
    await expect.poll(() => params().get('country')).toBe('JP');
    expect(params().get('from')).toBe('2026-11-20');
    await expect.poll(() => page.getByRole('region', { name: 'utm_source' }).innerText()).not.toContain('kakao');
    const destinationRows = () =>
      page.getByRole('region', { name: '목적지별 클릭과 전환' }).getByRole('row').allInnerTexts();
    await expect.poll(async () => (await destinationRows()).join()).toContain('2 (100%)');
    const csv = new URL((await page.getByRole('link', { name: 'CSV 내려받기: 기기' }).getAttribute('href'))!, BASE);
    expect(csv.searchParams.get('country')).toBe('JP');
    await expectAccessible(page, 'link statistics filtered by a country');

    // The keyboard adds a second filter from a panel's row.
    await page.getByRole('button', { name: '기기: 데스크톱만 보기' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('1');
    expect(params().get('deviceType')).toBe('desktop');

    // A reload shows the same view, from the address alone.
    await page.reload();
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('1');
    expect(await page.getByTestId('filter-chip').allInnerTexts()).toEqual(['국가: 일본', '기기: 데스크톱']);
    expect(await page.getByLabel('시작일').inputValue()).toBe('2026-11-20');

    // Back: Japan only; back again: every click.
    await page.goBack();
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('2');
    await page.goBack();
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('4');
    expect(await page.getByTestId('filter-chip').count()).toBe(0);

    // The copied address, opened in English: the same view, the chip in English; removing it shows every click.
    const copied = `${home}&country=JP`;
    await ctx.close();
    const english = await signInAs(browser, svc, BASE, 'owner@filters.example', {
      timezoneId: 'Asia/Seoul',
      locale: 'en-US',
    });
    await english.page.goto(copied);
    await expect.poll(() => english.page.getByTestId('total').innerText()).toBe('2');
    expect(await english.page.getByTestId('filter-chip').allInnerTexts()).toEqual(['Country: Japan']);
    // No clicks from Japan the period before: new, not a percent.
    expect(await english.page.getByTestId('change').innerText()).toMatch(/^new\s*none in the previous period$/i);
    await expectAccessible(english.page, 'link statistics filtered, in English');
    await english.page.getByRole('button', { name: 'Remove filter Country: Japan' }).click();
    await expect.poll(() => english.page.getByTestId('total').innerText()).toBe('4');
    expect(new URL(english.page.url()).searchParams.get('country')).toBeNull();
    await english.ctx.close();
  });

  it("shows clicks by tag on the organization's dashboard, filters it to a tag picked, opens a tag's statistics from the tags screen and the statistics of links ticked on the list", {
    timeout: 90_000,
  }, async () => {
    const org = await svc.createOrganization('Tag Team', 'ENTERPRISE');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'owner@tagstats.example', role: 'owner' });
    const link = async (alias: string, tags: string[]) =>
      (
        await svc.service('POST', '/urls', org.apiKey, {
          url: `https://example.com/${alias}`,
          customAlias: alias,
          tags,
        })
      ).json() as { id: number };
    const sale = await link('tag-sale', ['봄 세일', 'ads']);
    const plain = await link('tag-plain', ['ads']);
    const untagged = await link('tag-none', []);
    await recordClicks(svc, org.id, 'url', sale.id, [{ at: '2026-11-20T09:00:00Z' }, { at: '2026-11-20T10:00:00Z' }]);
    await recordClicks(svc, org.id, 'url', plain.id, [{ at: '2026-11-21T09:00:00Z' }]);
    await recordClicks(svc, org.id, 'url', untagged.id, [{ at: '2026-11-21T10:00:00Z' }]);
    const { ctx, page } = await signInAs(browser, svc, BASE, 'owner@tagstats.example', { timezoneId: 'UTC' });
    const period = 'period=custom&from=2026-11-20&to=2026-11-21&timeZone=UTC';
    await page.goto(`${BASE}/console/dashboard?${period}`);
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('4');
    const rows = () => page.getByTestId('tag-clicks-table').locator('tbody tr').allTextContents();
    await expect.poll(rows).toEqual(['ads32', '봄 세일21']);
    await expectAccessible(page, 'organization dashboard with clicks by tag');

    await page.getByRole('button', { name: '태그: 봄 세일만 보기' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tag')).toBe('봄 세일');
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('2');
    expect(await page.getByTestId('filter-chip').allInnerTexts()).toEqual(['태그: 봄 세일']);

    // The tags screen opens a tag's statistics: the dashboard filtered by it.
    await page.goto(`${BASE}/console/tags`);
    await page.getByRole('button', { name: '통계: ads' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tag')).toBe('ads');
    await expect.poll(() => page.getByTestId('filter-chip').allInnerTexts()).toEqual(['태그: ads']);

    // Two links ticked on the list: "View statistics" opens the dashboard of exactly those.
    await page.goto(`${BASE}/console/links`);
    for (const alias of ['tag-sale', 'tag-plain'])
      await page.getByRole('checkbox', { name: `선택: ${BASE}/${alias}` }).check();
    await page.getByTestId('bulk-bar').getByRole('button', { name: '통계 보기' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('url')).toBe(`${sale.id},${plain.id}`);
    await expect
      .poll(() => page.getByTestId('filter-chip').allInnerTexts())
      .toEqual(['링크: tag-sale', '링크: tag-plain']);
    expect(await page.getByTestId('link-scope').innerText()).toBe('선택한 링크 2개의 클릭만 셉니다.');
    // The clicks' days as the period: the chosen links' clicks only.
    const address = new URL(page.url());
    for (const [key, value] of new URLSearchParams(period)) address.searchParams.set(key, value);
    await page.goto(address.toString());
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('3');
    await expectAccessible(page, 'organization dashboard of chosen links');
    await page.getByRole('button', { name: '필터 제거: 링크: tag-sale' }).click();
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('1');
    expect(await page.getByTestId('filter-chip').allInnerTexts()).toEqual(['링크: tag-plain']);
    await ctx.close();
  });

  it("opens an app's install dashboard and a campaign's revenue, each saying why it is empty", {
    timeout: 60_000,
  }, async () => {
    const org = await svc.createOrganization('Install Team', 'PRO');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'installs@example.com', role: 'developer' });
    await svc.service('POST', '/mobile-apps', org.apiKey, {
      platform: 'IOS',
      appName: 'Install App',
      bundleId: 'com.install.app',
    });
    const campaign = (
      await svc.service('POST', '/campaigns', org.apiKey, {
        name: 'No Revenue',
        originalUrl: 'https://example.com/r',
        alias: 'no-revenue',
      })
    ).json();
    const { ctx, page } = await signInAs(browser, svc, BASE, 'installs@example.com');
    await page.getByRole('link', { name: '모바일 앱' }).click();
    await page.getByRole('button', { name: '설치 통계: Install App' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 2 }).innerText()).toBe('Install App 설치 통계');
    expect(await page.getByTestId('app-installs').innerText()).toBe('0');
    expect(await page.locator('main').innerText()).toContain('이 기간에는 설치가 없습니다.');
    expect(await page.getByTestId('funnel').innerText()).toContain('스토어 방문');
    await expect.poll(() => page.locator('main').innerText()).toContain('매출 분석 부가 기능이 켜져 있지 않아');
    await expectAccessible(page, 'app install dashboard');
    // PRO has no revenue add-on: the campaign page says so instead of showing zeros.
    await page.goto(`${BASE}/console/stats/campaigns/${campaign.id}`);
    await expect.poll(() => page.locator('main').innerText()).toContain('매출 분석 부가 기능이 켜져 있지 않아');
    await expectAccessible(page, 'campaign statistics without the revenue add-on');
    await ctx.close();
  });

  it("shows the user journey to an organization with the add-on, with one session's events, and says which add-on is missing elsewhere", {
    timeout: 60_000,
  }, async () => {
    const withAddOn = await journeyOrg(svc, 'Journey Team', 'PRO', true);
    const withoutAddOn = await journeyOrg(svc, 'Plain Team', 'PRO', false);
    await svc.admin('POST', `/organizations/${withAddOn.org.id}/members`, {
      email: 'journeys@example.com',
      role: 'analyst',
    });
    await svc.admin('POST', `/organizations/${withoutAddOn.org.id}/members`, {
      email: 'journeys@example.com',
      role: 'analyst',
    });
    const call = journeyClient(svc, withAddOn);
    const { sessionId } = (await call('POST', '/session/create', { platform: 'WEB', utmSource: 'newsletter' })).json();
    await call('POST', '/session/event', { sessionId, eventType: 'page_view', properties: { path: '/items/42' } });
    await svc.container.events.flush();
    await svc.container.bus.drain(10_000);

    const { ctx, page } = await signInAs(browser, svc, BASE, 'journeys@example.com');
    await page.getByRole('combobox', { name: '조직' }).click();
    await page.getByRole('option', { name: 'Journey Team' }).click();
    await page.getByRole('link', { name: '사용자 여정' }).click();
    await expect
      .poll(() => page.getByTestId('journey-session-list').innerText(), { timeout: 20_000 })
      .toContain('newsletter');
    expect(await page.getByTestId('journey-session-list').innerText()).toContain('WEB');
    expect(await page.getByTestId('journey-sessions').innerText()).toBe('1');
    await expectAccessible(page, 'user journey dashboard');
    await page.getByRole('button', { name: `이벤트: ${sessionId}` }).click();
    await expect.poll(() => page.getByTestId('session-events').innerText()).toContain('page_view');
    await page.getByRole('dialog').getByRole('button', { name: '닫기' }).click();

    await page.getByRole('combobox', { name: '조직' }).click();
    await page.getByRole('option', { name: 'Plain Team' }).click();
    await expect
      .poll(() => page.locator('main').innerText())
      .toContain('사용자 여정 분석 부가 기능이 켜져 있지 않습니다');
    await expectAccessible(page, 'user journey without the add-on');
    await ctx.close();
  });

  it('switches to the dark theme, keeps it after a reload, and draws the charts for it', {
    timeout: 120_000,
  }, async () => {
    const { org, url } = await orgWithLink('Night Team', 'PRO', 'night@example.com', 'analyst', 'night');
    await recordClicks(svc, org.id, 'url', url.id, [
      { at: new Date().toISOString() },
      { at: new Date().toISOString() },
    ]);
    const { ctx, page } = await signInAs(browser, svc, BASE, 'night@example.com', { colorScheme: 'light' });
    await page.goto(`${BASE}/console/dashboard`);
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('2');
    const scheme = () => page.locator('html').getAttribute('data-mantine-color-scheme');
    // The fill of the daily chart's first axis label: ECharts' own colours for the theme.
    const axisColour = () =>
      page
        .getByRole('img', { name: /일별 클릭 차트/ })
        .locator('svg text')
        .first()
        .getAttribute('fill');
    expect(await scheme()).toBe('light');
    const light = await axisColour();
    await page.getByRole('button', { name: '어두운 테마로 바꾸기' }).click();
    await expect.poll(scheme).toBe('dark');
    await expect.poll(axisColour).not.toBe(light);
    await page.reload();
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('2');
    expect(await scheme()).toBe('dark');
    expect(await page.getByRole('button', { name: '밝은 테마로 바꾸기' }).count()).toBe(1);
    await expectAccessible(page, 'dashboard in the dark theme');
    // Every other screen reads as well in the dark.
    for (const screen of [
      '개요',
      '링크',
      '캠페인',
      '목표 유형',
      '커스텀 도메인',
      '모바일 앱',
      'API 키',
      '웹훅',
      '멤버',
      '감사 로그',
    ]) {
      await page.getByRole('link', { name: screen, exact: true }).click();
      await expect.poll(() => page.getByRole('heading', { level: 2 }).count(), { message: screen }).toBeGreaterThan(0);
      await expect.poll(() => page.getByRole('status').count()).toBe(0);
      await expectAccessible(page, `${screen} in the dark theme`);
    }
    await ctx.close();
  });

  it('refreshes the dashboard by itself: a new click shows on the next 30-second refresh', {
    timeout: 60_000,
  }, async () => {
    const org = await svc.createOrganization('Live Team', 'PRO');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'live@example.com', role: 'analyst' });
    const url = (
      await svc.service('POST', '/urls', org.apiKey, { url: 'https://example.com/live', customAlias: 'live' })
    ).json();
    const { ctx, page } = await signInAs(browser, svc, BASE, 'live@example.com', { timezoneId: 'UTC' });
    await page.clock.install();
    await page.goto(`${BASE}/console/dashboard`);
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('0');
    await recordClicks(svc, org.id, 'url', url.id, [{ at: new Date().toISOString() }]);
    // Nothing asks again until the refresh is due…
    expect(await page.getByTestId('total').innerText()).toBe('0');
    await page.clock.fastForward(30_000);
    await expect.poll(() => page.getByTestId('total').innerText()).toBe('1');
    await ctx.close();
  });
});
