// A private nats-server for the tests that stop and start NATS, so the shared one is never disturbed.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from './ports.js';

export const NATS_SERVER = '/usr/sbin/nats-server';

/** JetStream on `port`, its files in `storeDir` (kept across a restart on the same folder). */
function startNats(port: number, storeDir: string): ChildProcess {
  return spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
}

/** A private JetStream server that a test can kill and start again; its files survive a restart. */
export interface PrivateNats {
  url: string;
  /** SIGKILL, as a crash would; resolves once the process is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port and folder; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Kills it and removes its folder. */
  dispose(): Promise<void>;
}

export async function privateNats(): Promise<PrivateNats> {
  const port = await freePort();
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-nats-'));
  let server: ChildProcess | undefined;
  const kill = async () => {
    const running = server;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  const start = async () => {
    server = startNats(port, storeDir);
    await waitForPort(port);
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    kill,
    start,
    async dispose() {
      await kill();
      fs.rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
