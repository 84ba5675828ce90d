// Reports by mail, end to end on the real stores: members subscribe in the console, the round mails
// each due report once (run twice, or twice at once, it still sends one per period), a failed mail
// is sent by a later round, the figures are the seeded clicks', the mail is in the member's
// language with its chart inline, the unsubscribe link works without a session, and a member who
// left gets nothing.
import fs from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import { createReportSubscriptionsRepo } from '../src/oltp/report-subscriptions.repo.js';
import { type ConsoleCall, consoleMember } from './support/console-api.js';
import { readOutbox } from './support/outbox.js';
import { decodePng } from './support/png.js';
import { recordClicks } from './support/recorded-clicks.js';
import { serviceForFile } from './support/service.js';

const svc = serviceForFile();
const ZONE = 'Asia/Seoul';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
// The last whole week (Monday to Sunday) in Seoul, and the one before it.
const weekStart = DateTime.now().setZone(ZONE).startOf('week').minus({ weeks: 1 });
const at = (week: DateTime, day: number, hour: number) => week.plus({ days: day, hours: hour }).toUTC().toISO()!;
const RANGE = `${weekStart.toISODate()} ~ ${weekStart.plus({ days: 6 }).toISODate()}`;

let org: { id: number; apiKey: string };
let other: { id: number; apiKey: string };
let owner: ConsoleCall;
let analyst: ConsoleCall;
let stranger: ConsoleCall;
let spring: { id: number };
let autumn: { id: number };
let otherLink: { id: number };

const mailsTo = async (to: string) => (await readOutbox(svc)).filter((m) => m.to === to);
const subscriptionCount = async (orgId: number) =>
  Number(
    (
      await svc.container.postgres
        .sql`select count(*)::int as n from report_subscriptions where organization_id = ${orgId}`
    )[0]!.n,
  );

beforeAll(async () => {
  const base = svc.config.server.publicBaseUrl;
  org = await svc.createOrganization('봄꽃상회');
  other = await svc.createOrganization('Other Co');
  spring = await svc.createLink(org, { url: 'https://example.com/spring', title: '봄 세일', tags: ['시즌'] } as never);
  autumn = await svc.createLink(org, { url: 'https://example.com/autumn', title: 'Autumn' });
  otherLink = await svc.createLink(other, { url: 'https://example.com/other' });
  owner = await consoleMember(svc, base, { organizationId: org.id, email: 'owner@bom.example', role: 'owner' });
  analyst = await consoleMember(svc, base, { organizationId: org.id, email: 'analyst@bom.example', role: 'analyst' });
  expect((await analyst('PUT', '/me/language', { language: 'en' })).statusCode).toBe(204);
  stranger = await consoleMember(svc, base, { organizationId: other.id, email: 'owner@other.example', role: 'owner' });
  // Last week: 3 phone clicks on 봄 세일, 2 desktop clicks on Autumn; the week before: 1 click.
  await recordClicks(svc, org.id, 'url', spring.id, [
    { at: at(weekStart, 0, 10) },
    { at: at(weekStart, 2, 11), ip: '211.234.10.2' },
    { at: at(weekStart, 6, 20), ip: '211.234.10.3' },
  ]);
  await recordClicks(svc, org.id, 'url', autumn.id, [
    { at: at(weekStart, 1, 9), userAgent: DESKTOP },
    { at: at(weekStart, 1, 15), userAgent: DESKTOP, ip: '211.234.10.4' },
  ]);
  await recordClicks(svc, org.id, 'url', spring.id, [{ at: at(weekStart.minus({ weeks: 1 }), 3, 12) }]);
}, 120_000);

describe('report subscriptions in the console', () => {
  it('subscribes a member to the organization, a tag or a link, once each, and lists them', async () => {
    const created = await owner('POST', `/organizations/${org.id}/report-subscriptions`, {
      frequency: 'weekly',
      scope: { type: 'organization' },
      timeZone: ZONE,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      frequency: 'weekly',
      scope: { type: 'organization', name: '봄꽃상회' },
      lastSentAt: null,
    });
    const again = await owner('POST', `/organizations/${org.id}/report-subscriptions`, {
      frequency: 'weekly',
      scope: { type: 'organization' },
      timeZone: ZONE,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('REPORT_SUBSCRIPTION_EXISTS');

    const tags = await owner('GET', `/organizations/${org.id}/tags`);
    const tagId = (tags.json().items as { id: number; name: string }[]).find((t) => t.name === '시즌')!.id;
    const tagged = await analyst('POST', `/organizations/${org.id}/report-subscriptions`, {
      frequency: 'weekly',
      scope: { type: 'tag', id: tagId },
      timeZone: ZONE,
    });
    expect(tagged.statusCode, tagged.body).toBe(201);
    expect(tagged.json().scope).toEqual({ type: 'tag', id: tagId, name: '시즌' });

    const list = await owner('GET', `/organizations/${org.id}/report-subscriptions`);
    expect(list.json().items.map((s: { scope: { type: string } }) => s.scope.type)).toEqual(['organization']);
  });

  it('refuses another organization, its links, unknown zones and subjects', async () => {
    const theirs = await owner('POST', `/organizations/${org.id}/report-subscriptions`, {
      frequency: 'weekly',
      scope: { type: 'url', id: otherLink.id },
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().code).toBe('SHORT_URL_NOT_FOUND');
    const notMine = await stranger('GET', `/organizations/${org.id}/report-subscriptions`);
    expect([403, 404]).toContain(notMine.statusCode);
    const zone = await owner('POST', `/organizations/${org.id}/report-subscriptions`, {
      frequency: 'monthly',
      scope: { type: 'organization' },
      timeZone: 'Mars/Olympus',
    });
    expect(zone.statusCode).toBe(400);
    expect(zone.json().details[0].field).toBe('timeZone');
    const bad = await owner('POST', `/organizations/${org.id}/report-subscriptions`, {
      frequency: 'daily',
      scope: { type: 'organization' },
    });
    expect(bad.statusCode).toBe(400);
    // Another member's subscription is not yours to cancel.
    const analystOwn = (await analyst('GET', `/organizations/${org.id}/report-subscriptions`)).json().items[0].id;
    expect((await owner('DELETE', `/organizations/${org.id}/report-subscriptions/${analystOwn}`)).statusCode).toBe(404);
  });
});

describe('the report round', () => {
  it('mails each due report once, even run twice at once and again', async () => {
    // Each instance also runs the round on its own timer, first within a minute of its start: what
    // counts is the mails, whichever round sent them.
    await Promise.all([svc.container.sendReports(), svc.container.sendReports()]);
    expect(await svc.container.sendReports()).toBe(0);
    expect(await mailsTo('owner@bom.example')).toHaveLength(1);
    expect(await mailsTo('analyst@bom.example')).toHaveLength(1);
    const listed = (await owner('GET', `/organizations/${org.id}/report-subscriptions`)).json().items[0];
    expect(listed.lastSentAt).not.toBeNull();
  });

  it("tells the organization's totals and change in Korean, with the chart inline", async () => {
    const [mail] = await mailsTo('owner@bom.example');
    expect(mail!.subject).toBe(`[Signpost] 봄꽃상회 조직 전체 주간 보고서 (${RANGE})`);
    expect(mail!.text).toContain('클릭: 5 (이전 기간 대비 +400%)');
    expect(mail!.text).toMatch(/- 봄 세일 \S+: 3\n- Autumn \S+: 2/);
    expect(mail!.text).toContain('- 대한민국: 5 (100%)');
    expect(mail!.text).toContain('- 모바일: 3 (60%)');
    expect(mail!.text).toContain('- 데스크톱: 2 (40%)');
    const chart = mail!.attachments.find((a) => a.contentType === 'image/png');
    expect(chart?.cid).toBe('report-chart@signpost');
    expect(mail!.html).toContain('src="cid:report-chart@signpost"');
    const png = decodePng(chart!.content);
    expect([png.width, png.height]).toEqual([1280, 560]);
    expect(mail!.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
  });

  it("tells a tag's figures in English to a member who reads English", async () => {
    const [mail] = await mailsTo('analyst@bom.example');
    expect(mail!.subject).toBe(`[Signpost] Weekly report: Tag 시즌 (${RANGE})`);
    expect(mail!.text).toContain('Clicks: 3 (+200% against the previous period)');
    expect(mail!.text).toContain('- South Korea: 3 (100%)');
    expect(mail!.text).toContain('- Mobile: 3 (100%)');
  });

  it('sends a report whose mail failed in a later round', async () => {
    const created = await owner('POST', `/organizations/${org.id}/report-subscriptions`, {
      frequency: 'weekly',
      scope: { type: 'url', id: autumn.id },
      timeZone: ZONE,
    });
    expect(created.statusCode).toBe(201);
    // The outbox cannot be written: a file stands where its folder should be.
    const outbox = path.join(svc.config.stores.dataDir, 'outbox');
    fs.renameSync(outbox, `${outbox}.away`);
    fs.writeFileSync(outbox, '');
    try {
      expect(await svc.container.sendReports()).toBe(0);
    } finally {
      fs.rmSync(outbox);
      fs.renameSync(`${outbox}.away`, outbox);
    }
    await svc.container.sendReports();
    expect(await svc.container.sendReports()).toBe(0);
    const mails = await mailsTo('owner@bom.example');
    expect(mails.filter((m) => m.subject === `[Signpost] Autumn 주간 보고서 (${RANGE})`)).toHaveLength(1);
    expect(mails.find((m) => m.subject.includes('Autumn'))!.text).toContain(
      '클릭: 2 (이전 기간에는 클릭이 없었습니다)',
    );
  });
});

describe('instances side by side', () => {
  it('claim each due period once, and a period given back once more', async () => {
    const repo = createReportSubscriptionsRepo({ sql: svc.container.postgres.sql });
    const created = await owner('POST', `/organizations/${org.id}/report-subscriptions`, {
      frequency: 'monthly',
      scope: { type: 'url', id: spring.id },
      timeZone: ZONE,
    });
    expect(created.statusCode).toBe(201);
    const now = new Date();
    const claims = await Promise.all([repo.claimDue(now, 50), repo.claimDue(now, 50), repo.claimDue(now, 50)]);
    const taken = claims.flat();
    expect(taken.map((c) => c.id)).toEqual([created.json().id]);
    const lastMonth = DateTime.now().setZone(ZONE).startOf('month').minus({ months: 1 }).toISODate();
    expect(taken[0]!.periodStart).toBe(lastMonth);
    expect(await repo.claimDue(now, 50)).toEqual([]);
    await repo.release(taken[0]!.id, taken[0]!.periodStart, taken[0]!.previousPeriodStart);
    const again = await Promise.all([repo.claimDue(now, 50), repo.claimDue(now, 50)]);
    expect(again.flat().map((c) => c.id)).toEqual([created.json().id]);
    expect(
      (await owner('DELETE', `/organizations/${org.id}/report-subscriptions/${created.json().id}`)).statusCode,
    ).toBe(204);
  });
});

describe('unsubscribing from a mail', () => {
  const unsubscribeUrl = async (to: string, subject: string) => {
    const mail = (await mailsTo(to)).find((m) => m.subject.includes(subject))!;
    const header = mail.headers.get('list-unsubscribe')!;
    const url = new URL(/^<(.+)>$/.exec(header)![1]!);
    expect(mail.text).toContain(url.toString());
    return `${url.pathname}${url.search}`;
  };

  it('shows what the link ends without ending it, then ends it by the button, no session needed', async () => {
    const url = await unsubscribeUrl('owner@bom.example', '조직 전체');
    const page = await svc.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('봄꽃상회 조직의 전체 주간 보고서를 더 이상 받지 않으시겠습니까?');
    expect(page.body).toContain('<form method="post"');
    expect(await subscriptionCount(org.id)).toBe(3);
    const done = await svc.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('수신을 거부했습니다');
    expect(await subscriptionCount(org.id)).toBe(2);
    expect((await svc.inject({ method: 'GET', url })).statusCode).toBe(404);
  });

  it("ends it by a mail program's one-click POST, and refuses a forged token", async () => {
    const url = await unsubscribeUrl('analyst@bom.example', 'Tag');
    const forged = url.replace(/token=(\d+)\.[^&]+/, (_, id) => `token=${id}.${'A'.repeat(43)}`);
    expect(
      (
        await svc.inject({
          method: 'POST',
          url: forged,
          payload: 'List-Unsubscribe=One-Click',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).statusCode,
    ).toBe(404);
    const done = await svc.inject({
      method: 'POST',
      url,
      payload: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You are unsubscribed');
    expect((await analyst('GET', `/organizations/${org.id}/report-subscriptions`)).json().items).toEqual([]);
  });
});

describe('a member who left', () => {
  it('gets no report and their subscription ends', async () => {
    const base = svc.config.server.publicBaseUrl;
    const leaving = await consoleMember(svc, base, {
      organizationId: org.id,
      email: 'leaving@bom.example',
      role: 'analyst',
    });
    expect(
      (
        await leaving('POST', `/organizations/${org.id}/report-subscriptions`, {
          frequency: 'weekly',
          scope: { type: 'organization' },
        })
      ).statusCode,
    ).toBe(201);
    const members = (await svc.admin('GET', `/organizations/${org.id}/members`)).json();
    const id = (members.items ?? members).find((m: { email: string }) => m.email === 'leaving@bom.example').id;
    expect((await svc.admin('DELETE', `/organizations/${org.id}/members/${id}`)).statusCode).toBeLessThan(300);
    await svc.container.sendReports();
    expect(await mailsTo('leaving@bom.example')).toEqual([]);
    expect(
      Number(
        (
          await svc.container.postgres.sql`select count(*)::int as n from report_subscriptions where user_id = ${id}`
        )[0]!.n,
      ),
    ).toBe(0);
  });
});
