// npm run bench:links [-- --runs 5] [--json bench/results/links.json]
// npm run bench:import [-- --rows 100000] [--json bench/results/import.json]
//
// Link management at the sizes people use it: the service on the embedded stores, listening on
// loopback, and per run
// - 1,000 short URLs with two tags each in one POST /api/v1/service/urls/bulk, against the same
//   1,000 made one POST /api/v1/service/urls at a time (the reference: what a client without the
//   bulk call does), 16 requests in flight;
// - a 10,000-row CSV through POST /api/v1/service/urls/import;
// - the CSV export of every link made so far.
// Prints each run and the medians, and writes them as JSON.
// With --import-job (bench:import): once, 1,000 short URLs in one POST /urls/bulk, then a CSV of
// --rows rows as an import job (POST /api/v1/service/imports/csv), timed from the upload to the
// job's end as polled every 100 ms: rows per second, seconds, and the CPU time of this process over
// the job (the embedded stores run in it, so that counts the job's whole work and varies less than
// the clock on a shared machine).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createContainer } from '../src/container.js';
import { loadConfig } from '../src/shared/config.js';
import { createLogger } from '../src/shared/logger.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    json: { type: 'string' },
    'import-job': { type: 'boolean', default: false },
    rows: { type: 'string', default: '100000' },
  },
});
const runs = Number(args.runs);
const jsonFile = args.json ?? (args['import-job'] ? 'bench/results/import.json' : 'bench/results/links.json');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-links-bench-'));
const ADMIN = 'bench-admin-token-0123456789abcdefghij';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (since: number) => performance.now() - since;

async function main(): Promise<void> {
  const port = 19_000 + Math.floor(Math.random() * 1000);
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SIGNPOST_ADMIN_TOKEN: ADMIN,
    PII_ENCRYPTION_KEY: `k1:${'ab'.repeat(32)}`,
  });
  const container = await createContainer(config, createLogger({ level: 'warn', pretty: false }));
  try {
    await container.listen();
    const request = async (method: string, url: string, body: string, headers: Record<string, string>) => {
      const res = await fetch(`${base}${url}`, { method, headers, body: method === 'GET' ? undefined : body });
      if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res.text();
    };
    const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
    const org = JSON.parse(
      await request('POST', '/api/admin/v1/organizations', JSON.stringify({ name: 'LinksBench' }), admin),
    ) as { apiKey: string };
    const json = { 'x-api-key': org.apiKey, 'content-type': 'application/json' };
    const items = (run: number, kind: string) =>
      Array.from({ length: 1000 }, (_, i) => ({
        url: `https://shop.example/${kind}/${run}/${i}`,
        tags: ['bench', `batch-${i % 10}`],
      }));
    if (args['import-job']) {
      writeSummary(await importJob(request, org.apiKey, JSON.stringify({ items: items(0, 'bulk') })));
      return;
    }

    const rows: Array<{ run: number; bulkMs: number; oneByOneMs: number; csvImportMs: number; exportMs: number }> = [];
    for (let run = 0; run < runs; run++) {
      let started = performance.now();
      const bulk = JSON.parse(
        await request('POST', '/api/v1/service/urls/bulk', JSON.stringify({ items: items(run, 'bulk') }), json),
      ) as { results: Array<{ error?: unknown }> };
      const bulkMs = ms(started);
      if (bulk.results.some((r) => r.error)) throw new Error('a bulk item was refused');

      started = performance.now();
      const queue = items(run, 'single');
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let item = queue.pop(); item; item = queue.pop())
            await request('POST', '/api/v1/service/urls', JSON.stringify(item), json);
        }),
      );
      const oneByOneMs = ms(started);

      const csv = [
        'originalUrl,title,tags',
        ...Array.from({ length: 10_000 }, (_, i) => `https://shop.example/csv/${run}/${i},Row ${i},bench|csv`),
      ].join('\n');
      started = performance.now();
      const imported = JSON.parse(
        await request('POST', '/api/v1/service/urls/import', csv, {
          'x-api-key': org.apiKey,
          'content-type': 'text/csv',
        }),
      ) as { created: number };
      const csvImportMs = ms(started);
      if (imported.created !== 10_000) throw new Error(`the import created ${imported.created} of 10,000`);

      started = performance.now();
      const exported = await request('GET', '/api/v1/service/urls/export', '', { 'x-api-key': org.apiKey });
      const exportMs = ms(started);
      const lines = exported.trimEnd().split('\r\n').length - 1;
      rows.push({ run: run + 1, bulkMs, oneByOneMs, csvImportMs, exportMs });
      console.log(
        `run ${run + 1}: bulk 1,000 ${bulkMs.toFixed(0)} ms, one by one ${oneByOneMs.toFixed(0)} ms ` +
          `(${(oneByOneMs / bulkMs).toFixed(1)}×), CSV import 10,000 ${csvImportMs.toFixed(0)} ms, ` +
          `export of ${lines.toLocaleString('en')} links ${exportMs.toFixed(0)} ms`,
      );
    }
    const summary = {
      runs,
      node: process.version,
      cpus: os.cpus().length,
      median: {
        bulkCreate1000Ms: median(rows.map((r) => r.bulkMs)),
        oneByOne1000Ms: median(rows.map((r) => r.oneByOneMs)),
        oneByOneOverBulk: median(rows.map((r) => r.oneByOneMs / r.bulkMs)),
        csvImport10000Ms: median(rows.map((r) => r.csvImportMs)),
        exportMs: median(rows.map((r) => r.exportMs)),
      },
      rows,
    };
    console.log(
      `median: bulk 1,000 ${summary.median.bulkCreate1000Ms.toFixed(0)} ms; one by one ` +
        `${summary.median.oneByOneOverBulk.toFixed(1)}× as long; CSV import 10,000 ${summary.median.csvImport10000Ms.toFixed(0)} ms`,
    );
    writeSummary(summary);
  } finally {
    await container.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function writeSummary(summary: object): void {
  fs.mkdirSync(path.dirname(jsonFile), { recursive: true });
  fs.writeFileSync(jsonFile, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`wrote ${jsonFile}`);
}

type Request = (method: string, url: string, body: string, headers: Record<string, string>) => Promise<string>;

/** One bulk create of 1,000, then a CSV of --rows rows as an import job, to its end. */
async function importJob(request: Request, apiKey: string, bulkBody: string) {
  const json = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  let started = performance.now();
  await request('POST', '/api/v1/service/urls/bulk', bulkBody, json);
  const bulkCreate1000Ms = ms(started);
  console.log(`bulk create of 1,000: ${bulkCreate1000Ms.toFixed(0)} ms`);

  const total = Number(args.rows);
  const csv = [
    'originalUrl,title,tags',
    ...Array.from({ length: total }, (_, i) => `https://shop.example/job/${i},Row ${i},bench|job-${i % 10}`),
  ].join('\n');
  started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const { id } = JSON.parse(
    await request('POST', '/api/v1/service/imports/csv', csv, { 'x-api-key': apiKey, 'content-type': 'text/csv' }),
  ) as { id: number };
  const uploadMs = ms(started);
  let job: { status: string; imported: number; failed: number };
  for (;;) {
    job = JSON.parse(await request('GET', `/api/v1/service/imports/${id}`, '', json)) as typeof job;
    if (!['queued', 'running'].includes(job.status)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = ms(started) / 1000;
  const used = process.cpuUsage(cpuAtStart);
  const cpuSeconds = (used.user + used.system) / 1e6;
  if (job.status !== 'completed' || job.imported !== total)
    throw new Error(`the job ended ${job.status} with ${job.imported} of ${total} imported, ${job.failed} failed`);
  const rowsPerSecond = total / seconds;
  console.log(
    `CSV import job of ${total.toLocaleString('en')} rows: ${seconds.toFixed(1)} s, ` +
      `${rowsPerSecond.toFixed(0)} rows/s, ${cpuSeconds.toFixed(1)} s of CPU (upload answered in ${uploadMs.toFixed(0)} ms)`,
  );
  return {
    node: process.version,
    cpus: os.cpus().length,
    rows: total,
    seconds,
    rowsPerSecond,
    cpuSeconds,
    uploadMs,
    bulkCreate1000Ms,
  };
}

await main();
