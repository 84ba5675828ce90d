// npm run bench:redirect [-- --nats | --split] [--links 10000] [--duration 10s] [--runs 3] [--connections 64,256] [--cpu-prof] [--threads] [--rules]
//
// --rules measures what routing rules cost: as many links again, each with 5 rules of which one
// names countries, none of them met (every click reads all 5: the worst case), against the links
// without rules, in the same service and in alternating runs instead of the bare node reference.
// Every request then carries a public client address (X-Forwarded-For behind TRUST_PROXY=loopback)
// so the country is really looked up, a browser's user agent and an Accept-Language. It prints the
// CPU per redirect of both and their ratio.
//
// --threads prints, per measured run, the service's CPU per request by thread (the main thread,
// libuv's pool, chDB's threads, V8's GC helpers): where the time goes outside JavaScript.
//
// Starts the service as `npm start` would (embedded stores; with --nats on the local NATS
// JetStream), creates the links through the Service API, drives GET /{code} with wrk (random code
// per request, ../shared/bench/random-path.lua) on loopback, and prints requests/s, p50, p99 per
// run and their medians, the server CPU per request (from /proc), the service's peak RSS, and the
// reconciliation: every request wrk sent against the clicks ClickHouse counted (the sum of
// clickCount) once the pipeline has drained.
//
// The reference runs in the same benchmark on the same codes: ../shared/bench/bare-node-302.mjs,
// bare node:http answering 302 from a Map. Its runs alternate with the service's, so a noisy
// neighbour slows both alike, and the table quotes the service as a ratio to it.
//
// --split runs two processes on NATS and the local PostgreSQL (a fresh database on
// 127.0.0.1:5432): SIGNPOST_ROLES=api takes the load, SIGNPOST_ROLES=worker writes ClickHouse
// (its chDB); the reconciliation then compares the api's redirects with the worker's writes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sharedBench = path.resolve(root, '..', 'shared', 'bench');

const { values: parsedArgs } = parseArgs({
  options: {
    nats: { type: 'boolean', default: false },
    split: { type: 'boolean', default: false },
    links: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10s' },
    runs: { type: 'string', default: '3' },
    connections: { type: 'string', default: '64,256' },
    warmup: { type: 'string', default: '2s' },
    'cpu-prof': { type: 'boolean', default: false },
    threads: { type: 'boolean', default: false },
    rules: { type: 'boolean', default: false },
    port: { type: 'string', default: '18080' },
  },
});

const args = { ...parsedArgs, nats: parsedArgs.nats || parsedArgs.split };
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdefghij';
const workerPort = Number(args.port) + 1;
const workerBase = `http://127.0.0.1:${workerPort}`;
const splitDatabase = `signpost_bench_${process.pid}`;
const PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const port = Number(args.port);
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-bench-'));
const namespace = `bench_${process.pid}`;

/** --rules: what every request carries, so rules read a real country, agent and language. */
const WRK_HEADERS = parsedArgs.rules
  ? [
      'X-Forwarded-For: 8.8.8.8',
      'User-Agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
      'Accept-Language: en-US,en;q=0.9',
    ]
  : [];

/** --rules: 5 rules a request from 8.8.8.8 on desktop Chrome in English meets none of, so each is read. */
const BENCH_RULES = [
  { conditions: { languages: ['ko'] }, url: 'https://example.com/ko' },
  { conditions: { deviceTypes: ['mobile'] }, url: 'https://example.com/mobile' },
  { conditions: { query: { ref: 'mail' } }, url: 'https://example.com/mail' },
  { conditions: { countries: ['KR', 'JP'] }, url: 'https://example.com/asia' },
  { conditions: { browsers: ['Safari'], os: ['macos'] }, url: 'https://example.com/mac' },
];

interface WrkResult {
  requests: number;
  rps: number;
  lat_us: { p50: number; p99: number };
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
}

/** One measured run: wrk's figures and the server's CPU over it. */
interface Run extends WrkResult {
  cpuUsPerRequest: number;
}

const CLOCK_TICKS_PER_S = 100; // getconf CLK_TCK on Linux

/** User + system CPU of these processes and all their descendants, in µs. */
function cpuMicros(rootPids: number[]): number {
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, depth = 0; p && depth < 32; p = parents.get(p), depth++)
      if (rootPids.includes(p)) return true;
    return false;
  };
  let total = 0;
  for (const [pid, t] of ticks) if (inTree(pid)) total += t;
  return (total * 1e6) / CLOCK_TICKS_PER_S;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function peakRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function api(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

function startService(role: { roles?: string; port: number; dataDir: string; profile: boolean }): ChildProcess {
  const nodeArgs = ['--import', 'tsx', 'src/main.ts'];
  if (role.profile) nodeArgs.unshift('--cpu-prof', `--cpu-prof-dir=${path.join(root, 'bench', 'profiles')}`);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(role.port),
    DATA_DIR: role.dataDir,
    SIGNPOST_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // Batching knobs pass through, so their effect can be measured.
    ...Object.fromEntries(
      Object.entries(process.env).filter(([k]) => k.startsWith('EVENT_BATCH_') || k === 'EVENT_WRITE_INTERVAL_MS'),
    ),
    ...(args.rules ? { TRUST_PROXY: 'loopback' } : {}),
    ...(args.nats ? { NATS_URL: 'nats://127.0.0.1:4222', NATS_NAMESPACE: namespace } : {}),
    ...(args.split
      ? {
          SIGNPOST_ROLES: role.roles,
          DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${splitDatabase}`,
          // Both processes seal and open the same secrets.
          PII_ENCRYPTION_KEY: `bench:${'ab'.repeat(32)}`,
        }
      : {}),
  };
  return spawn(process.execPath, nodeArgs, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
}

async function splitDatabaseCommand(command: 'create' | 'drop'): Promise<void> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(PG_ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    if (command === 'create') await sql.unsafe(`create database ${splitDatabase}`);
    else await sql.unsafe(`drop database if exists ${splitDatabase} with (force)`);
  } finally {
    await sql.end();
  }
}

async function waitHealthy(url = base): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('service did not become healthy');
}

async function createLinks(apiKey: string, n: number, extra: Record<string, unknown> = {}): Promise<string[]> {
  const codes: string[] = [];
  const concurrency = 8;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const link = (await api(
          'POST',
          '/api/v1/service/urls',
          { url: `https://example.com/landing/${i}?src=bench`, ...extra },
          { 'x-api-key': apiKey },
        )) as { shortCode: string };
        codes.push(link.shortCode);
      }
    }),
  );
  return codes;
}

function runWrk(codesFile: string, connections: number, duration: string, target = base): WrkResult {
  const out = spawnSync(
    'wrk',
    [
      '-t1',
      `-c${connections}`,
      `-d${duration}`,
      '--timeout',
      '5s',
      '--latency',
      ...WRK_HEADERS.flatMap((h) => ['-H', h]),
      '-s',
      path.join(sharedBench, 'random-path.lua'),
      target,
    ],
    {
      env: { ...process.env, CODES_FILE: codesFile, WRK_JSON: '1' },
      encoding: 'utf8',
    },
  );
  const line = out.stdout.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (!line) throw new Error(`wrk printed no result: ${out.stdout}\n${out.stderr}`);
  return JSON.parse(line.slice('WRK_JSON '.length)) as WrkResult;
}

/** CPU ticks of each thread of a process, user and system time apart, summed by thread name. */
function threadTicks(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // Worker threads carry the process's name too: the main thread is the one whose id is the pid.
      const name =
        tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[0-9]+$/, '#');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName.set(`${name} user`, (byName.get(`${name} user`) ?? 0) + Number(fields[11]));
      byName.set(`${name} sys`, (byName.get(`${name} sys`) ?? 0) + Number(fields[12]));
    } catch {
      // ended meanwhile
    }
  }
  return byName;
}

/** A wrk run with the CPU the server's processes spent meanwhile (and, with --threads, per thread). */
function measure(
  codesFile: string,
  connections: number,
  duration: string,
  target: string,
  pids: number[],
  threadsOf?: number,
): Run {
  const before = cpuMicros(pids);
  const threadsBefore = threadsOf === undefined ? undefined : threadTicks(threadsOf);
  const result = runWrk(codesFile, connections, duration, target);
  const spent = cpuMicros(pids) - before;
  if (threadsOf !== undefined && threadsBefore && result.requests > 0) {
    const after = threadTicks(threadsOf);
    const perThread = [...after]
      .map(
        ([name, ticks]) =>
          [name, ((ticks - (threadsBefore.get(name) ?? 0)) * 1e6) / CLOCK_TICKS_PER_S / result.requests] as const,
      )
      .filter(([, us]) => us >= 0.5)
      .sort((a, b) => b[1] - a[1]);
    console.log(`    CPU µs/req by thread: ${perThread.map(([name, us]) => `${name} ${us.toFixed(1)}`).join(', ')}`);
  }
  return { ...result, cpuUsPerRequest: result.requests > 0 ? spent / result.requests : 0 };
}

/** The reference server on the same codes; resolves once it accepts connections. */
async function startBareNode(codesFile: string, bindPort: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [path.join(sharedBench, 'bare-node-302.mjs'), '--codes', codesFile, '--port', String(bindPort)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`bare-node-302.mjs exited with ${code}`)));
  });
  return child;
}

interface Summary {
  rps: number;
  p50: number;
  p99: number;
  cpu: number;
}

const summarise = (runs: Run[]): Summary => ({
  rps: median(runs.map((x) => x.rps)),
  p50: median(runs.map((x) => x.lat_us.p50)) / 1000,
  p99: median(runs.map((x) => x.lat_us.p99)) / 1000,
  cpu: median(runs.map((x) => x.cpuUsPerRequest)),
});

const describeRun = (r: Run) =>
  `${Math.round(r.rps)} req/s, p50 ${(r.lat_us.p50 / 1000).toFixed(2)} ms, p99 ${(r.lat_us.p99 / 1000).toFixed(2)} ms, ${r.cpuUsPerRequest.toFixed(0)} µs CPU/req`;

async function sumClickCounts(apiKey: string): Promise<number> {
  let total = 0;
  for (let page = 0; ; page++) {
    const body = (await api('GET', `/api/v1/service/urls?size=100&page=${page}`, undefined, {
      'x-api-key': apiKey,
    })) as {
      content: { clickCount: number }[];
      last: boolean;
    };
    for (const u of body.content) total += u.clickCount;
    if (body.last) return total;
  }
}

async function metric(name: string, url = base): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith(`signpost_${name}`))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

/**
 * --rules: the links without rules and those with 5 in alternating runs on the same service, and
 * the CPU per redirect of each; returns what wrk read, for the reconciliation.
 */
async function compareRules(
  plainFile: string,
  ruledFile: string,
  pids: number[],
): Promise<{ sent: number; nonRedirect: number }> {
  let sent = 0;
  let nonRedirect = 0;
  const count = (r: WrkResult) => {
    sent += r.requests;
    nonRedirect += r.errors.status;
  };
  const table: string[] = [];
  for (const connections of args.connections.split(',').map(Number)) {
    count(runWrk(plainFile, connections, args.warmup));
    count(runWrk(ruledFile, connections, args.warmup));
    const plain: Run[] = [];
    const ruled: Run[] = [];
    for (let r = 0; r < Number(args.runs); r++) {
      const order = [
        ['no rules', plainFile, plain],
        ['5 rules ', ruledFile, ruled],
      ] as const;
      // Every other pair the other way round: whichever ran second in a pair would otherwise pay
      // alone for what the first left behind (the writer's inserts of its clicks, a growing heap).
      for (const [name, file, runs] of r % 2 === 0 ? order : [...order].reverse()) {
        const run = measure(file, connections, args.duration, base, pids);
        runs.push(run);
        count(run);
        console.log(
          `  c=${connections} run ${r + 1}  ${name}: ${describeRun(run)}, errors ${JSON.stringify(run.errors)}`,
        );
        await new Promise((res) => setTimeout(res, 1000));
      }
    }
    const [a, b] = [summarise(plain), summarise(ruled)];
    // The ratio of each pair, run next to each other, then their median: steadier than the ratio
    // of the two medians when the machine's load drifts during the benchmark.
    const pairs = plain.map((p, i) => ruled[i]!.cpuUsPerRequest / p.cpuUsPerRequest).sort((x, y) => x - y);
    table.push(
      `| ${connections} | ${Math.round(a.rps).toLocaleString('en')} | ${a.cpu.toFixed(1)} | ${Math.round(b.rps).toLocaleString('en')} | ${b.cpu.toFixed(1)} | ${(b.cpu / a.cpu).toFixed(2)} | ${pairs[Math.floor(pairs.length / 2)]!.toFixed(2)} |`,
    );
  }
  console.log('\nmedians of the runs; CPU is user + system time of the service per answered request');
  console.log(
    "| connections | req/s, no rules | CPU µs/req, no rules | req/s, 5 rules | CPU µs/req, 5 rules | CPU ratio | median of the pairs' ratios |",
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const line of table) console.log(line);
  return { sent, nonRedirect };
}

async function main(): Promise<void> {
  if (spawnSync('wrk', ['--version']).error) throw new Error('wrk is not installed (apt-get install -y wrk)');
  const setup = args.split
    ? 'api process + worker process on NATS JetStream and PostgreSQL, the worker on embedded chDB'
    : `${args.nats ? 'NATS JetStream bus' : 'in-process bus'}, embedded PGlite + chDB`;
  console.log(`Signpost redirect benchmark: ${setup}, ${os.cpus().length} cores`);
  if (args.split) await splitDatabaseCommand('create');
  const service = startService({ roles: 'api', port, dataDir, profile: args['cpu-prof'] });
  const worker = args.split
    ? startService({ roles: 'worker', port: workerPort, dataDir: `${dataDir}-worker`, profile: false })
    : undefined;
  let sent = 0;
  let nonRedirect = 0;
  try {
    await waitHealthy();
    if (worker) await waitHealthy(workerBase);
    const org = (await api(
      'POST',
      '/api/admin/v1/organizations',
      { name: 'Bench', plan: 'ENTERPRISE' },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    )) as { apiKey: string };
    const t0 = Date.now();
    const codes = await createLinks(org.apiKey, Number(args.links));
    const ruledCodes = args.rules
      ? await createLinks(org.apiKey, Number(args.links), { routingRules: BENCH_RULES })
      : [];
    console.log(
      `created ${codes.length + ruledCodes.length} links${args.rules ? ` (${ruledCodes.length} with 5 rules)` : ''} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    // Steady state: every link in the service's cache first (HEAD: answered like GET, never a
    // click); the first seconds after creating the links otherwise measure PostgreSQL look-ups.
    const t1 = Date.now();
    const allCodes = [...codes, ...ruledCodes];
    let nextCode = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (nextCode < allCodes.length)
          await fetch(`${base}/${allCodes[nextCode++]}`, { method: 'HEAD', redirect: 'manual' });
      }),
    );
    console.log(`cached every link (one HEAD each) in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    // HEAD answers count as redirects in the service's counter but are no clicks.
    const answeredBeforeRuns = await metric('redirects_total{outcome="redirect"}');
    const codesFile = path.join(dataDir, 'codes.txt');
    fs.writeFileSync(codesFile, `${codes.join('\n')}\n`);
    if (args.rules) {
      const ruledFile = path.join(dataDir, 'ruled-codes.txt');
      fs.writeFileSync(ruledFile, `${ruledCodes.join('\n')}\n`);
      const counts = await compareRules(codesFile, ruledFile, [service.pid!, ...(worker ? [worker.pid!] : [])]);
      sent += counts.sent;
      nonRedirect += counts.nonRedirect;
    }

    const barePort = port + 2;
    const bare = args.rules ? undefined : await startBareNode(codesFile, barePort);
    const bareBase = `http://127.0.0.1:${barePort}`;
    const servicePids = [service.pid!, ...(worker ? [worker.pid!] : [])];
    const table: string[] = [];
    try {
      for (const connections of bare ? args.connections.split(',').map(Number) : []) {
        runWrk(codesFile, connections, args.warmup, bareBase);
        const warm = runWrk(codesFile, connections, args.warmup);
        sent += warm.requests;
        nonRedirect += warm.errors.status;
        const reference: Run[] = [];
        const runs: Run[] = [];
        for (let r = 0; r < Number(args.runs); r++) {
          const ref = measure(codesFile, connections, args.duration, bareBase, [bare!.pid!]);
          reference.push(ref);
          console.log(`  c=${connections} run ${r + 1}  bare node: ${describeRun(ref)}`);
          await new Promise((res) => setTimeout(res, 1000));
          const result = measure(
            codesFile,
            connections,
            args.duration,
            base,
            servicePids,
            args.threads ? service.pid : undefined,
          );
          runs.push(result);
          sent += result.requests;
          nonRedirect += result.errors.status;
          console.log(
            `  c=${connections} run ${r + 1}  signpost:  ${describeRun(result)}, errors ${JSON.stringify(result.errors)}`,
          );
          await new Promise((res) => setTimeout(res, 1000));
        }
        const ref = summarise(reference);
        const ours = summarise(runs);
        const row = (name: string, x: Summary, rss: string, ratio: string) =>
          `| ${name} | ${connections} | ${Math.round(x.rps).toLocaleString('en')} | ${x.p50.toFixed(2)} | ${x.p99.toFixed(2)} | ${x.cpu.toFixed(0)} | ${rss} | ${ratio} |`;
        table.push(row('bare node:http 302', ref, `${peakRssMiB(bare!.pid!)}`, '1.00'));
        table.push(
          row(
            `signpost (${args.split ? 'api + worker' : args.nats ? 'NATS' : 'embedded'})`,
            ours,
            `${peakRssMiB(service.pid!)}${worker ? ` + ${peakRssMiB(worker.pid!)}` : ''}`,
            (ours.rps / ref.rps).toFixed(2),
          ),
        );
      }
    } finally {
      bare?.kill('SIGTERM');
    }
    if (bare) {
      console.log("\nmedians of the runs; CPU is user + system time of the server's processes per answered request");
      console.log(
        '| server | connections | req/s | p50 ms | p99 ms | CPU µs/req | peak RSS MiB | ratio to bare node |',
      );
      console.log('|---|---|---|---|---|---|---|---|');
      for (const line of table) console.log(line);
    }
    console.log(
      `service peak RSS: ${peakRssMiB(service.pid!)} MiB${worker ? `, worker peak RSS: ${peakRssMiB(worker.pid!)} MiB` : ''}`,
    );
    // Split: the api's own ClickHouse holds nothing; the worker's writes are the count.
    const clicksCounted = () =>
      worker ? metric('events_written_total{table="clicks"}', workerBase) : sumClickCounts(org.apiKey);
    const pending = async () =>
      (await metric('event_backlog')) + (await metric('bus_pending', worker ? workerBase : base));

    // Reconciliation: wait until the pipeline is empty and the totals stop moving.
    const drainStart = Date.now();
    let counted = -1;
    for (;;) {
      const backlog = await pending();
      const now = await clicksCounted();
      if (backlog === 0 && now === counted) break;
      counted = now;
      if (Date.now() - drainStart > 120_000) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    // wrk counts the answers it read; the requests still in flight when a run stops were answered
    // too (and are clicks), so the service's own count of redirects is what ClickHouse must match.
    const answered = (await metric('redirects_total{outcome="redirect"}')) - answeredBeforeRuns;
    const verdict = answered === counted && answered >= sent - nonRedirect ? 'EQUAL' : 'MISMATCH';
    console.log(
      `reconciliation: wrk read ${sent} answers (${nonRedirect} non-3xx), the service answered ${answered} redirects, ClickHouse counted ${counted} clicks after ${((Date.now() - drainStart) / 1000).toFixed(1)} s of drain: ${verdict}`,
    );
    if (verdict !== 'EQUAL') process.exitCode = 1;
  } finally {
    for (const child of [service, worker]) {
      if (!child) continue;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(`${dataDir}-worker`, { recursive: true, force: true });
    if (args.split) await splitDatabaseCommand('drop');
    if (args.nats) {
      const { connect } = await import('@nats-io/transport-node');
      const { jetstreamManager } = await import('@nats-io/jetstream');
      const nc = await connect({ servers: '127.0.0.1:4222' });
      const jsm = await jetstreamManager(nc);
      for (const s of [`${namespace}_EVENTS`, `${namespace}_DLQ`]) await jsm.streams.delete(s).catch(() => {});
      await nc.close();
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
