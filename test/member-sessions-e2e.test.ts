// An owner ends a member's console sessions in headless Chromium against the real service on
// loopback: the member signs in in a browser of their own, the owner opens the member's sessions
// dialog on the members screen, sees that session (device, address, last use), axe checks the
// dialog, the owner ends them all there, and the member's next page load lands on the sign-in page.
import { describe, expect, it } from 'vitest';
import { consoleForFile, expectAccessible, signInAs } from './support/console-browser.js';

const file = consoleForFile();

describe("a member's sessions, ended by an owner", () => {
  it("shows the member's session in the dialog, ends them all, and the member is signed out", {
    timeout: 60_000,
  }, async () => {
    const { svc, base: BASE, browser } = file;
    const org = await svc.createOrganization('Session Owners', 'FREE');
    for (const [email, role] of [
      ['boss@owners.example', 'owner'],
      ['dev@owners.example', 'developer'],
    ])
      expect((await svc.admin('POST', `/organizations/${org.id}/members`, { email, role })).statusCode).toBe(201);
    const member = await signInAs(browser, svc, BASE, 'dev@owners.example');
    const { ctx, page } = await signInAs(browser, svc, BASE, 'boss@owners.example');

    await page.getByRole('link', { name: '멤버', exact: true }).click();
    await page.getByRole('button', { name: '세션: dev@owners.example' }).click();
    const dialog = page.getByRole('dialog', { name: 'dev@owners.example 님의 콘솔 세션' });
    const rows = dialog.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    const row = await rows.innerText();
    // Headless Chromium on Linux, from this machine; signed in and last used, as dates in Korean form.
    expect(row).toContain('Linux');
    expect(row).toContain('(컴퓨터)');
    expect(row).toContain('127.0.0.1');
    expect(row.match(/\d{4}\. \d{1,2}\. \d{1,2}\./g)).toHaveLength(2);
    await expectAccessible(page, "a member's sessions dialog");

    page.once('dialog', (confirm) => void confirm.accept());
    await dialog.getByRole('button', { name: '모든 세션 종료' }).click();
    await expect.poll(() => dialog.innerText()).toContain('로그인한 곳이 없습니다.');
    expect(
      await page.getByText('dev@owners.example 님을 모든 기기에서 로그아웃했습니다(종료한 세션 1개).').count(),
    ).toBe(1);

    await member.page.reload();
    expect(new URL(member.page.url()).pathname).toBe('/console/sign-in');
    await member.ctx.close();
    await ctx.close();
  });
});
