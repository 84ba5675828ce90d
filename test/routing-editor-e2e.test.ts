// The routing editor end to end in headless Chromium against the real service on loopback: a
// country rule and a phone rule built in the link editor, put in order by dragging, a 50/50 A/B
// test, a Korean visitor tried in the tester, the link saved, and a click from a Korean address
// sent where the tester said. axe checks the editor with its routing section open.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { expectAccessible, signInAs, startListeningService } from './support/console-browser.js';
import { isolate, type Isolation, type TestService } from './support/service.js';

const KR = '211.234.10.1';

describe('routing editor end to end', () => {
  let isolation: Isolation;
  let svc: TestService;
  let BASE: string;
  let browser: Browser;

  beforeAll(async () => {
    isolation = await isolate();
    ({ svc, base: BASE } = await startListeningService(isolation));
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
});
