// Reports by mail in Chromium, as a member and then as anyone holding the mail: the member
// subscribes on the Reports screen, the round mails the report with its chart to the outbox, and
// its unsubscribe link, opened in a fresh browser with no session, shows what it ends and ends it
// with one button. axe checks the screen and the page.
import { DateTime } from 'luxon';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { expectAccessible, signInAs, startListeningService } from './support/console-browser.js';
import { readOutbox } from './support/outbox.js';
import { decodePng } from './support/png.js';
import { recordClicks } from './support/recorded-clicks.js';
import { isolate, type Isolation, type TestService } from './support/service.js';

describe('reports by mail in the browser', () => {
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

  it('subscribes on the Reports screen, mails the report with its chart, and unsubscribes without a session', {
    timeout: 120_000,
  }, async () => {
    const org = await svc.createOrganization('보고서 상회', 'PRO');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email: 'reader@example.com', role: 'analyst' });
    const link = await svc.createLink(org, { url: 'https://example.com/sale', title: '겨울 세일' });
    const lastWeek = DateTime.now().setZone('Asia/Seoul').startOf('week').minus({ weeks: 1 });
    await recordClicks(svc, org.id, 'url', link.id, [
      { at: lastWeek.plus({ days: 1, hours: 10 }).toUTC().toISO()! },
      { at: lastWeek.plus({ days: 3, hours: 14 }).toUTC().toISO()!, ip: '211.234.10.9' },
    ]);

    const { ctx, page } = await signInAs(browser, svc, BASE, 'reader@example.com', { timezoneId: 'Asia/Seoul' });
    await page.getByRole('link', { name: '메일 보고서' }).click();
    await expect.poll(() => page.locator('main').innerText()).toContain('구독 중인 메일 보고서가 없습니다.');
    await expectAccessible(page, 'reports screen (empty)');
    await page.getByRole('button', { name: '구독', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: '조직 전체' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.innerText()).toContain('Asia/Seoul');
    await expectAccessible(page, 'reports screen with a subscription');
    await ctx.close();

    // The round may also have run on its own timer by now (each instance starts one within a
    // minute): either way the report is mailed once.
    await svc.container.sendReports();
    const mails = await readOutbox(svc);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.to).toBe('reader@example.com');
    expect(mail!.subject).toContain('보고서 상회 조직 전체 주간 보고서');
    expect(mail!.text).toContain('클릭: 2 (이전 기간에는 클릭이 없었습니다)');
    const chart = mail!.attachments.find((a) => a.cid === 'report-chart@signpost')!;
    expect(decodePng(chart.content).width).toBe(1280);

    const unsubscribe = /^<(.+)>$/.exec(mail!.headers.get('list-unsubscribe')!)![1]!;
    const stranger = await browser.newContext({ locale: 'ko-KR' });
    const open = await stranger.newPage();
    await open.goto(unsubscribe);
    expect(await open.locator('main').innerText()).toContain(
      '보고서 상회 조직의 전체 주간 보고서를 더 이상 받지 않으시겠습니까?',
    );
    await expectAccessible(open, 'unsubscribe page');
    await open.getByRole('button', { name: '수신 거부' }).click();
    await expect.poll(() => open.locator('main').innerText()).toContain('수신을 거부했습니다');
    await expectAccessible(open, 'unsubscribed page');
    await stranger.close();
    expect(await svc.container.sendReports(new Date(Date.now() + 8 * 86_400_000))).toBe(0);
  });
});
