// The routing editor end to end in headless Chromium against the real service on loopback: a
// country rule and a phone rule built in the link editor, put in order by dragging, a 50/50 A/B
// test, a Korean visitor tried in the tester, the link saved, and a click from a Korean address
// sent where the tester said. Then a 50/50 test seen through: many visitors click over real HTTP,
// some phones' clicks convert in the app, and the link's dashboard shows both variants with about
// even clicks and each conversion under the variant its click was sent to. axe checks the editor
// with its routing section open, and the dashboard.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { expectAccessible, signInAs, startListeningService } from './support/console-browser.js';
import { createApps, UA } from './support/deep-links.js';
import { isolate, type Isolation, type TestService } from './support/service.js';

const KR = '211.234.10.1';

describe('routing editor end to end', () => {
  let isolation: Isolation;
  let svc: TestService;
  let BASE: string;
  let browser: Browser;

  beforeAll(async () => {
    isolation = await isolate();
    // Loopback is a trusted proxy: X-Forwarded-For makes each visitor of the A/B test its own.
    ({ svc, base: BASE } = await startListeningService(isolation, { TRUST_PROXY: 'loopback' }));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await isolation?.dispose();
  });

  it('builds rules and an A/B test, tests a visitor, saves, and a click goes where the tester said', {
    timeout: 120_000,
  }, async () => {
    const org = await svc.createOrganization('Routing Team', 'PRO');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'router@example.com', role: 'developer' });
    const made = await svc.service('POST', '/urls', org.apiKey, {
      url: 'https://example.com/home',
      customAlias: 'routed',
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json() as { id: number };
    // Tall enough for both rules at once: a drag cannot scroll the drawer.
    const { ctx, page } = await signInAs(browser, svc, BASE, 'router@example.com', {
      viewport: { width: 1280, height: 2000 },
    });
    await page.getByRole('link', { name: '링크', exact: true }).click();
    await page.getByRole('button', { name: `편집: ${BASE}/routed` }).click();
    const editor = page.getByRole('dialog', { name: '링크 편집' });
    await editor.getByRole('button', { name: '라우팅 규칙과 A/B 테스트' }).click();

    await editor.getByRole('button', { name: '규칙 추가' }).click();
    const first = editor.getByRole('region', { name: '규칙 1' });
    await first.getByRole('checkbox', { name: '휴대폰' }).check();
    await first.getByLabel('이동할 주소').fill('https://example.com/phone');
    await editor.getByRole('button', { name: '규칙 추가' }).click();
    const second = editor.getByRole('region', { name: '규칙 2' });
    await second.getByLabel('국가').fill('대한민국');
    // The list opens in a portal, outside the rule.
    await page.getByRole('option', { name: '대한민국', exact: true }).click();
    await second.getByLabel('이동할 주소').fill('https://example.com/kr');
    // Dragged above the phone rule: a Korean phone goes to the Korean page.
    await second.getByTitle('끌어서 순서 바꾸기').dragTo(first.getByText('규칙 1'));
    await expect
      .poll(() => editor.getByRole('region', { name: '규칙 1' }).getByLabel('이동할 주소').inputValue())
      .toBe('https://example.com/kr');

    await editor.getByRole('button', { name: 'A/B 테스트 시작' }).click();
    await editor.getByLabel('변형 B 주소').fill('https://example.com/b');
    expect(await editor.getByTestId('weight-sum').innerText()).toBe('비중 합계 100%');
    await expectAccessible(page, 'link editor with routing rules and an A/B test');

    const tester = editor.getByRole('region', { name: '테스터' });
    await tester.getByLabel('방문자의 국가').fill('대한민국');
    await page.getByRole('option', { name: '대한민국', exact: true }).click();
    await tester.getByRole('button', { name: '어디로 가는지 보기' }).click();
    await expect
      .poll(() => tester.getByRole('status').innerText())
      .toBe('이 방문자는 https://example.com/kr 으로 갑니다 (규칙 1).');

    await editor.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => editor.isVisible()).toBe(false);
    const saved = (await svc.service('GET', `/urls/${id}`, org.apiKey)).json() as Record<string, unknown>;
    expect(saved.routingRules).toEqual([
      { conditions: { countries: ['KR'] }, url: 'https://example.com/kr' },
      { conditions: { deviceTypes: ['mobile'] }, url: 'https://example.com/phone' },
    ]);
    expect(saved.variants).toEqual([
      { url: 'https://example.com/home', weight: 50 },
      { url: 'https://example.com/b', weight: 50 },
    ]);
    const click = await svc.inject({
      method: 'GET',
      url: '/routed',
      remoteAddress: KR,
      headers: { host: new URL(BASE).host, 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' },
    });
    expect(click.headers.location).toBe('https://example.com/kr');
    await ctx.close();
  });

  it("shows a 50/50 test on the dashboard: even clicks, and each conversion under its click's variant", {
    timeout: 180_000,
  }, async () => {
    const org = await svc.createOrganization('Split Team', 'PRO');
    await svc.admin('PUT', `/organizations/${org.id}/add-ons`, { revenueAnalytics: true });
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'split@example.com', role: 'owner' });
    const apps = await createApps(svc, org);
    const A = 'https://shop.example/spring-a';
    const B = 'https://shop.example/spring-b';
    const made = await svc.service('POST', '/urls', org.apiKey, {
      url: 'https://shop.example/spring',
      customAlias: 'spring',
      androidAppId: apps.android.id,
      variants: [
        { url: A, weight: 50 },
        { url: B, weight: 50 },
      ],
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json() as { id: number };

    // Sixty desktop visitors, each its own address: real 302s to one variant or the other.
    const sent = { [A]: 0, [B]: 0 };
    const visit = (n: number, ua: string) =>
      fetch(`${BASE}/spring`, {
        redirect: 'manual',
        headers: { 'user-agent': ua, 'x-forwarded-for': `198.51.100.${n}` },
      });
    for (let n = 1; n <= 60; n++) {
      const res = await visit(n, UA.desktop);
      expect(res.status).toBe(302);
      sent[res.headers.get('location')!.startsWith(A) ? A : B]++;
    }
    // Forty Android visitors get the app's landing page and their click's token; its fallback follows the variant.
    const tokens = { [A]: [] as string[], [B]: [] as string[] };
    for (let n = 101; n <= 140; n++) {
      const html = await (await visit(n, UA.pixel)).text();
      const landing = JSON.parse(
        /<script type="application\/json" id="signpost-landing">(.*?)<\/script>/s.exec(html)![1]!,
      );
      const variant = (landing.fallbackUrl as string).startsWith(A) ? A : B;
      sent[variant]++;
      tokens[variant].push(landing.token as string);
    }
    // The app reports purchases in the sessions four of A's clicks and one of B's opened.
    const buy = async (token: string) => {
      const res = await fetch(`${BASE}/api/v1/sdk/mobile/deeplink/funnel/track`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-app-id': String(apps.android.id),
          'x-mobile-app-api-key': apps.android.apiKey,
        },
        body: JSON.stringify({
          sessionId: token,
          stage: 'GOAL_COMPLETED',
          goalType: 'purchase_KRW',
          goalValue: '10000',
        }),
      });
      expect(res.status).toBe(200);
    };
    for (const token of tokens[A].slice(0, 4)) await buy(token);
    await buy(tokens[B][0]!);
    // About even: each variant got between a quarter and three quarters of the hundred clicks.
    for (const count of Object.values(sent)) expect(count).toBeGreaterThan(25);
    for (const count of Object.values(sent)) expect(count).toBeLessThan(75);

    await svc.container.events.flush();
    const { ctx, page } = await signInAs(browser, svc, BASE, 'split@example.com', { timezoneId: 'UTC' });
    const today = new Date().toISOString().slice(0, 10);
    await page.goto(`${BASE}/console/stats/urls/${id}?period=custom&from=${today}&to=${today}&timeZone=UTC`);
    const panel = page.getByRole('region', { name: '목적지별 클릭과 전환' });
    const rowOf = (name: string) => panel.getByRole('row').filter({ hasText: name });
    const texts = async (name: string) => (await rowOf(name).locator('td').allInnerTexts()).map((t) => t.trim());
    // Each cell's figure; the clicks cell adds its change against the previous period on lines of its own.
    const cells = async (name: string) => (await texts(name)).map((t) => t.split('\n')[0]!.trim());
    const won = (n: number) => new Intl.NumberFormat('ko-KR', { style: 'currency', currency: 'KRW' }).format(n);
    const share = (n: number) => `${n.toLocaleString('ko-KR')} (${(Math.round(n * 10) / 10).toLocaleString('ko-KR')}%)`;
    await expect
      .poll(() => cells('변형 A'), { timeout: 30_000 })
      .toEqual([
        '50%',
        share(sent[A]),
        '4',
        `${(Math.round((4 / sent[A]) * 1000) / 10).toLocaleString('ko-KR')}%`,
        won(40000),
      ]);
    expect(await cells('변형 B')).toEqual([
      '50%',
      share(sent[B]),
      '1',
      `${(Math.round((1 / sent[B]) * 1000) / 10).toLocaleString('ko-KR')}%`,
      won(10000),
    ]);
    // Nothing was clicked the day before: each variant's clicks are new against the previous period.
    expect((await texts('변형 A'))[1]).toContain('신규');
    // Five conversions in a hundred clicks: the panel says A leads, and that it is too soon to tell.
    expect(await panel.getByTestId('ab-verdict').innerText()).toMatch(
      /^지금까지는 변형 A이\(가\) 앞서지만.*판단할 수 없습니다\.$/,
    );
    await expectAccessible(page, 'link dashboard with an A/B result');
    await ctx.close();
  });
});
