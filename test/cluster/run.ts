// npm run test:cluster: Signpost scaled out on one machine, with faults under load.
//
// Three nats-server nodes (one JetStream cluster, the streams with 3 replicas), PostgreSQL, three
// api-only processes behind nginx (round robin) and two worker-only processes. While redirects and
// journey events go through nginx and a webhook receiver takes the webhooks, it kills with SIGKILL
// a NATS node, an api process and a worker, one after another, starts each again, then stops and
// starts every process in turn with SIGTERM (a rolling restart). Then it reconciles what was
// answered with what the workers wrote and prints one line; it exits 1 when anything answered was
// lost (beyond the kill window of the api process killed with SIGKILL) or counted twice, or a
// webhook never came.
//
//   npm run test:cluster                     the short form (CI): about a minute of load
//   npm run test:cluster -- --duration 10m   the long form: the same faults spread over 10 minutes
//   npm run test:cluster -- --throughput     redirects/s with 1, 2 and 3 api processes and the CPU
//                                            per redirect of each process kind (--json FILE)
//
// Each worker writes its own embedded ClickHouse (chDB binds a data folder to one process), so the
// run reads every worker's folder and reconciles over their union by click id; docs/operations.md
// says what differs from production with a ClickHouse server.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Cluster, type Member, startCluster } from './processes.js';
import { type Answer, type Load, redirectsFor, setUp, startLoad, webhookReceiver } from './load.js';
import type { StoreContents } from './read-store.js';

const LINKS = 8;
const CONNECTIONS = 16;
/** Redirects a second during the fault run, unless --rate says otherwise. */
const DEFAULT_RATE = 200;
/** The kill-window reasoning of test/kill-restart.test.ts: 10 ms of traffic, plus the loop's and the bus's delays. */
const KILL_WINDOW_BASE_MS = 10;
/** How long after the kill signal an answer of the killed process may still be read off its socket. */
const READ_AFTER_KILL_MS = 1_000;

function parseArgs(argv: string[]) {
  const options = {
    durationMs: 60_000,
    rate: DEFAULT_RATE,
    throughput: false,
    json: path.join(os.tmpdir(), 'signpost-cluster-throughput.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--throughput') options.throughput = true;
    else if (arg === '--duration') {
      const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(argv[++i] ?? '');
      if (!match) throw new Error('--duration takes a time such as 90s or 10m');
      const unit = match[2] === 'm' ? 60_000 : match[2] === 'ms' ? 1 : 1_000;
      options.durationMs = Number(match[1]) * unit;
    } else if (arg === '--rate') options.rate = Number(argv[++i]);
    else if (arg === '--json') options.json = argv[++i] ?? options.json;
    else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

/** What undoes the running cluster, for a signal that ends the run early. */
const disposers: (() => Promise<void>)[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (text: string) => process.stderr.write(`[cluster ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

/** The p99 of the service's event-loop and publish delays, in ms, from its /metrics. */
async function delaysMs(member: Member): Promise<{ loop: number; publish: number }> {
  const text = await (await fetch(`http://127.0.0.1:${member.port}/metrics`)).text().catch(() => '');
  const p99 = (name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`signpost_${name}{quantile="0.99"}`));
    const seconds = Number(line?.split(' ').at(-1));
    return Number.isFinite(seconds) ? seconds * 1000 : 0;
  };
  return { loop: p99('event_loop_delay_seconds'), publish: p99('event_publish_delay_seconds') };
}

/** Messages every consumer still has to handle (pending and unacknowledged), from a worker's /metrics. */
async function busBacklog(cluster: Cluster): Promise<number> {
  for (const worker of cluster.workers) {
    if (!worker.running) continue;
    const text = await (await fetch(`http://127.0.0.1:${worker.port}/metrics`)).text().catch(() => '');
    const lines = text.split('\n').filter((l) => l.startsWith('signpost_bus_pending{'));
    if (lines.length > 0) return lines.reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
  }
  return Number.NaN;
}

/** One worker's store, read by a child process of its own (chDB binds a folder to a process). */
function readStore(cluster: Cluster, index: number, orgs: number[]): Promise<StoreContents> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'read-store.ts'), ...orgs.map(String)],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...cluster.serviceEnv,
          DATA_DIR: cluster.workerDataDir(index),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`reading worker-${index + 1}'s store failed (${code}): ${err}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)!) as StoreContents);
    });
  });
}

interface ApiKill {
  port: number;
  at: number;
  allowedMs: number;
}

/** What the run did when (performance.now()), for the diagnosis of a miss. */
const timeline: { at: number; what: string }[] = [];

async function restart(member: Member, signal: 'SIGKILL' | 'SIGTERM', pauseMs: number, cluster: Cluster) {
  say(`${signal} ${member.name}`);
  timeline.push({ at: performance.now(), what: `${signal} ${member.name}` });
  await member.stop(signal);
  await sleep(pauseMs);
  await member.start();
  if (member.kind === 'nats') await cluster.streamsHealthy();
  timeline.push({ at: performance.now(), what: `${member.name} back` });
  say(`${member.name} back`);
}

async function faults(durationMs: number, rate: number): Promise<boolean> {
  const started = performance.now();
  const receiver = await webhookReceiver();
  say('starting 3 NATS nodes, 3 api and 2 worker processes, nginx');
  const cluster = await startCluster({
    apis: 3,
    workers: 2,
    // The journey events come from one address: the keyless limit per address would refuse them.
    env: { SDK_KEYLESS_RATE_LIMIT_PER_SECOND: '100000', SDK_KEYLESS_RATE_LIMIT_BURST: '100000' },
  });
  disposers.push(cluster.dispose);
  let load: Load | undefined;
  try {
    await cluster.streamsHealthy();
    const scenario = await setUp(cluster.balancer.address, receiver.url, LINKS);
    say(`started in ${Math.round((performance.now() - started) / 1000)} s; load through nginx`);
    load = startLoad(cluster.balancer.address, scenario, CONNECTIONS, rate);
    const loadStart = performance.now();
    // The faults one after another, spread over the duration (at least 3 s apart).
    const gap = Math.max(3_000, durationMs / 20);
    await sleep(gap);
    await restart(cluster.nats[1]!, 'SIGKILL', gap, cluster);
    await sleep(gap);
    const killedApi = cluster.apis[1]!;
    const delays = await delaysMs(killedApi);
    // At an arbitrary moment, not right after the scrape's answer.
    await sleep(100 + Math.random() * 100);
    const apiKill: ApiKill = {
      port: killedApi.port,
      at: performance.now(),
      allowedMs: KILL_WINDOW_BASE_MS + delays.loop + delays.publish,
    };
    await restart(killedApi, 'SIGKILL', gap, cluster);
    await sleep(gap);
    await restart(cluster.workers[0]!, 'SIGKILL', gap, cluster);
    await sleep(gap);
    say('rolling restart (SIGTERM, one process at a time)');
    for (const member of [...cluster.nats, ...cluster.apis, ...cluster.workers]) {
      await restart(member, 'SIGTERM', 0, cluster);
      await sleep(gap / 4);
    }
    await sleep(Math.max(gap, durationMs - (performance.now() - loadStart)));
    await load.stop();
    const loadMs = performance.now() - loadStart;
    say(`load stopped after ${Math.round(loadMs / 1000)} s: ${load.answered.size} redirects answered`);

    // The api processes hand what they hold to the bus as they stop; the workers then drain it.
    await Promise.all(cluster.apis.map((m) => m.stop('SIGTERM')));
    // The webhooks trail the clicks (a delivery each): a long run leaves more of them to send.
    const settleMs = Math.max(180_000, durationMs / 2);
    const settleBy = performance.now() + settleMs;
    let steady = 0;
    let lastDeliveries = -1;
    let backlog = Number.NaN;
    while (steady < 4 && performance.now() < settleBy) {
      backlog = await busBacklog(cluster);
      const deliveries = receiver.deliveries.length;
      steady = backlog === 0 && deliveries === lastDeliveries ? steady + 1 : 0;
      lastDeliveries = deliveries;
      await sleep(500);
    }
    await Promise.all(cluster.workers.map((m) => m.stop('SIGTERM')));
    const stores = await Promise.all(
      cluster.workers.map((_, i) => readStore(cluster, i, [scenario.loadOrg, scenario.hookedOrg])),
    );
    const names = new Map(cluster.apis.map((m) => [m.port, m.name]));
    const report = reconcile(load, stores, receiver.deliveries, apiKill, loadMs);
    // What was read anyway is still worth its line; the run fails all the same.
    if (steady < 4)
      report.problems.push(
        `the bus and the webhooks did not settle in ${settleMs / 1000} s (${backlog} messages on the bus)`,
      );
    if (report.problems.length > 0) diagnose(report.lostAt, loadStart, names);
    console.log(report.line);
    for (const problem of report.problems) console.log(`cluster: ${problem}`);
    say(`done in ${Math.round((performance.now() - started) / 1000)} s`);
    return report.problems.length === 0;
  } catch (err) {
    // What each process warned of last: the cause is usually there.
    for (const m of [...cluster.nats, ...cluster.apis, ...cluster.workers]) {
      const warnings = m
        .log()
        .split('\n')
        .filter((l) => /"level":(40|50|60)|\[(ERR|WRN|FTL)\]/.test(l))
        .slice(-5);
      if (warnings.length > 0) say(`${m.name} warned, last:\n${warnings.map((l) => l.slice(0, 600)).join('\n')}`);
    }
    throw err;
  } finally {
    await load?.stop();
    await receiver.close();
    await cluster.dispose();
  }
}

/** Rows per id over every store, and how many of those ids sit in more than one store. */
function countIds(lists: string[][]): { rows: Map<string, number>; acrossStores: number } {
  const rows = new Map<string, number>();
  const stores = new Map<string, number>();
  for (const list of lists) {
    for (const id of list) rows.set(id, (rows.get(id) ?? 0) + 1);
    for (const id of new Set(list)) stores.set(id, (stores.get(id) ?? 0) + 1);
  }
  return { rows, acrossStores: [...stores.values()].filter((n) => n > 1).length };
}

function reconcile(
  load: Load,
  stores: StoreContents[],
  deliveries: { id: string; type: string }[],
  apiKill: ApiKill,
  loadMs: number,
) {
  const problems: string[] = [];
  // Redirects: which request numbers were kept, under which click ids.
  const loadIds = countIds(stores.map((s) => s.clicks.map(([, id]) => id)));
  const hookedIds = countIds(stores.map((s) => s.hookedClicks));
  const byNumber = new Map<number, Set<string>>();
  for (const store of stores)
    for (const [n, id] of [...store.clicks, ...store.hookedNumbers]) {
      const ids = byNumber.get(Number(n)) ?? new Set<string>();
      ids.add(id);
      byNumber.set(Number(n), ids);
    }
  const hookedAnswered = [...load.hookedNumbers].filter((n) => load.answered.has(n)).length;
  let lostInWindow = 0;
  let worstWindowMs = 0;
  const lostAt: { at: number; upstreams: number[]; kind: string }[] = [];
  /** An answer missing from the stores: in the kill window of the api process killed, or lost. */
  const missing = (answer: Answer, kind: string) => {
    const windowMs = apiKill.at - answer.at;
    // Whatever the killed process answered before its kill and nobody wrote: its window, however
    // long (the check below compares the longest with what is allowed). An answer read just after
    // the kill signal was written before the process died (a negative age): in the window too. The
    // process started again on that port answers only seconds later.
    if (answer.upstreams.at(-1) === apiKill.port && windowMs >= -READ_AFTER_KILL_MS) {
      lostInWindow++;
      worstWindowMs = Math.max(worstWindowMs, windowMs);
    } else lostAt.push({ ...answer, kind });
  };
  let retriedTwice = 0;
  let twice = 0;
  for (const [n, answer] of load.answered) {
    const ids = byNumber.get(n);
    if (!ids) missing(answer, 'redirect');
    else if (ids.size > 1) {
      // Two clicks for one request: nginx passed it on after the first process failed (it may
      // have recorded it before it died), or a repetition.
      if (answer.upstreams.length > 1) retriedTwice++;
      else twice++;
    }
  }
  const lost = lostAt.length;
  const rowsTwice = [...loadIds.rows.values(), ...hookedIds.rows.values()].filter((c) => c > 1).length;
  const acrossStores = loadIds.acrossStores + hookedIds.acrossStores;
  const withinStore = rowsTwice - acrossStores;
  // Raw and rollups: each store's rollups count what its raw table holds; summed over the stores.
  const figures = { raw: 0, totals: 0, series15m: 0, series1h: 0 };
  for (const store of stores)
    for (const f of store.figures)
      for (const key of Object.keys(figures) as (keyof typeof figures)[]) figures[key] += f[key];
  // Journey events by the ids the run gave them.
  const journey = countIds(stores.map((s) => s.journeyEvents));
  for (const [id, answer] of load.journeyAnswered) if (!journey.rows.has(id)) missing(answer, 'journey event');
  const journeyLost = lostAt.length - lost;
  const journeyTwice = [...journey.rows.values()].filter((c) => c > 1).length - journey.acrossStores;
  // Webhooks: every click of the hooked organization at least once, repeats known by their id.
  const received = new Map<string, number>();
  for (const d of deliveries) if (d.type.startsWith('click')) received.set(d.id, (received.get(d.id) ?? 0) + 1);
  const webhooksMissing = [...hookedIds.rows.keys()].filter((id) => !received.has(id)).length;
  const webhookRepeats = [...received.values()].reduce((sum, c) => sum + c - 1, 0);
  const rate = load.answered.size / loadMs;

  const line =
    `cluster: redirects answered ${load.answered.size} (${Math.round(rate * 1000)}/s, ${load.failed} not answered), ` +
    `clicks in ClickHouse raw ${figures.raw} totals ${figures.totals} 15m ${figures.series15m} 1h ${figures.series1h} ` +
    `(${loadIds.rows.size + hookedIds.rows.size} distinct), journey events answered ${load.journeyAnswered.size} stored ${journey.rows.size}, ` +
    `webhooks received ${deliveries.length} (${received.size} click ids, ${webhookRepeats} repeats by id, ${webhooksMissing} missing), ` +
    `lost ${lost + journeyLost} (+${lostInWindow} in the api kill window), twice ${twice + withinStore + journeyTwice} ` +
    `(+${retriedTwice} retried by nginx, +${acrossStores + journey.acrossStores} across the workers' stores), ` +
    `worst loss window ${worstWindowMs.toFixed(1)} ms (allowed ${apiKill.allowedMs.toFixed(1)} ms)`;

  if (lost > 0) problems.push(`${lost} answered redirects lost outside the api kill window`);
  if (journeyLost > 0) problems.push(`${journeyLost} answered journey events lost`);
  if (twice + withinStore + journeyTwice > 0)
    problems.push(
      `counted twice: ${twice} requests, ${withinStore} click ids in one store, ${journeyTwice} journey events`,
    );
  if (worstWindowMs > apiKill.allowedMs)
    problems.push(
      `a click answered ${worstWindowMs.toFixed(1)} ms before the kill was lost (allowed ${apiKill.allowedMs.toFixed(1)} ms)`,
    );
  if (webhooksMissing > 0)
    problems.push(`${webhooksMissing} clicks of the hooked organization never reached the receiver`);
  // A worker killed in the middle of an insert may leave raw rows without all their rollup rows in
  // its store; the batch then goes to the other worker, which writes it whole in its own. So over
  // the union each rollup may fall short of the raw rows by the copies across stores, no more.
  const copies = [...loadIds.rows.values(), ...hookedIds.rows.values()].reduce((sum, c) => sum + c - 1, 0);
  for (const key of ['totals', 'series15m', 'series1h'] as const)
    if (figures[key] > figures.raw || figures[key] < figures.raw - copies)
      problems.push(
        `the rollup ${key} (${figures[key]}) disagrees with the raw clicks (${figures.raw}, ${copies} copies)`,
      );
  if (hookedAnswered === 0 || load.answered.size < 1_000 || load.journeyAnswered.size === 0)
    problems.push('too little traffic was answered to show anything');
  return { line, problems, lostAt };
}

/** Where the lost answers fall among the run's faults: the second of the load, and who answered. */
function diagnose(
  lostAt: { at: number; upstreams: number[]; kind: string }[],
  loadStart: number,
  names: Map<number, string>,
) {
  const second = (at: number) => Math.floor((at - loadStart) / 1000);
  for (const t of timeline) console.log(`cluster: at ${second(t.at)} s ${t.what}`);
  const buckets = new Map<string, number>();
  for (const l of lostAt) {
    const key = `${l.kind} answered at ${second(l.at)} s by ${l.upstreams.map((p) => names.get(p) ?? p).join('→') || '?'}`;
    buckets.set(key, (buckets.get(key) ?? 0) + 1);
  }
  for (const [key, count] of [...buckets].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`cluster: lost ${count} ${key}`);
}

interface ThroughputRow {
  apis: number;
  redirectsPerSecond: number;
  /** CPU (user + system) per answered redirect, µs, by process kind. */
  cpuPerRedirectUs: Record<string, number>;
}

async function throughput(durationMs: number, jsonFile: string): Promise<boolean> {
  const receiver = await webhookReceiver();
  say('starting 3 NATS nodes, 3 api and 2 worker processes, nginx');
  const cluster = await startCluster({ apis: 3, workers: 2 });
  disposers.push(cluster.dispose);
  try {
    await cluster.streamsHealthy();
    const scenario = await setUp(cluster.balancer.address, receiver.url, LINKS);
    const rows: ThroughputRow[] = [];
    const perStep = Math.max(10_000, durationMs / 3);
    for (const apis of [1, 2, 3]) {
      await cluster.balance(apis);
      // Every process caches the links first.
      await redirectsFor(cluster.balancer.address, scenario.loadAliases, CONNECTIONS, 2_000);
      const members = [...cluster.nats, ...cluster.apis, ...cluster.workers];
      const before = members.map((m) => m.cpuSeconds());
      const balancerBefore = nginxCpu(cluster);
      const selfBefore = process.cpuUsage();
      const answered = await redirectsFor(cluster.balancer.address, scenario.loadAliases, CONNECTIONS, perStep);
      const self = process.cpuUsage(selfBefore);
      const cpu: Record<string, number> = { api: 0, worker: 0, nats: 0 };
      for (const [i, m] of members.entries()) cpu[m.kind]! += m.cpuSeconds() - before[i]!;
      cpu.nginx = nginxCpu(cluster) - balancerBefore;
      cpu.loadGenerator = (self.user + self.system) / 1e6;
      const row: ThroughputRow = {
        apis,
        redirectsPerSecond: Math.round(answered / (perStep / 1000)),
        cpuPerRedirectUs: Object.fromEntries(
          Object.entries(cpu).map(([kind, seconds]) => [kind, Math.round((seconds / answered) * 1e6)]),
        ),
      };
      rows.push(row);
      console.log(
        `cluster throughput: ${apis} api process${apis > 1 ? 'es' : ''}: ${row.redirectsPerSecond} redirects/s; CPU per redirect (µs): ` +
          Object.entries(row.cpuPerRedirectUs)
            .map(([k, v]) => `${k} ${v}`)
            .join(', '),
      );
    }
    const result = { at: new Date().toISOString(), cores: os.cpus().length, connections: CONNECTIONS, rows };
    fs.writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
    say(`written to ${jsonFile}`);
    return true;
  } finally {
    await receiver.close();
    await cluster.dispose();
  }
}

/** nginx's CPU seconds: its master and workers, found by their parent. */
function nginxCpu(cluster: Cluster): number {
  const master = cluster.balancer.child?.pid;
  if (!master) return 0;
  let seconds = 0;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pid) === master || Number(fields[1]) === master)
        seconds += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // Gone meanwhile.
    }
  }
  return seconds;
}

// Ctrl-C or a CI timeout: the run's own processes, folder and database go with it.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    say(`${signal}: stopping the cluster`);
    void Promise.all(disposers.map((d) => d().catch(() => {}))).finally(() => process.exit(130));
  });

const options = parseArgs(process.argv.slice(2));
const ok = options.throughput
  ? await throughput(options.durationMs, options.json)
  : await faults(options.durationMs, options.rate);
process.exit(ok ? 0 : 1);
