// A CSV file as an import job (POST /imports/csv): 25,000 rows, stopped by a restart part-way
// and resumed from the saved row, complete with the right counts and every link once; the refused
// rows are named by their row number; the same file again imports nothing new; a file the job
// cannot take is refused at once. The one-call import's refusal of a larger file is in
// test/link-bulk.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/error-body.js';
import { eventually, serviceForFile } from './support/service.js';

// biome-ignore lint/suspicious/noExplicitAny: answers of the API and the job, read field by field.
type Json = Record<string, any>;

const ROWS = 25_000;
const svc = serviceForFile({ IMPORT_POLL_MS: '200' });

const startCsvJob = (apiKey: string, csv: string, query = '') =>
  svc.inject({
    method: 'POST',
    url: `/api/v1/service/imports/csv${query}`,
    headers: { 'x-api-key': apiKey, 'content-type': 'text/csv' },
    payload: csv,
  });

const job = async (apiKey: string, id: number) => (await svc.service('GET', `/imports/${id}`, apiKey)).json() as Json;

const finished = (apiKey: string, id: number) =>
  eventually(
    async () => {
      const j = await job(apiKey, id);
      return ['completed', 'failed', 'cancelled'].includes(j.status) ? j : undefined;
    },
    120_000,
    `CSV job ${id} to end`,
  );

const linkCount = async (apiKey: string) =>
  ((await svc.service('GET', '/urls?size=1', apiKey)).json() as Json).totalElements as number;

/** The refused rows: 3 (an alias another organization has), 7, 12,345 and 20,000. */
const BAD: Record<number, { cells: string; message: string }> = {
  3: { cells: 'https://example.com/c/3,csv-taken,,,', message: 'the alias csv-taken is already taken' },
  7: { cells: 'ftp://example.com/c/7,,,,', message: 'the destination ftp://example.com/c/7' },
  12345: { cells: ',,Only a title,,', message: 'it has no originalUrl' },
  20000: { cells: 'https://example.com/c/20000,,,,someday', message: 'expirationDate someday is not a date' },
};

/** Every 1,000th row has an alias and tags; the others only a URL and a title. */
function csvFile(): string {
  const lines = ['originalUrl,customAlias,title,tags,expirationDate'];
  for (let row = 1; row <= ROWS; row++) {
    const bad = BAD[row];
    if (bad) lines.push(bad.cells);
    else if (row % 1000 === 0) lines.push(`https://example.com/c/${row},csv-a-${row},Row ${row},big|csv,2099-01-31`);
    else lines.push(`https://example.com/c/${row},,Row ${row},,`);
  }
  return `${lines.join('\n')}\n`;
}

describe('a CSV import job', () => {
  const csv = csvFile();
  let org: { id: number; apiKey: string };
  let first: Json;

  beforeAll(async () => {
    org = await svc.createOrganization('CSV importer', 'BUSINESS');
    const other = await svc.createOrganization('CSV other');
    await svc.createLink(other, { url: 'https://example.org/taken', customAlias: 'csv-taken' });
  });

  it('resumes after a restart part-way and completes with the right counts, each link once', async () => {
    const res = await startCsvJob(org.apiKey, csv, '?fileName=links.csv');
    expect(res.statusCode, res.body).toBe(202);
    const queued = res.json() as Json;
    expect(queued).toMatchObject({ source: 'csv', url: 'links.csv', status: 'queued', total: ROWS, imported: 0 });

    // Stopped while the job is under way: the pages saved stand, the next claim goes on after them.
    const mid = await eventually(
      async () => {
        const j = await job(org.apiKey, queued.id);
        return j.imported >= 2000 ? j : undefined;
      },
      60_000,
      'the job to be under way',
    );
    await svc.restart();
    expect(mid.status).toBe('running');

    first = await finished(org.apiKey, queued.id);
    expect(first).toMatchObject({ status: 'completed', total: ROWS, imported: ROWS - 4, skipped: 0, failed: 4 });
    expect(await linkCount(org.apiKey)).toBe(ROWS - 4);
    const aliased = (await svc.service('GET', '/urls?size=100&tag=big', org.apiKey)).json() as Json;
    // Row 20,000 is one of the refused.
    expect(aliased.totalElements).toBe(ROWS / 1000 - 1);
    expect(aliased.content.find((l: Json) => l.shortCode === 'csv-a-5000')).toMatchObject({
      originalUrl: 'https://example.com/c/5000',
      title: 'Row 5000',
      tags: ['big', 'csv'],
      expiresAt: '2099-01-31T00:00:00.000Z',
    });
  }, 180_000);

  it('names each refused row by its number', () => {
    expect(first.errors.map((e: Json) => e.row)).toEqual([3, 7, 12_345, 20_000]);
    for (const e of first.errors) expect(e.message).toContain(BAD[e.row]!.message);
  });

  it('imports nothing new from the same file again', async () => {
    const res = await startCsvJob(org.apiKey, csv);
    expect(res.statusCode, res.body).toBe(202);
    const again = await finished(org.apiKey, (res.json() as Json).id);
    expect(again).toMatchObject({ status: 'completed', imported: 0, skipped: ROWS - 4, failed: 4 });
    expect(await linkCount(org.apiKey)).toBe(ROWS - 4);
  }, 120_000);

  it('refuses a file without a URL column or rows, and one of more than 500,000 rows', async () => {
    const { apiKey } = await svc.createOrganization('CSV refused');
    const noUrl = expectError(await startCsvJob(apiKey, 'title\nHello\n'), 400, { code: 'VALIDATION_FAILED' });
    expect(noUrl.message).toContain('no originalUrl, url or long_url column');
    expectError(await startCsvJob(apiKey, 'url\n'), 400);
    const big = `url\n${'https://example.com/x\n'.repeat(500_001)}`;
    const tooMany = expectError(await startCsvJob(apiKey, big), 400);
    expect(tooMany.message).toContain('has 500,001 rows; an import job takes at most 500,000');
    expect(((await svc.service('GET', '/imports', apiKey)).json() as Json).totalElements).toBe(0);
  }, 60_000);
});
