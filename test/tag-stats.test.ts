// Clicks by tag on the console's dashboards: the Tags panel's figures (clicks and visitors per tag)
// and the `tag` filter of the organization's dashboard follow the tags links carry now, so a tag
// renamed, taken off a link, deleted or put on a link later moves past clicks with it; a campaign's
// tags count alike; another organization sees nothing of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleCall, consoleMember } from './support/console-api.js';
import { recordClicks } from './support/recorded-clicks.js';
import { isolate, startService, type Isolation, type TestService } from './support/service.js';

describe('statistics by tag', () => {
  let isolation: Isolation;
  let svc: TestService;
  let org: { id: number; apiKey: string };
  let other: { id: number; apiKey: string };
  let owner: ConsoleCall;
  let stranger: ConsoleCall;
  let saleId: number;
  let pushId: number;
  let plainId: number;

  const get = (url: string, member = owner) => member('GET', url);
  const PERIOD = 'startDate=2026-11-20&endDate=2026-11-21&timeZone=UTC';
  async function byTag(query = '', orgId = org.id, member = owner) {
    const res = await get(`/organizations/${orgId}/dashboard/tags?${PERIOD}${query}`, member);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      meta: { filters: Record<string, string[]> };
      tags: { id: number; name: string; color: string; clicks: number; visitors: number }[];
    };
  }
  /** name → clicks, for the tags with clicks. */
  const clicksOf = (answer: Awaited<ReturnType<typeof byTag>>) =>
    Object.fromEntries(answer.tags.filter((t) => t.clicks > 0).map((t) => [t.name, t.clicks]));
  async function overview(query: string) {
    const res = await get(`/organizations/${org.id}/dashboard?${PERIOD}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  const api = (method: string, url: string, body?: unknown) => svc.service(method, url, org.apiKey, body);
  const tagId = async (name: string) =>
    ((await api('GET', '/tags')).json().items as { id: number; name: string }[]).find((t) => t.name === name)!.id;

  beforeAll(async () => {
    isolation = await isolate();
    svc = await startService(isolation);
    org = await svc.createOrganization('Tagged', 'ENTERPRISE');
    other = await svc.createOrganization('Elsewhere', 'ENTERPRISE');
    const base = svc.config.server.publicBaseUrl;
    owner = await consoleMember(svc, base, { organizationId: org.id, email: 'owner@tags.example', role: 'owner' });
    stranger = await consoleMember(svc, base, { organizationId: other.id, email: 'owner@else.example', role: 'owner' });
    saleId = (await svc.createLink(org, { url: 'https://example.com/sale', title: 'Sale', tags: ['spring', 'ads'] }))
      .id;
    plainId = (await svc.createLink(org, { url: 'https://example.com/plain', title: 'Plain' })).id;
    pushId = (
      await svc.createCampaign(org, {
        name: 'Push',
        originalUrl: 'https://example.com/push',
        alias: 'push',
        tags: ['ads'],
      })
    ).id;
    // The other organization has a tag of the same name and clicks of its own.
    const theirs = (await svc.createLink(other, { url: 'https://example.com/theirs', tags: ['ads'] })).id;
    await recordClicks(svc, org.id, 'url', saleId, [
      { at: '2026-11-20T09:00:00Z' },
      { at: '2026-11-20T10:00:00Z', ip: '198.51.100.7' },
      { at: '2026-11-21T09:00:00Z', utmSource: 'kakao' },
    ]);
    await recordClicks(svc, org.id, 'campaign', pushId, [
      { at: '2026-11-21T12:00:00Z' },
      { at: '2026-11-21T13:00:00Z' },
    ]);
    await recordClicks(svc, org.id, 'url', plainId, [{ at: '2026-11-21T14:00:00Z' }]);
    await recordClicks(svc, other.id, 'url', theirs, [
      { at: '2026-11-20T09:00:00Z' },
      { at: '2026-11-20T09:30:00Z' },
      { at: '2026-11-20T09:45:00Z' },
    ]);
  });

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  it('counts clicks and visitors per tag, a click once for each tag of its link, tags without clicks too', async () => {
    const answer = await byTag();
    expect(answer.tags.map((t) => [t.name, t.clicks])).toEqual([
      ['ads', 5],
      ['spring', 3],
    ]);
    // Two addresses on 2026-11-20, one on 2026-11-21: spring's visitors are 2 + 1; ads adds
    // nothing on the 21st (the campaign's clicks come from the same address as the sale's).
    expect(answer.tags.find((t) => t.name === 'spring')).toMatchObject({ visitors: 3, color: expect.any(String) });
    expect(answer.tags.find((t) => t.name === 'ads')!.visitors).toBe(3);
    expect(answer.meta.filters).toEqual({});

    // Filtered like every dashboard figure.
    expect(clicksOf(await byTag('&utmSource=KAKAO'))).toEqual({ ads: 1, spring: 1 });
  });

  it("compares each tag's clicks with the previous period's when asked, filtered alike", async () => {
    // The previous period of 11-20 … 11-21 is 11-18 … 11-19.
    await recordClicks(svc, org.id, 'url', saleId, [{ at: '2026-11-19T09:00:00Z' }]);
    await recordClicks(svc, org.id, 'campaign', pushId, [
      { at: '2026-11-18T09:00:00Z' },
      { at: '2026-11-18T10:00:00Z' },
      { at: '2026-11-18T11:00:00Z' },
      { at: '2026-11-18T12:00:00Z' },
    ]);
    const compared = (answer: { tags: { name: string; compared?: unknown }[] }) =>
      answer.tags.map((t) => [t.name, t.compared]);
    const answer = await byTag('&compare=previous');
    // ads: Sale's 1 and Push's 4 before, 5 now; spring: Sale's 1 before, 3 now.
    expect(compared(answer)).toEqual([
      ['ads', { current: 5, previous: 5, change: 0, trend: 'flat' }],
      ['spring', { current: 3, previous: 1, change: 200, trend: 'up' }],
    ]);
    expect((answer as unknown as { comparison: unknown }).comparison).toMatchObject({
      startDate: '2026-11-18',
      endDate: '2026-11-19',
      comparable: true,
    });
    expect(compared(await byTag('&compare=previous&utmSource=kakao'))).toEqual([
      ['ads', { current: 1, previous: 0, change: null, trend: 'new' }],
      ['spring', { current: 1, previous: 0, change: null, trend: 'new' }],
    ]);
    // Without the comparison, nothing of it.
    expect((await byTag()).tags.every((t) => !('compared' in t))).toBe(true);
  });

  it("filters the organization's dashboard by tag names, any case; an unknown name matches nothing", async () => {
    const spring = await overview('&tag=SPRING');
    expect(spring.total).toBe(3);
    expect(spring.meta.filters).toEqual({ tag: ['SPRING'] });
    expect(spring.topLinks.map((l: { label: string; count: number }) => [l.label, l.count])).toEqual([['Sale', 3]]);

    const ads = await overview('&tag=ads');
    expect(ads.total).toBe(5);
    expect(ads.topLinks.map((l: { label: string }) => l.label)).toEqual(['Sale', 'Push']);
    expect((await overview('&tag=spring,nothing-like-it')).total).toBe(3);
    expect((await overview('&tag=nothing-like-it')).total).toBe(0);
    // With another filter: both must hold.
    expect((await overview('&tag=ads&utmSource=kakao')).total).toBe(1);
    // The panel shows only the tags filtered.
    expect((await byTag('&tag=spring')).tags.map((t) => t.name)).toEqual(['spring']);
  });

  it('follows the tags links carry now: renamed, taken off, put on later, deleted', async () => {
    // Renamed: the same clicks under the new name; the old name is no tag any more.
    expect((await api('PUT', `/tags/${await tagId('spring')}`, { name: 'Spring sale' })).statusCode).toBe(200);
    expect(clicksOf(await byTag())).toEqual({ ads: 5, 'Spring sale': 3 });
    expect((await overview('&tag=spring%20sale')).total).toBe(3);
    expect((await overview('&tag=spring')).total).toBe(0);

    // Taken off the sale: its past clicks leave ads.
    expect((await api('PUT', `/urls/${saleId}`, { tags: ['Spring sale'] })).statusCode).toBe(200);
    expect(clicksOf(await byTag())).toEqual({ ads: 2, 'Spring sale': 3 });

    // Put on a link later: its past clicks join the tag.
    expect((await api('PUT', `/urls/${plainId}`, { tags: ['ads'] })).statusCode).toBe(200);
    expect(clicksOf(await byTag())).toEqual({ ads: 3, 'Spring sale': 3 });
    expect((await overview('&tag=ads')).total).toBe(3);

    // Deleted: gone from the panel and from the links.
    expect((await api('DELETE', `/tags/${await tagId('Spring sale')}`)).statusCode).toBe(204);
    const after = await byTag();
    expect(after.tags.map((t) => t.name)).toEqual(['ads']);
    expect((await overview('&tag=ads')).total).toBe(3);

    // A link deleted keeps no tag.
    expect((await api('DELETE', `/urls/${plainId}`)).statusCode).toBe(204);
    expect(clicksOf(await byTag())).toEqual({ ads: 2 });
  });

  it("shows one organization nothing of another's tags or clicks", async () => {
    const theirs = await byTag('', other.id, stranger);
    expect(theirs.tags.map((t) => [t.name, t.clicks])).toEqual([['ads', 3]]);
    const res = await get(`/organizations/${org.id}/dashboard/tags?${PERIOD}`, stranger);
    expect(res.statusCode).toBe(404);
  });

  it('refuses too many tag names with the field named', async () => {
    const names = Array.from({ length: 51 }, (_, i) => `t${i}`).join(',');
    const res = await get(`/organizations/${org.id}/dashboard/tags?${PERIOD}&tag=${names}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([expect.objectContaining({ field: 'tag' })]);
  });
});
