// The processes of the cluster run, each on loopback with its own port and folder under one
// temporary directory: three nats-server nodes routed into one JetStream cluster, the service as
// api-only and worker-only processes (dist/main.js, as an image runs it), and nginx as the round-
// robin load balancer in front of the api processes. Each can be killed (SIGKILL) or stopped
// (SIGTERM) and started again on the same port and folder, and tells the CPU it used (/proc).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import postgres from 'postgres';
import { NATS_SERVER } from '../support/nats-server.js';
import { freePort, waitForPort } from '../support/ports.js';

const NGINX = '/usr/sbin/nginx';
const root = path.resolve(import.meta.dirname, '..', '..');
export const ADMIN_TOKEN = 'cluster-admin-token-0123456789abcdef0123456789';
const CLOCK_TICKS_PER_SECOND = 100;

/** One process of the run, started again as often as the run asks, on the same port and folder. */
export class Member {
  child: ChildProcess | undefined;
  /** CPU seconds of the earlier lives of this member (the current one is read from /proc). */
  private earlierCpu = 0;
  private lastCpu = 0;
  private output = '';

  constructor(
    readonly name: string,
    readonly kind: 'nats' | 'api' | 'worker',
    readonly port: number,
    private readonly launch: () => ChildProcess,
    private readonly ready: (member: Member) => Promise<void>,
  ) {}

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Starts the process and waits until it is ready. One that exits while starting (the service
   * gives up when JetStream does not answer in time, as it may on a starved machine) is started
   * again, as a supervisor would, up to three times; the run says so.
   */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce();
      } catch (err) {
        if (attempt >= 3 || this.running) throw err;
        process.stderr.write(
          `[cluster] ${(err as Error).message.split('\n').slice(0, 2).join(' ')}; starting it again\n`,
        );
      }
    }
  }

  private async startOnce(): Promise<void> {
    this.output = '';
    this.lastCpu = 0;
    const child = this.launch();
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-100_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) =>
        reject(new Error(`${this.name} exited during its start (${code ?? signal}):\n${this.log().slice(-3000)}`)),
      ),
    );
    exited.catch(() => {});
    await Promise.race([this.ready(this), exited]);
  }

  /** SIGKILL (a crash) or SIGTERM (a graceful stop); resolves once the process is gone. */
  async stop(signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    this.sampleCpu();
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await gone;
    this.earlierCpu += this.lastCpu;
    this.lastCpu = 0;
  }

  /** CPU seconds (user + system) of every life of this member so far. */
  cpuSeconds(): number {
    this.sampleCpu();
    return this.earlierCpu + this.lastCpu;
  }

  private sampleCpu(): void {
    const pid = this.child?.pid;
    if (!pid || !this.running) return;
    try {
      // Fields after the command name (which may hold spaces, so split after its closing paren):
      // utime and stime are the 14th and 15th fields of the line.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      this.lastCpu = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
    } catch {
      // Gone between the check and the read: the last sample stands.
    }
  }

  log(): string {
    return this.output;
  }

  /** Appends what the process wrote; the start waits on it. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const deadline = Date.now() + timeoutMs;
      const look = () => {
        const line = this.output.split('\n').find((l) => pattern.test(l));
        if (line) return resolve(line);
        if (Date.now() > deadline) return reject(new Error(`${this.name}: no line ${pattern} in ${timeoutMs} ms`));
        setTimeout(look, 50);
      };
      look();
    });
  }
}

export interface ClusterOptions {
  apis: number;
  workers: number;
  /** Extra environment of every service process. */
  env?: Record<string, string>;
}

export interface Cluster {
  dir: string;
  nats: Member[];
  apis: Member[];
  workers: Member[];
  /** nginx, in front of the running api processes. */
  balancer: { port: number; address: string; child: ChildProcess | undefined };
  /** The environment every service process gets (database, bus, key); the store readers reuse it. */
  serviceEnv: Record<string, string>;
  natsUrl: string;
  namespace: string;
  workerDataDir(index: number): string;
  /** Rewrites nginx's upstream to the first `count` api processes and reloads it. */
  balance(count: number): Promise<void>;
  /** Waits until every stream has a leader and each replica is current. */
  streamsHealthy(timeoutMs?: number): Promise<void>;
  dispose(): Promise<void>;
}

async function natsMembers(dir: string): Promise<Member[]> {
  const clientPorts = [await freePort(), await freePort(), await freePort()];
  const routePorts = [await freePort(), await freePort(), await freePort()];
  const routes = routePorts.map((p) => `nats-route://127.0.0.1:${p}`).join(', ');
  return clientPorts.map((port, i) => {
    const name = `nats-${i + 1}`;
    const config = path.join(dir, `${name}.conf`);
    fs.writeFileSync(
      config,
      [
        `server_name: ${name}`,
        `listen: 127.0.0.1:${port}`,
        `jetstream { store_dir: "${path.join(dir, name)}" }`,
        `cluster { name: signpost-cluster, listen: 127.0.0.1:${routePorts[i]}, routes: [${routes}] }`,
        '',
      ].join('\n'),
    );
    return new Member(
      name,
      'nats',
      port,
      () => spawn(NATS_SERVER, ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] }),
      () => waitForPort(port, 15_000),
    );
  });
}

/** JetStream answers for the account: the cluster elected its meta leader. */
async function jetstreamReady(natsUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const nc = await connect({ servers: natsUrl.split(','), maxReconnectAttempts: -1 });
  try {
    for (;;) {
      try {
        // Asks for the account's JetStream information, which waits on the meta leader.
        await jetstreamManager(nc);
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  } finally {
    await nc.close();
  }
}

function serviceMember(
  name: string,
  kind: 'api' | 'worker',
  port: number,
  dataDir: string,
  env: () => Record<string, string>,
): Member {
  fs.mkdirSync(dataDir, { recursive: true });
  return new Member(
    name,
    kind,
    port,
    () =>
      spawn(process.execPath, ['dist/main.js'], {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...env(),
          SIGNPOST_ROLES: kind,
          HOST: '127.0.0.1',
          PORT: String(port),
          DATA_DIR: dataDir,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    async (member) => {
      await member.waitForLine(/"msg":"listening"/, 120_000);
    },
  );
}

/** dist/cli/migrate.js on `dataDir`: PostgreSQL and the chDB folder there are migrated when it exits. */
function migrate(dataDir: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/cli/migrate.js'], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (c: Buffer) => (errors += c));
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`migrate exited with ${code}: ${errors}`)),
    );
  });
}

function nginxConfig(dir: string, port: number, upstreams: number[]): string {
  const temp = (name: string) => path.join(dir, 'nginx', name);
  return `# The cluster run's load balancer: round robin over the api processes, keep-alive both ways.
user root;
worker_processes 1;
daemon off;
pid ${temp('nginx.pid')};
error_log ${temp('error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  upstream signpost {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=1s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    keepalive_requests 100000;
    location / {
      proxy_pass http://signpost;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # A request whose api process failed before it answered goes to the next one; the run
      # reads which processes a request went through to tell such a retry from a repetition.
      proxy_next_upstream error timeout;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/** Starts NATS, the database, the api and worker processes and nginx; `dispose` undoes all of it. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'signpost-cluster-'));
  const suffix = randomBytes(4).toString('hex');
  const database = `sp_test_cluster_${suffix}`;
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const started: Member[] = [];
  let balancerChild: ChildProcess | undefined;
  let databaseCreated = false;
  let disposed = false;
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    // SIGTERM: nginx's master stops its workers before it exits.
    const balancer = balancerChild;
    if (balancer && balancer.exitCode === null && balancer.signalCode === null) {
      const gone = new Promise((r) => balancer.once('exit', r));
      balancer.kill('SIGTERM');
      await gone;
    }
    await Promise.all(started.map((m) => m.stop('SIGKILL')));
    if (databaseCreated) {
      const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${database} with (force)`).catch(() => {});
      await admin.end();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const nats = await natsMembers(dir);
    started.push(...nats);
    await Promise.all(nats.map((m) => m.start()));
    const natsUrl = nats.map((m) => `nats://127.0.0.1:${m.port}`).join(',');
    await jetstreamReady(natsUrl, 30_000);

    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database ${database}`);
      databaseCreated = true;
    } finally {
      await admin.end();
    }
    const databaseUrl = new URL(adminUrl);
    databaseUrl.pathname = `/${database}`;
    const namespace = `cluster_${suffix}`;
    const serviceEnv: Record<string, string> = {
      DATABASE_URL: databaseUrl.toString(),
      NATS_URL: natsUrl,
      NATS_NAMESPACE: namespace,
      NATS_STREAM_REPLICAS: '3',
      PII_ENCRYPTION_KEY: `t1:${randomBytes(32).toString('hex')}`,
      SIGNPOST_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'info',
      ACCESS_LOG_REDIRECT_SAMPLE: '0',
      WEBHOOK_ALLOW_INSECURE: '1',
      WEBHOOK_POLL_MS: '200',
      SHUTDOWN_TIMEOUT_MS: '15000',
      ...options.env,
    };
    const balancerPort = await freePort();
    const address = `http://127.0.0.1:${balancerPort}`;
    serviceEnv.PUBLIC_BASE_URL = address;
    const apis: Member[] = [];
    for (let i = 0; i < options.apis; i++)
      apis.push(
        serviceMember(`api-${i + 1}`, 'api', await freePort(), path.join(dir, `api-${i + 1}`), () => serviceEnv),
      );
    const workers: Member[] = [];
    for (let i = 0; i < options.workers; i++)
      workers.push(
        serviceMember(
          `worker-${i + 1}`,
          'worker',
          await freePort(),
          path.join(dir, `worker-${i + 1}`),
          () => serviceEnv,
        ),
      );
    // Both stores migrated once (`npm run migrate`'s code), and that chDB folder copied into
    // every process's own: five processes migrating five folders at once take the two cores for
    // half a minute.
    await migrate(path.join(dir, 'migrated'), serviceEnv);
    for (const m of [...apis, ...workers])
      fs.cpSync(path.join(dir, 'migrated', 'ch'), path.join(dir, m.name, 'ch'), { recursive: true });
    started.push(...apis, ...workers);
    // The first creates the streams; the others find them.
    await apis[0]!.start();
    await Promise.all([...apis.slice(1), ...workers].map((m) => m.start()));

    fs.mkdirSync(path.join(dir, 'nginx'), { recursive: true });
    const nginxConf = path.join(dir, 'nginx', 'nginx.conf');
    const writeConfig = (count: number) =>
      fs.writeFileSync(
        nginxConf,
        nginxConfig(
          dir,
          balancerPort,
          apis.slice(0, count).map((m) => m.port),
        ),
      );
    writeConfig(apis.length);
    const nginxArgs = ['-p', path.join(dir, 'nginx'), '-e', path.join(dir, 'nginx', 'error.log'), '-c', nginxConf];
    balancerChild = spawn(NGINX, nginxArgs, { stdio: 'ignore' });
    await waitForPort(balancerPort, 15_000);
    const balancer = { port: balancerPort, address, child: balancerChild };

    const cluster: Cluster = {
      dir,
      nats,
      apis,
      workers,
      balancer,
      serviceEnv,
      natsUrl,
      namespace,
      workerDataDir: (index) => path.join(dir, `worker-${index + 1}`),
      async balance(count) {
        writeConfig(count);
        // The master reloads on SIGHUP: new workers take the new upstream, old ones finish.
        balancerChild!.kill('SIGHUP');
        await new Promise((r) => setTimeout(r, 500));
      },
      async streamsHealthy(timeoutMs = 60_000) {
        const deadline = Date.now() + timeoutMs;
        const nc = await connect({ servers: natsUrl.split(','), maxReconnectAttempts: -1 });
        try {
          for (;;) {
            // A node just started may not answer yet: every failure is one more round.
            const healthy = await (async () => {
              const jsm = await jetstreamManager(nc);
              const infos = await Promise.all(
                [`${namespace}_EVENTS`, `${namespace}_DLQ`].map((name) => jsm.streams.info(name)),
              );
              return infos.every(
                (info) =>
                  info.cluster?.leader !== undefined &&
                  info.cluster.replicas?.length === 2 &&
                  info.cluster.replicas.every((r) => r.current && !r.offline),
              );
            })().catch(() => false);
            if (healthy) return;
            if (Date.now() > deadline) throw new Error(`the streams did not become healthy in ${timeoutMs} ms`);
            await new Promise((r) => setTimeout(r, 250));
          }
        } finally {
          await nc.close();
        }
      },
      dispose,
    };
    return cluster;
  } catch (err) {
    await dispose();
    throw err;
  }
}
