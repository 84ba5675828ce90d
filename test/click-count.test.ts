// clickCount on short URL and campaign records comes from ClickHouse totals: people's clicks only,
// visible within 5 s, on the record and in lists.
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually, serviceForFile } from './support/service.js';

let apiKey: string;

const svc = serviceForFile();

beforeAll(async () => {
  apiKey = (await svc.createOrganization('Counting', 'PRO')).apiKey;
});

const person = {
  'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Version/17.4 Safari/605.1.15',
};

async function visit(path: string, options: { method?: 'GET' | 'HEAD'; headers?: Record<string, string> } = {}) {
  const res = await svc.inject({ method: options.method ?? 'GET', url: path, headers: options.headers ?? person });
  expect([200, 302]).toContain(res.statusCode);
}

describe('clickCount', () => {
  it('counts people on a short URL within seconds, not HEAD requests or preview fetchers', async () => {
    const created = (
      await svc.service('POST', '/urls', apiKey, { url: 'https://example.com/count', customAlias: 'counted' })
    ).json();
    expect(created.clickCount).toBe(0);
    for (let i = 0; i < 3; i++) await visit('/counted');
    await visit('/counted', { method: 'HEAD' });
    await visit('/counted', { headers: { 'user-agent': 'facebookexternalhit/1.1' } });
    await visit('/counted', { headers: { 'user-agent': 'curl/8.5.0' } });

    const record = await eventually(
      async () => {
        const body = (await svc.service('GET', `/urls/${created.id}`, apiKey)).json();
        return body.clickCount === 3 ? body : undefined;
      },
      10_000,
      'clickCount 3',
    );
    expect(record.clickCount).toBe(3);

    // Everything has been written by now; the bot and HEAD visits stay out.
    expect(await svc.container.bus.drain(10_000)).toBe(true);
    expect((await svc.service('GET', `/urls/${created.id}`, apiKey)).json().clickCount).toBe(3);
    const list = (await svc.service('GET', '/urls?keyword=counted', apiKey)).json();
    expect(list.content.find((u: { id: number }) => u.id === created.id).clickCount).toBe(3);
  });

  it('counts campaign clicks whatever cid and tracker they carry', async () => {
    const created = (
      await svc.service('POST', '/campaigns', apiKey, {
        name: 'Counted',
        alias: 'counted-campaign',
        originalUrl: 'https://example.com/c',
      })
    ).json();
    expect(created.clickCount).toBe(0);
    await visit('/counted-campaign?cid=a&tracker=insta');
    await visit('/counted-campaign?cid=b');
    await eventually(
      async () => (await svc.service('GET', `/campaigns/${created.id}`, apiKey)).json().clickCount === 2,
      10_000,
      'campaign clickCount 2',
    );
    const list = (await svc.service('GET', '/campaigns?search=counted', apiKey)).json();
    expect(list.content.find((c: { id: number }) => c.id === created.id).clickCount).toBe(2);
  });
});
