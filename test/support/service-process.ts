// The real service as its own process (src/main.ts), started the way a person or an image would,
// and what tests of whole-process behaviour (kill -9, Ctrl-C) ask it over HTTP.
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { ADMIN_TOKEN, eventually, type Isolation } from './service.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

export interface Running {
  child: ChildProcess;
  address: string;
  output(): string;
}

/**
 * Starts the service and resolves with its address once it logged "listening". By default with
 * tsx's loader in the service's own process, so a signal or a SIGKILL reaches the service itself;
 * `command` runs something else in the checkout (`npm start`), in a process group of its own.
 */
export async function startService(
  isolation: Isolation,
  children: ChildProcess[],
  command?: string[],
): Promise<Running> {
  const [file, ...args] = command ?? [process.execPath, '--import', 'tsx', 'src/main.ts'];
  const child = spawn(file!, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...isolation.env,
      PORT: '0',
      SIGNPOST_ADMIN_TOKEN: ADMIN_TOKEN,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own, as a terminal gives a command: a signal to -pid reaches all of it.
    detached: command !== undefined,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line:\n${output}`)), 90_000);
    child.stdout!.on('data', () => {
      const line = output.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line).address as string);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}:\n${output}`)));
  });
  return { child, address, output: () => output };
}

async function call<T>(
  address: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${address}${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** An organization with `links` short URLs aliased `${prefix}0`…; their ids. */
export async function linksOf(
  address: string,
  name: string,
  prefix: string,
  links: number,
): Promise<{ org: { id: number; apiKey: string }; ids: number[] }> {
  const org = await call<{ id: number; apiKey: string }>(
    address,
    'POST',
    '/api/admin/v1/organizations',
    { authorization: `Bearer ${ADMIN_TOKEN}` },
    { name, plan: 'ENTERPRISE' },
  );
  const ids: number[] = [];
  for (let i = 0; i < links; i++) {
    const link = await call<{ id: number }>(
      address,
      'POST',
      '/api/v1/service/urls',
      { 'x-api-key': org.apiKey },
      { url: `https://example.com/${prefix}${i}`, customAlias: `${prefix}${i}` },
    );
    ids.push(link.id);
  }
  return { org, ids };
}

/** One GET over the agent's keep-alive connections; the status, or undefined when it failed. */
export function redirect(agent: http.Agent, address: URL, alias: string, n: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        // utm_term numbers the request: the click row says which answered requests were kept.
        agent,
        host: address.hostname,
        port: address.port,
        path: `/${alias}?utm_term=${n}`,
        method: 'GET',
        headers: { 'user-agent': BROWSER, accept: 'text/html' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
        res.on('error', () => resolve(undefined));
      },
    );
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

/** Sum of the links' clickCount once the bus backlog is empty and the sum holds still. */
export async function settledCounts(address: string, apiKey: string, ids: number[]): Promise<number> {
  let previous = -1;
  let steady = 0;
  return eventually(
    async () => {
      const response = await fetch(`${address}/metrics`);
      const metrics = response.ok ? await response.text() : '';
      // The clicks' consumer only: these very requests add API events to the others' queues. No line
      // (JetStream did not say in time) is an unknown backlog, not an empty one.
      const line = metrics.split('\n').find((l) => l.startsWith('signpost_bus_pending{consumer="olap-clicks"}'));
      const backlog = line === undefined ? Number.NaN : Number(line.split(' ').at(-1));
      let counted = 0;
      for (const id of ids)
        counted += (
          await call<{ clickCount: number }>(address, 'GET', `/api/v1/service/urls/${id}`, { 'x-api-key': apiKey })
        ).clickCount;
      steady = backlog === 0 && counted === previous ? steady + 1 : 0;
      previous = counted;
      // Nothing waiting on the bus, and the same count over a few seconds (one write interval and more).
      if (steady >= 4) return counted;
      await new Promise((r) => setTimeout(r, 500));
      // Named in the timeout's message.
      throw new Error(`not settled: ${backlog} clicks waiting on the bus, ${counted} counted`);
    },
    150_000,
    'the click counts to settle after the restart',
  );
}
