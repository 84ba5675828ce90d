// Importing links from Bitly, Shlink, Kutt, YOURLS, Dub and Rebrandly, each against a stand-in on
// loopback that answers as the service's API does (test/support/import-fixtures.ts): a job over
// several pages completes with the right counts, waits out a 429 with Retry-After, keeps titles and
// expiry; a second run imports nothing new; a refused token fails the job with a message; a job
// stopped after its first page resumes after a restart without duplicates (the six sources in one
// restart, their jobs running at once). Then the address guard and the refusals of a bad request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_LABELS, SOURCE_NAMES, type SourceName } from '../src/core/imports/import-source.js';
import { type ImportFixture, type SampleLink, startImportFixture } from './support/import-fixtures.js';
import { eventually, type Isolation, isolate, startService, type TestService } from './support/service.js';

// biome-ignore lint/suspicious/noExplicitAny: answers of the API and the job, read field by field.
type Json = Record<string, any>;

// Six jobs at once: one per source in the restart test.
const ENV = { IMPORT_ALLOW_INSECURE: '1', IMPORT_POLL_MS: '200', IMPORT_CONCURRENCY: '6' };
const TOKEN = 'fixture-token-0123456789';
/** The services whose links carry an expiry their API shows. */
const WITH_EXPIRY = new Set<SourceName>(['bitly', 'shlink', 'kutt', 'dub']);

let isolation: Isolation;
let svc: TestService;

beforeAll(async () => {
  isolation = await isolate();
  svc = await startService(isolation, ENV);
});

afterAll(async () => {
  await svc?.close();
  await isolation?.dispose();
});

function samples(prefix: string, count: number): SampleLink[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}${i + 1}`,
    code: `${prefix}-${i + 1}`,
    url: `https://example.com/${prefix}/${i + 1}`,
    title: i === 1 ? null : `Link ${i + 1}`,
    tags: i === 0 ? ['launch', 'q3'] : [],
    expiresAt: i === 0 ? '2031-01-02T03:04:05.000Z' : null,
    maxVisits: i === 0 ? 100 : null,
    createdAt: `2024-01-0${i + 1}T03:04:05.000Z`,
  }));
}

async function startImport(apiKey: string, body: Json): Promise<Json> {
  const res = await svc.service('POST', '/imports', apiKey, body);
  expect(res.statusCode, res.body).toBe(202);
  return res.json();
}

async function finished(apiKey: string, id: number): Promise<Json> {
  return eventually(
    async () => {
      const job = (await svc.service('GET', `/imports/${id}`, apiKey)).json() as Json;
      return ['completed', 'failed', 'cancelled'].includes(job.status) ? job : undefined;
    },
    20_000,
    `import job ${id} to end`,
  );
}

async function linksOf(apiKey: string): Promise<Json[]> {
  return ((await svc.service('GET', '/urls?size=100', apiKey)).json() as Json).content;
}

describe.each(SOURCE_NAMES)('importing from %s', (source) => {
  let fixture: ImportFixture;
  let org: { id: number; apiKey: string };
  // Five links over three pages, and a sixth whose code another link of the service already has.
  const links = samples(`${source}-i`, 6);
  const taken = links[5]!;

  beforeAll(async () => {
    fixture = await startImportFixture(source, TOKEN, links);
    org = await svc.createOrganization(`${source} importer`, 'BUSINESS');
    const other = await svc.createOrganization(`${source} other`);
    await svc.createLink(other, { url: 'https://example.org/first', customAlias: taken.code });
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('imports every page, waits out a 429, keeps codes, titles and expiry, and counts the alias taken as failed', async () => {
    fixture.rateLimitPage(2);
    const queued = await startImport(org.apiKey, { source, token: TOKEN, url: fixture.url });
    expect(queued).toMatchObject({ source, status: 'queued', imported: 0, url: `${fixture.url}/` });
    expect(JSON.stringify(queued)).not.toContain(TOKEN);

    const job = await finished(org.apiKey, queued.id);
    expect(job).toMatchObject({ status: 'completed', total: 6, imported: 5, skipped: 0, failed: 1, failure: null });
    expect(job.errors).toEqual([
      { sourceId: expect.any(String), message: expect.stringContaining(`alias ${taken.code} is already taken`) },
    ]);
    expect(job.startedAt).not.toBeNull();
    expect(job.finishedAt).not.toBeNull();
    expect(fixture.rateLimited).toBe(1);

    const mine = await linksOf(org.apiKey);
    expect(mine.map((l) => l.shortCode).sort()).toEqual(
      links
        .slice(0, 5)
        .map((l) => l.code)
        .sort(),
    );
    const first = mine.find((l) => l.shortCode === links[0]!.code)!;
    expect(first).toMatchObject({ originalUrl: links[0]!.url, title: 'Link 1' });
    expect(first.expiresAt).toBe(WITH_EXPIRY.has(source) ? links[0]!.expiresAt : null);
    expect(mine.find((l) => l.shortCode === links[1]!.code)).toMatchObject({ title: null, expiresAt: null });
  });

  it('imports nothing new the second time: what came before is skipped', async () => {
    const again = await finished(
      org.apiKey,
      (await startImport(org.apiKey, { source, token: TOKEN, url: fixture.url })).id,
    );
    expect(again).toMatchObject({ status: 'completed', imported: 0, skipped: 5, failed: 1 });
    expect(await linksOf(org.apiKey)).toHaveLength(5);
  });

  it('fails the job with a clear message when the token is refused', async () => {
    const refused = await finished(
      org.apiKey,
      (await startImport(org.apiKey, { source, token: 'wrong-token', url: fixture.url })).id,
    );
    expect(refused).toMatchObject({ status: 'failed', imported: 0 });
    expect(refused.failure).toMatch(new RegExp(`^the token was refused by ${SOURCE_LABELS[source]} \\(HTTP 40[13]`));
  });
});

/** The request for the first page of links, as each source asks for it. */
const SOURCE_PAGE_ONE: Record<SourceName, (request: string) => boolean> = {
  bitly: (r) => r.startsWith('/v4/groups/Bg1/bitlinks?size=100'),
  shlink: (r) => r.startsWith('/rest/v3/short-urls?page=1&'),
  kutt: (r) => r.startsWith('/api/v2/links?skip=0&'),
  yourls: (r) => r.includes('action=stats') && r.includes('start=0&'),
  dub: (r) => r.startsWith('/links?page=1&'),
  rebrandly: (r) => r.startsWith('/v1/links?') && !r.includes('last='),
};

// One restart for every source: the six jobs run at once, each held on its second page when the
// service stops, and each goes on after the start from its saved cursor.
describe('jobs stopped after their first page', () => {
  it('resume after a restart without duplicates, for every source', async () => {
    const held: { source: SourceName; resumable: SampleLink[]; slow: ImportFixture; release: () => void }[] = [];
    try {
      for (const source of SOURCE_NAMES) {
        const resumable = samples(`${source}-r`, 5);
        const slow = await startImportFixture(source, TOKEN, resumable);
        held.push({ source, resumable, slow, release: slow.holdPage(2) });
      }
      const started = [];
      for (const h of held) {
        const owner = await svc.createOrganization(`${h.source} resumer`, 'BUSINESS');
        const { id } = await startImport(owner.apiKey, { source: h.source, token: TOKEN, url: h.slow.url });
        started.push({ ...h, owner, id: id as number });
      }
      for (const s of started) {
        await s.slow.pageAsked(2);
        // The next page is read while the first is written: the first page's links land soon after.
        const mid = await eventually(async () => {
          const job = (await svc.service('GET', `/imports/${s.id}`, s.owner.apiKey)).json() as Json;
          return job.imported === 2 && job;
        });
        expect(mid, s.source).toMatchObject({ status: 'running', imported: 2 });
      }

      await svc.close();
      for (const s of started) s.release();
      svc = await startService(isolation, ENV);

      for (const s of started) {
        const job = await finished(s.owner.apiKey, s.id);
        expect(job, s.source).toMatchObject({ status: 'completed', imported: 5, skipped: 0, failed: 0 });
        const codes = (await linksOf(s.owner.apiKey)).map((l) => l.shortCode).sort();
        expect(codes, s.source).toEqual(s.resumable.map((l) => l.code).sort());
        // The first page was read once: the restart went on from the saved cursor.
        const firstPages = s.slow.requests.filter((r) => SOURCE_PAGE_ONE[s.source](r));
        expect(firstPages, s.source).toHaveLength(1);
      }
    } finally {
      for (const h of held) await h.slow.close();
    }
  }, 60_000);
});

/** A new organization named `name` that ran one import of `links` from a stand-in of `source`: its key and the finished job. */
async function importedBy(name: string, source: SourceName, links: SampleLink[]) {
  const fixture = await startImportFixture(source, TOKEN, links);
  try {
    const org = await svc.createOrganization(name);
    const job = await finished(
      org.apiKey,
      (await startImport(org.apiKey, { source, token: TOKEN, url: fixture.url })).id,
    );
    return { apiKey: org.apiKey, job };
  } finally {
    await fixture.close();
  }
}

describe('a Dub link behind a password', () => {
  it('is imported asking for the same password, which Dub gives out', async () => {
    const [open, locked] = samples('dub-p', 2);
    const { apiKey, job } = await importedBy('dub locked importer', 'dub', [open!, { ...locked!, password: true }]);
    expect(job).toMatchObject({ status: 'completed', imported: 2, failed: 0 });
    const copy = (await linksOf(apiKey)).find((l) => l.shortCode === locked!.code);
    expect(copy).toMatchObject({ passwordProtected: true });
    expect(JSON.stringify(copy)).not.toContain('hunter2');
    const visit = (form?: string) =>
      svc.inject({
        method: form ? 'POST' : 'GET',
        url: `/${locked!.code}`,
        ...(form ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form } : {}),
      });
    const asked = await visit();
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('name="password"');
    expect(asked.body).not.toContain(locked!.url);
    expect((await visit('password=nope')).statusCode).toBe(401);
    const right = await visit('password=hunter2');
    expect(right.statusCode).toBe(302);
    expect(right.headers.location).toBe(locked!.url);
    // The open link stays open.
    expect((await svc.inject({ method: 'GET', url: `/${open!.code}` })).headers.location).toBe(open!.url);
  });
});

describe('a Dub link with conversion tracking', () => {
  it('keeps it: its clicks carry a click id to the destination', async () => {
    const [tracked, plain] = samples('dub-t', 2);
    const { apiKey, job } = await importedBy('dub tracking importer', 'dub', [
      { ...tracked!, trackConversion: true },
      plain!,
    ]);
    expect(job).toMatchObject({ status: 'completed', imported: 2, failed: 0 });
    const links = await linksOf(apiKey);
    expect(links.find((l) => l.shortCode === tracked!.code)).toMatchObject({ conversionTracking: true });
    expect(links.find((l) => l.shortCode === plain!.code)).toMatchObject({ conversionTracking: false });
    const to = new URL(String((await svc.inject({ method: 'GET', url: `/${tracked!.code}` })).headers.location));
    expect(to.searchParams.get('signpost_token')).toMatch(/^w1\./);
  });
});

describe('a Kutt link behind a password', () => {
  it('is not imported, so that its destination does not open to everyone', async () => {
    const [open, locked] = samples('kutt-p', 2);
    const { apiKey, job } = await importedBy('kutt locked importer', 'kutt', [open!, { ...locked!, password: true }]);
    expect(job).toMatchObject({ status: 'completed', imported: 1, failed: 1 });
    expect(job.errors[0].message).toContain('asks for a password');
    expect((await linksOf(apiKey)).map((l) => l.shortCode)).toEqual([open!.code]);
  });
});

describe('the address and the request', () => {
  let org: { id: number; apiKey: string };
  beforeAll(async () => {
    org = await svc.createOrganization('Refused importer');
  });

  it('refuses a private address or a local name, even where loopback is allowed for tests', async () => {
    const res = await svc.service('POST', '/imports', org.apiKey, {
      source: 'shlink',
      token: TOKEN,
      url: 'https://10.1.2.3',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      status: 400,
      details: [{ field: 'url', message: expect.stringContaining('private address, which imports may not reach') }],
    });
    // A local name too, up front, whatever it resolves to (as webhooks and link destinations).
    for (const url of ['https://shlink.internal', 'https://nas.home.arpa', 'https://kutt.lan']) {
      const local = await svc.service('POST', '/imports', org.apiKey, { source: 'shlink', token: TOKEN, url });
      expect(local.statusCode, url).toBe(400);
      expect(local.json().details).toEqual([{ field: 'url', message: expect.stringContaining('names a local host') }]);
    }
    expect((await svc.service('GET', '/imports', org.apiKey)).json().content).toEqual([]);
  });

  it('asks for the address of a self-hosted service, and refuses an unknown source', async () => {
    const noUrl = await svc.service('POST', '/imports', org.apiKey, { source: 'yourls', token: TOKEN });
    expect(noUrl.statusCode).toBe(400);
    expect(noUrl.json().details).toEqual([
      { field: 'url', message: expect.stringContaining('YOURLS runs on your own server') },
    ]);
    const unknown = await svc.service('POST', '/imports', org.apiKey, { source: 'tinyurl', token: TOKEN });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details[0].field).toBe('source');
  });

  it("answers 404 for another organization's job, and cancels a queued job", async () => {
    const fixture = await startImportFixture('shlink', TOKEN, samples('cancel', 3));
    try {
      const release = fixture.holdPage(1);
      const { id } = await startImport(org.apiKey, { source: 'shlink', token: TOKEN, url: fixture.url });
      const other = await svc.createOrganization('Other importer');
      expect((await svc.service('GET', `/imports/${id}`, other.apiKey)).statusCode).toBe(404);
      expect((await svc.service('POST', `/imports/${id}/cancel`, other.apiKey)).statusCode).toBe(404);
      const cancelled = await svc.service('POST', `/imports/${id}/cancel`, org.apiKey);
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json()).toMatchObject({ id, status: 'cancelled' });
      release();
      const list = (await svc.service('GET', '/imports', org.apiKey)).json() as Json;
      expect(list.content.map((j: Json) => j.id)).toContain(id);
      // The page let go after the cancel is not written.
      await new Promise((r) => setTimeout(r, 500));
      expect((await svc.service('GET', `/imports/${id}`, org.apiKey)).json()).toMatchObject({
        status: 'cancelled',
        imported: 0,
      });
      expect(await linksOf(org.apiKey)).toEqual([]);
    } finally {
      await fixture.close();
    }
  });
});
