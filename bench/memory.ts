// npm run bench:memory [-- --duration 120] [--idle 30] [--sample 5] [--rate 2000] [--journey-rate 100]
//   [--compare] [--json bench/results/memory.json]
//
// What the service holds in memory on the embedded defaults (PGlite, chDB, the in-process bus),
// as a self-hoster's small machine sees it: starts the built service (`node dist/main.js`, built
// first when a source is newer) on a fresh data directory, reads its resident set (VmRSS of
// /proc/<pid>/status) after --idle seconds, then drives a mixed load for --duration seconds and
// samples the resident set every --sample seconds:
// - redirects of 20 links, --rate per second (16 requests in flight at most);
// - journey events of a mobile app, --journey-rate per second, a new session every 20 events;
// - statistics, one request at a time with a second between them: a link's 30 days, its year in
//   Asia/Seoul, and the journey dashboard's year; their p50 is printed.
// It prints the resident set idle, the largest and the last under load, --idle seconds after it,
// and how the last one splits (V8's heap and external memory from /metrics, file-backed and
// anonymous pages from /proc, chDB's tracked memory and caches from its system.metrics).
// --compare first runs the same with the embedded engines' own memory settings (what the service
// used before it sized them: CLICKHOUSE_EMBEDDED_* and PGLITE_* set to the engines' defaults),
// then on today's defaults, and prints both and the statistics' p50 ratio.
// Settings of the service (CLICKHOUSE_EMBEDDED_*, PGLITE_*, LINK_CACHE_*), glibc's MALLOC_* and
// NODE_OPTIONS pass through from the environment, so the effect of each can be measured.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '120' },
    idle: { type: 'string', default: '30' },
    sample: { type: 'string', default: '5' },
    rate: { type: 'string', default: '2000' },
    'journey-rate': { type: 'string', default: '100' },
    compare: { type: 'boolean', default: false },
    json: { type: 'string', default: 'bench/results/memory.json' },
    port: { type: 'string', default: '18480' },
  },
});
const ADMIN = 'bench-admin-token-0123456789abcdefghij';
const base = `http://127.0.0.1:${args.port}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (bytes: number) => Math.round(bytes / 1048576);

/**
 * The engines' own values of the settings the service sizes (chDB's server defaults, PGlite's
 * postgresql.conf): the service as it ran before them.
 */
const ENGINE_DEFAULTS: Record<string, string> = {
  CLICKHOUSE_EMBEDDED_MARK_CACHE_MB: String(5 * 1024),
  CLICKHOUSE_EMBEDDED_INDEX_CACHE_MB: String(5 * 1024),
  CLICKHOUSE_EMBEDDED_MAX_MEMORY_MB: '0',
  PGLITE_SHARED_BUFFERS_MB: '128',
};

interface Rss {
  total: number;
  anon: number;
  file: number;
}

function rss(pid: number): Rss {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { total: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
}

async function metrics(): Promise<{ heap: number; heapUsed: number; external: number; spaces: string }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const spaces = [...text.matchAll(/^nodejs_heap_space_size_total_bytes\{space="(\w+)"\} (\S+)$/gm)]
    .filter((m) => Number(m[2]) > 1048576)
    .map((m) => `${m[1]} ${mib(Number(m[2]))}`)
    .join(', ');
  return {
    heap: value('nodejs_heap_size_total_bytes'),
    heapUsed: value('nodejs_heap_size_used_bytes'),
    external: value('nodejs_external_memory_bytes'),
    spaces,
  };
}

/** chDB's own account of its memory: what it tracks in all, and its caches (MiB). */
async function chdbMemory(): Promise<Record<string, number>> {
  const res = await fetch(`${base}/api/admin/v1/sql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      query:
        "SELECT metric, value FROM system.metrics WHERE metric IN ('MemoryTracking', 'MarkCacheBytes', 'PrimaryIndexCacheBytes', 'IndexMarkCacheBytes', 'UncompressedCacheBytes', 'QueryConditionCacheBytes', 'CompiledExpressionCacheBytes', 'MMapCacheCells')",
    }),
  });
  const rows = (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { metric: string; value: string });
  return Object.fromEntries(
    rows.map((r) => [r.metric, r.metric.endsWith('Cells') ? Number(r.value) : mib(Number(r.value))]),
  );
}

async function call(method: string, url: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

async function waitHealthy(child: ChildProcess): Promise<void> {
  for (let i = 0; i < 480; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await sleep(250);
  }
  throw new Error('the service did not become healthy');
}

/** Runs `task` about `perSecond` times a second, at most `inFlight` at once, until `until`. */
async function paced(perSecond: number, inFlight: number, until: number, task: () => Promise<void>) {
  const interval = 1000 / perSecond;
  let next = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (Date.now() < until) {
        const wait = next - performance.now();
        next = Math.max(next, performance.now() - 1000) + interval;
        if (wait > 0) await sleep(wait);
        await task();
      }
    }),
  );
}

interface Result {
  label: string;
  idle: Rss & { heap: number; heapUsed: number; external: number };
  maxUnderLoad: number;
  finalUnderLoad: Rss & { heap: number; heapUsed: number; external: number };
  samples: Array<{ s: number; rss: number }>;
  redirects: number;
  journeyEvents: number;
  statsP50Ms: Record<string, number>;
  chdb: Record<string, number>;
  afterLoad: number;
  errors: number;
}

async function measure(label: string, extraEnv: Record<string, string>): Promise<Result> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-memory-bench-'));
  const passThrough = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) =>
        k.startsWith('CLICKHOUSE_EMBEDDED_') ||
        k.startsWith('PGLITE_') ||
        k.startsWith('LINK_CACHE_') ||
        k.startsWith('MALLOC_') ||
        k === 'NODE_OPTIONS',
    ),
  ) as Record<string, string>;
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: args.port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SIGNPOST_ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      PII_ENCRYPTION_KEY: `k1:${'ab'.repeat(32)}`,
      // The journey events come from one app: let it send them at the rate asked.
      SDK_RATE_LIMIT_PER_SECOND: '100000',
      ...passThrough,
      ...extraEnv,
    },
  });
  try {
    await waitHealthy(child);
    const pid = child.pid!;
    await sleep(Number(args.idle) * 1000);
    const idle = { ...rss(pid), ...(await metrics()) };
    console.log(
      `${label}: idle after ${args.idle} s  RSS ${mib(idle.total)} MiB (anonymous ${mib(idle.anon)}, files ${mib(idle.file)}; V8 heap ${mib(idle.heap)}, external ${mib(idle.external)})`,
    );

    const admin = { authorization: `Bearer ${ADMIN}` };
    const org = await call('POST', '/api/admin/v1/organizations', admin, { name: 'MemoryBench', plan: 'ENTERPRISE' });
    const key = { 'x-api-key': org.apiKey as string };
    const links: Array<{ id: number; code: string }> = [];
    for (let i = 0; i < 20; i++) {
      const link = await call('POST', '/api/v1/service/urls', key, { url: `https://example.com/landing/${i}` });
      links.push({ id: link.id as number, code: link.shortCode as string });
    }
    const app = await call('POST', '/api/v1/service/mobile-apps', key, {
      platform: 'IOS',
      appName: 'Bench',
      bundleId: 'com.example.bench',
      scheme: 'bench://',
    });
    const sdk = { 'x-app-id': String(app.id), 'x-mobile-app-api-key': app.apiKey as string };
    const busy = links[0]!.id;
    const year = `startDate=${new Date(Date.now() - 364 * 86400_000).toISOString().slice(0, 10)}&timeZone=Asia/Seoul`;
    const statistics = [
      ['link, 30 days', `/api/v1/service/urls/${busy}/stats`],
      ['link, 365 days, Seoul', `/api/v1/service/urls/${busy}/stats?${year}`],
      ['journey dashboard, 365 days, Seoul', `/api/v1/cross-platform/stats/dashboard?${year}`],
    ] as const;

    const started = Date.now();
    const until = started + Number(args.duration) * 1000;
    let redirects = 0;
    let journeyEvents = 0;
    let errors = 0;
    const times = new Map<string, number[]>(statistics.map(([name]) => [name, []]));
    const samples: Result['samples'] = [];
    let maxUnderLoad = 0;
    const sampler = setInterval(() => {
      const now = rss(pid).total;
      maxUnderLoad = Math.max(maxUnderLoad, now);
      samples.push({ s: Math.round((Date.now() - started) / 1000), rss: mib(now) });
    }, Number(args.sample) * 1000);
    const redirect = async () => {
      const link = links[Math.floor(Math.random() * links.length)]!;
      const res = await fetch(`${base}/${link.code}`, { redirect: 'manual' });
      await res.arrayBuffer();
      if (res.status === 302) redirects++;
      else errors++;
    };
    let sessionId = '';
    let inSession = 0;
    const journeyEvent = async () => {
      try {
        if (!sessionId || inSession >= 20) {
          inSession = 0;
          sessionId = (await call('POST', '/api/v1/cross-platform/session/create', sdk, { platform: 'IOS' }))
            .sessionId as string;
        }
        inSession++;
        await call('POST', '/api/v1/cross-platform/session/event', sdk, {
          sessionId,
          eventType: ['page_view', 'click', 'add_to_cart'][journeyEvents % 3],
          properties: { path: `/items/${journeyEvents % 50}` },
        });
        journeyEvents++;
      } catch {
        errors++;
      }
    };
    const statsLoop = async () => {
      for (let i = 0; Date.now() < until; i++) {
        const [name, url] = statistics[i % statistics.length]!;
        const t0 = performance.now();
        const res = await fetch(`${base}${url}`, { headers: key });
        await res.arrayBuffer();
        if (res.status === 200) times.get(name)!.push(performance.now() - t0);
        else errors++;
        await sleep(1000);
      }
    };
    await Promise.all([
      paced(Number(args.rate), 16, until, redirect),
      paced(Number(args['journey-rate']), 4, until, journeyEvent),
      statsLoop(),
    ]);
    clearInterval(sampler);
    const finalUnderLoad = { ...rss(pid), ...(await metrics()) };
    maxUnderLoad = Math.max(maxUnderLoad, finalUnderLoad.total);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
    const statsP50Ms = Object.fromEntries([...times].map(([name, xs]) => [name, Math.round(median(xs) * 10) / 10]));
    console.log(`  RSS every ${args.sample} s under load (MiB): ${samples.map((s) => s.rss).join(' ')}`);
    console.log(
      `  under load for ${args.duration} s: ${redirects} redirects, ${journeyEvents} journey events, ${errors} errors`,
    );
    console.log(
      `  RSS under load: max ${mib(maxUnderLoad)} MiB, last ${mib(finalUnderLoad.total)} MiB (anonymous ${mib(finalUnderLoad.anon)}, files ${mib(finalUnderLoad.file)}; V8 heap ${mib(finalUnderLoad.heap)} (${finalUnderLoad.spaces}; in use ${mib(finalUnderLoad.heapUsed)}), external ${mib(finalUnderLoad.external)})`,
    );
    const chdb = await chdbMemory();
    // What stays once the load has stopped: memory kept, against memory not yet given back.
    await sleep(Number(args.idle) * 1000);
    const afterLoad = { ...rss(pid), ...(await metrics()) };
    console.log(
      `  ${args.idle} s after the load: RSS ${mib(afterLoad.total)} MiB (anonymous ${mib(afterLoad.anon)}; V8 heap ${mib(afterLoad.heap)}, in use ${mib(afterLoad.heapUsed)}, external ${mib(afterLoad.external)})`,
    );
    console.log(
      `  chDB (MiB): ${Object.entries(chdb)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    console.log(
      `  statistics p50: ${Object.entries(statsP50Ms)
        .map(([name, ms]) => `${name} ${ms} ms`)
        .join(', ')}`,
    );
    return {
      label,
      idle,
      maxUnderLoad,
      finalUnderLoad,
      samples,
      redirects,
      journeyEvents,
      statsP50Ms,
      chdb,
      afterLoad: afterLoad.total,
      errors,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');
  console.log(
    `Signpost memory benchmark: embedded PGlite + chDB + in-process bus, ${os.cpus().length} cores, ${mib(os.totalmem())} MiB; load: ${args.rate} redirects/s, ${args['journey-rate']} journey events/s, a statistics request a second`,
  );
  const results: Result[] = [];
  if (args.compare) results.push(await measure("engines' own settings", ENGINE_DEFAULTS));
  results.push(await measure('defaults', {}));
  if (results.length === 2) {
    const [before, after] = results as [Result, Result];
    console.log('\n| | idle | max under load | last under load |');
    console.log('|---|---|---|---|');
    for (const r of results)
      console.log(
        `| ${r.label} | ${mib(r.idle.total)} MiB | ${mib(r.maxUnderLoad)} MiB | ${mib(r.finalUnderLoad.total)} MiB |`,
      );
    for (const name of Object.keys(after.statsP50Ms))
      console.log(
        `statistics p50, ${name}: ${before.statsP50Ms[name]} → ${after.statsP50Ms[name]} ms (${((after.statsP50Ms[name] ?? NaN) / (before.statsP50Ms[name] ?? NaN)).toFixed(2)} ×)`,
      );
  }
  fs.mkdirSync(path.dirname(path.resolve(root, args.json)), { recursive: true });
  fs.writeFileSync(path.resolve(root, args.json), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${args.json}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
