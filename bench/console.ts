// npm run bench:console [-- --clicks 10000000] [--runs 7]
//
// The console's dashboards at volume, as a person waits for them: the bench:stats clicks loaded
// into the embedded ClickHouse, the service listening on loopback, a member signed in, and
// Chromium (playwright-core, the browser the tests use: test/support/chromium.ts) opening the
// organization's dashboard and the busy link's page until every panel shows. Prints, per page, the
// median and worst time to all panels over the runs, and the console API call behind it (one query
// answers every panel of a click dashboard; a campaign page adds its revenue call).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createContainer } from '../src/container.js';
import { loadConfig } from '../src/shared/config.js';
import { createLogger } from '../src/shared/logger.js';
import { launchChromium } from '../test/support/chromium.js';
import { seedClicks } from './seed-clicks.js';

const { values: args } = parseArgs({
  options: {
    clicks: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '7' },
  },
});
const total = Number(args.clicks);
const runs = Number(args.runs);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-console-bench-'));
const ADMIN = 'bench-admin-token-0123456789abcdefghij';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const port = 18_000 + Math.floor(Math.random() * 1000);
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
  const browser = await launchChromium();
  try {
    await container.listen();
    const call = async (method: string, url: string, body: unknown, headers: Record<string, string>) =>
      (
        await fetch(`${base}${url}`, {
          method,
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        })
      ).json() as Promise<Record<string, unknown>>;
    const admin = { authorization: `Bearer ${ADMIN}` };
    const org = await call('POST', '/api/admin/v1/organizations', { name: 'ConsoleBench', plan: 'ENTERPRISE' }, admin);
    const key = { 'x-api-key': org.apiKey as string };
    const busy = await call('POST', '/api/v1/service/urls', { url: 'https://example.com/busy' }, key);
    const quiet = await call('POST', '/api/v1/service/urls', { url: 'https://example.com/quiet' }, key);
    const campaign = await call(
      'POST',
      '/api/v1/service/campaigns',
      { name: 'Busy campaign', originalUrl: 'https://example.com/c' },
      key,
    );
    const started = Date.now();
    await seedClicks(
      container,
      { org: org.id as number, busy: busy.id as number, quiet: quiet.id as number, campaign: campaign.id as number },
      total,
    );
    console.log(`loaded ${total.toLocaleString()} clicks in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await call(
      'POST',
      `/api/admin/v1/organizations/${org.id}/members`,
      { email: 'bench@example.com', role: 'analyst' },
      admin,
    );

    const pages = [
      ['organization dashboard, 30 days', '/console/dashboard', '/dashboard?'],
      ['organization dashboard, KR + mobile', '/console/dashboard?country=KR&deviceType=mobile', '/dashboard?'],
      ['busy link page, 30 days', `/console/stats/urls/${busy.id}`, `/dashboard/urls/${busy.id}?`],
      [
        'busy link page, KR + mobile',
        `/console/stats/urls/${busy.id}?country=KR&deviceType=mobile`,
        `/dashboard/urls/${busy.id}?`,
      ],
      [
        'busy campaign page, 30 days',
        `/console/stats/campaigns/${campaign.id}`,
        `/dashboard/campaigns/${campaign.id}?`,
      ],
    ] as const;
    console.log(`${'page'.padEnd(34)} ${'all panels (median / worst)'.padEnd(30)} console API call (median)`);
    for (const [label, pagePath, apiPart] of pages) {
      const ready: number[] = [];
      const api: number[] = [];
      for (let run = 0; run < runs; run++) {
        const ctx = await browser.newContext({ locale: 'ko-KR', timezoneId: 'Asia/Seoul' });
        const page = await ctx.newPage();
        const link = (await call('POST', '/api/admin/v1/login-links', { email: 'bench@example.com' }, admin))
          .url as string;
        await page.goto(link);
        await page.waitForSelector('nav');
        const t0 = Date.now();
        await page.goto(`${base}${pagePath}`);
        await page.getByTestId('total').waitFor();
        await page.getByTestId('daily-table').waitFor({ state: 'attached' });
        ready.push(Date.now() - t0);
        const timing = await page.evaluate(
          `performance.getEntriesByType('resource').filter((e) => e.name.includes(${JSON.stringify(apiPart)})).map((e) => e.duration)`,
        );
        const durations = timing as number[];
        if (durations[0] !== undefined) api.push(durations[0]);
        await ctx.close();
      }
      console.log(
        `${label.padEnd(34)} ${`${median(ready)} ms / ${Math.max(...ready)} ms`.padEnd(30)} ${api.length ? `${median(api).toFixed(0)} ms` : '—'}`,
      );
    }
  } finally {
    await browser.close();
    await container.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
