// The organization's dashboards for links picked one by one (`url`, `campaign`: the Links list's
// "View statistics"): every figure, breakdown, CSV panel and the Tags panel count exactly those
// links' clicks, with the previous period alike; an id of another organization's link counts
// nothing; the set combines with the other filters; an id that is no id is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleCall, consoleMember } from './support/console-api.js';
import { recordClicks } from './support/recorded-clicks.js';
import { isolate, startService, type Isolation, type TestService } from './support/service.js';

interface Overview {
  meta: { filters: Record<string, unknown> };
  total: number;
  previousTotal: number;
  utm: { source: { name: string; count: number }[] };
  topLinks: { type: string; id: number; count: number }[];
  chosenLinks: { type: string; id: number; label: string }[];
  comparison: { total: { current: number; previous: number } | null } | null;
}

describe('dashboards of a chosen set of links', () => {
  let isolation: Isolation;
  let svc: TestService;
  let org: { id: number; apiKey: string };
  let owner: ConsoleCall;
  /** The organization's short URLs (one, two, three) and campaign (push), and the neighbour's link. */
  const id = { one: 0, two: 0, three: 0, push: 0, theirs: 0 };

  const PERIOD = 'startDate=2026-11-20&endDate=2026-11-21&timeZone=UTC';
  const get = (path: string) => owner('GET', `/organizations/${org.id}${path}`);
  async function overview(query: string): Promise<Overview> {
    const res = await get(`/dashboard?${PERIOD}&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  beforeAll(async () => {
    isolation = await isolate();
    svc = await startService(isolation);
    org = await svc.createOrganization('Chooser', 'ENTERPRISE');
    const other = await svc.createOrganization('Neighbour', 'ENTERPRISE');
    const base = svc.config.server.publicBaseUrl;
    owner = await consoleMember(svc, base, { organizationId: org.id, email: 'owner@set.example', role: 'owner' });
    id.one = (await svc.createLink(org, { url: 'https://example.com/one', title: 'One', tags: ['spring'] })).id;
    id.two = (await svc.createLink(org, { url: 'https://example.com/two', title: 'Two' })).id;
    id.three = (await svc.createLink(org, { url: 'https://example.com/three', title: 'Three', tags: ['spring'] })).id;
    id.push = (
      await svc.createCampaign(org, { name: 'Push', originalUrl: 'https://example.com/push', alias: 'push' })
    ).id;
    id.theirs = (await svc.createLink(other, { url: 'https://example.com/theirs', title: 'Theirs' })).id;
    await recordClicks(svc, org.id, 'url', id.one, [
      { at: '2026-11-20T09:00:00Z', utmSource: 'kakao' },
      { at: '2026-11-20T10:00:00Z' },
      { at: '2026-11-21T09:00:00Z' },
      // The previous period (2026-11-18 … 19).
      { at: '2026-11-19T09:00:00Z' },
    ]);
    await recordClicks(svc, org.id, 'url', id.two, [{ at: '2026-11-20T11:00:00Z' }, { at: '2026-11-21T11:00:00Z' }]);
    await recordClicks(svc, org.id, 'url', id.three, [
      { at: '2026-11-20T12:00:00Z', utmSource: 'naver' },
      { at: '2026-11-20T13:00:00Z', utmSource: 'naver' },
      { at: '2026-11-21T12:00:00Z' },
      { at: '2026-11-21T13:00:00Z' },
      { at: '2026-11-18T13:00:00Z' },
      { at: '2026-11-18T14:00:00Z' },
    ]);
    await recordClicks(svc, org.id, 'campaign', id.push, [{ at: '2026-11-21T15:00:00Z' }]);
    await recordClicks(svc, other.id, 'url', id.theirs, [
      { at: '2026-11-20T09:00:00Z', utmSource: 'kakao' },
      { at: '2026-11-20T09:30:00Z' },
      { at: '2026-11-21T09:45:00Z' },
    ]);
  });

  it("counts exactly the chosen links' clicks in every figure, the previous period's too", async () => {
    expect((await overview('')).total).toBe(10);
    const chosen = await overview(`url=${id.one},${id.two}&compare=previous`);
    expect(chosen.total).toBe(5);
    expect(chosen.previousTotal).toBe(1);
    expect(chosen.comparison?.total).toMatchObject({ current: 5, previous: 1 });
    expect(chosen.utm.source).toEqual([expect.objectContaining({ name: 'kakao', count: 1 })]);
    expect(chosen.topLinks.map((l) => [l.type, l.id, l.count])).toEqual([
      ['url', id.one, 3],
      ['url', id.two, 2],
    ]);
    expect(chosen.meta.filters).toEqual({ url: [id.one, id.two] });
    expect(chosen.chosenLinks.map((l) => [l.type, l.id, l.label])).toEqual([
      ['url', id.one, 'One'],
      ['url', id.two, 'Two'],
    ]);

    // A campaign with a short URL: either counts.
    const mixed = await overview(`url=${id.two}&campaign=${id.push}`);
    expect(mixed.total).toBe(3);
    expect(mixed.meta.filters).toEqual({ url: [id.two], campaign: [id.push] });
    expect(mixed.chosenLinks.map((l) => l.label)).toEqual(['Two', 'Push']);
  });

  it("counts nothing of another organization's link", async () => {
    const mixed = await overview(`url=${id.one},${id.theirs}`);
    expect(mixed.total).toBe(3);
    expect(mixed.utm.source).toEqual([expect.objectContaining({ name: 'kakao', count: 1 })]);
    expect(mixed.chosenLinks.map((l) => l.id)).toEqual([id.one]);
    const only = await overview(`url=${id.theirs}`);
    expect(only.total).toBe(0);
    expect(only.topLinks).toEqual([]);
    expect(only.chosenLinks).toEqual([]);
    expect(only.meta.filters).toEqual({ url: [id.theirs] });
  });

  it('combines with the tag and click filters, and in the CSV panels and the Tags panel', async () => {
    expect((await overview(`url=${id.one},${id.two}&tag=spring`)).total).toBe(3);
    // A click filter reads the raw clicks: the set narrows them alike.
    expect((await overview(`url=${id.one},${id.three}&utmSource=naver`)).total).toBe(2);
    expect((await overview(`url=${id.two}&utmSource=naver`)).total).toBe(0);

    const csv = await get(`/dashboard/export.csv?${PERIOD}&url=${id.one},${id.two}&panel=utmSource`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain('kakao');
    expect(csv.body).not.toContain('naver');

    const tags = await get(`/dashboard/tags?${PERIOD}&url=${id.one},${id.two}`);
    expect(tags.statusCode, tags.body).toBe(200);
    expect(tags.json().meta.filters).toEqual({ url: [id.one, id.two] });
    expect(tags.json().tags.map((t: { name: string; clicks: number }) => [t.name, t.clicks])).toEqual([['spring', 3]]);
  });

  it('refuses an id that is no id, and more than 100 links', async () => {
    const wrong = await get(`/dashboard?${PERIOD}&url=${id.one},abc`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ status: 400, error: expect.any(String), timestamp: expect.any(String) });
    expect(wrong.json().details).toEqual([{ field: 'url', message: expect.stringContaining('abc') }]);
    const negative = await get(`/dashboard/export.csv?${PERIOD}&panel=daily&campaign=-1`);
    expect(negative.statusCode).toBe(400);
    expect(negative.json().details).toEqual([{ field: 'campaign', message: expect.any(String) }]);
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    const tooMany = await get(`/dashboard?${PERIOD}&url=${many}`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().details).toEqual([{ field: 'url', message: expect.stringContaining('100') }]);
  });
});
