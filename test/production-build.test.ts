// The production build as an operator runs it: TypeScript compiled into dist/ with the web SDK
// bundled in (scripts/build.mjs), production dependencies alone installed from the lockfile into a
// folder outside the checkout (so nothing resolves from the development node_modules), and
// `node dist/main.js`. Where Docker runs, the image is built and started the same way.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { ADMIN_TOKEN, eventually, isolate, type Isolation } from './support/service.js';
import { linksOf, startService } from './support/service-process.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const MINUTES = 60_000;

let isolation: Isolation;
const children: ChildProcess[] = [];
const folders: string[] = [];

let build: Promise<string> | undefined;

/** dist/ as `npm run build` writes it, built once for the file's folders (it is the same build). */
function builtOnce(): Promise<string> {
  build ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-build-'));
    folders.push(dir);
    await run(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--out', path.join(dir, 'dist')], {
      cwd: root,
      timeout: 5 * MINUTES,
    });
    return path.join(dir, 'dist');
  })();
  return build;
}

/**
 * A runtime folder as the image lays it out: package files, dist/, sql/, assets/, production dependencies.
 * The install does not need dist/, so it runs while the build does.
 */
async function productionFolder(npmFlags: string[]): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-prod-'));
  folders.push(dir);
  for (const file of ['package.json', 'package-lock.json'])
    fs.copyFileSync(path.join(root, file), path.join(dir, file));
  fs.cpSync(path.join(root, 'sql'), path.join(dir, 'sql'), { recursive: true });
  fs.cpSync(path.join(root, 'assets'), path.join(dir, 'assets'), { recursive: true });
  // From npm's cache when it holds the packages (CI's `npm ci` filled it); no install scripts, as in the image.
  const install = run(
    'npm',
    ['ci', '--omit=dev', ...npmFlags, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'],
    { cwd: dir, timeout: 10 * MINUTES },
  );
  const [dist] = await Promise.all([builtOnce(), install]);
  fs.cpSync(dist, path.join(dir, 'dist'), { recursive: true });
  return dir;
}

/**
 * The two folders the tests run, prepared at once from the file's start (the build shared): each
 * test waits for its own. A failure is reported by the test that waits for it.
 */
let compiledFolder: Promise<string>;
let withoutOptionalFolder: Promise<string>;
function prepareFolders(): void {
  compiledFolder = productionFolder([]);
  withoutOptionalFolder = productionFolder(['--omit=optional']);
  for (const folder of [compiledFolder, withoutOptionalFolder]) folder.catch(() => {});
}

/** What a new operator checks first: the service is up, a short link redirects, the web SDK is served. */
async function expectServes(address: string, name: string): Promise<void> {
  const health = await fetch(`${address}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok' });

  await linksOf(address, name, 'prod', 1);
  const click = await fetch(`${address}/prod0`, {
    redirect: 'manual',
    headers: { 'user-agent': BROWSER, accept: 'text/html' },
  });
  expect(click.status).toBe(302);
  expect(click.headers.get('location')).toBe('https://example.com/prod0');

  const version = (await (await fetch(`${address}/api/v1/sdk/web/version`)).json()) as { sdkUrl: string };
  const sdk = await fetch(`${address}${version.sdkUrl}`);
  expect(sdk.status).toBe(200);
  expect(sdk.headers.get('content-type')).toContain('javascript');
  expect((await sdk.text()).length).toBeGreaterThan(1_000);
}

beforeAll(async () => {
  prepareFolders();
  isolation = await isolate({ fresh: true });
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  // No install still writing into a folder about to be removed.
  await Promise.allSettled([compiledFolder, withoutOptionalFolder]);
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  await isolation?.dispose();
});

describe(`the compiled service on production dependencies only (${backend})`, () => {
  it(
    'starts with node dist/main.js, answers /healthz and redirects a short link; LOG_PRETTY falls back to JSON with a warning',
    async () => {
      const dir = await compiledFolder;
      expect(fs.existsSync(path.join(dir, 'node_modules', 'tsx')), 'tsx is a development dependency').toBe(false);
      expect(fs.existsSync(path.join(dir, 'node_modules', 'esbuild')), 'esbuild is a development dependency').toBe(
        false,
      );
      expect(
        fs.existsSync(path.join(dir, 'node_modules', 'pino-pretty')),
        'pino-pretty is a development dependency',
      ).toBe(false);

      const service = await startService({ ...isolation, env: { ...isolation.env, LOG_PRETTY: 'true' } }, children, [
        process.execPath,
        path.join(dir, 'dist', 'main.js'),
      ]);
      expect(service.output()).toContain('pino-pretty (a development dependency) is not installed: logging JSON');
      await expectServes(service.address, 'Compiled');
      service.child.kill('SIGTERM');
    },
    20 * MINUTES,
  );

  it(
    'without the optional embedded ClickHouse and without CLICKHOUSE_URL, refuses to start and says what to set',
    async () => {
      const dir = await withoutOptionalFolder;
      expect(fs.existsSync(path.join(dir, 'node_modules', 'chdb'))).toBe(false);
      const { CLICKHOUSE_URL: _server, ...env } = isolation.env;
      const child = spawn(process.execPath, [path.join(dir, 'dist', 'main.js')], {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...env,
          DATA_DIR: fs.mkdtempSync(path.join(dir, 'data-')),
          PORT: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(2);
      expect(stderr).toContain(
        'CLICKHOUSE_URL is not set and the embedded ClickHouse engine (the optional package chdb) is not installed',
      );
    },
    20 * MINUTES,
  );
});

const BASE_IMAGE = 'node:24-bookworm-slim';

/** Why the image cannot be built here, or undefined when it can. */
async function dockerMissing(): Promise<string | undefined> {
  try {
    await run('docker', ['info'], { timeout: 30_000 });
  } catch {
    return 'Docker cannot run here (`docker info` fails): the compiled service was checked on production dependencies instead';
  }
  try {
    await run('docker', ['image', 'inspect', BASE_IMAGE], { timeout: 30_000 });
  } catch {
    try {
      await run('docker', ['pull', BASE_IMAGE], { timeout: 10 * MINUTES });
    } catch {
      return `the base image ${BASE_IMAGE} is neither present nor pullable: the compiled service was checked on production dependencies instead`;
    }
  }
  return undefined;
}

describe.runIf(backend === 'embedded')('the container image', () => {
  const tag = `signpost-test:${process.pid}`;
  let container: string | undefined;

  afterAll(async () => {
    if (container) await run('docker', ['rm', '-f', container]).catch(() => {});
    await run('docker', ['rmi', '-f', tag]).catch(() => {});
  });

  it(
    'builds, starts on the embedded engines, answers /healthz and redirects a short link',
    async (ctx) => {
      const missing = await dockerMissing();
      ctx.skip(missing !== undefined, missing);
      await run('docker', ['build', '-t', tag, '.'], { cwd: root, timeout: 30 * MINUTES, maxBuffer: 64 * 1024 * 1024 });
      container = (
        await run('docker', ['run', '-d', '-p', '127.0.0.1::8080', '-e', `SIGNPOST_ADMIN_TOKEN=${ADMIN_TOKEN}`, tag])
      ).stdout.trim();
      const port = (await run('docker', ['port', container, '8080/tcp'])).stdout
        .trim()
        .split('\n')[0]!
        .split(':')
        .at(-1);
      const address = `http://127.0.0.1:${port}`;
      await eventually(
        async () => (await fetch(`${address}/healthz`)).ok,
        3 * MINUTES,
        'the container to answer /healthz',
      );
      await expectServes(address, 'Contained');
    },
    40 * MINUTES,
  );
});
