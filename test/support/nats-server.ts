// A private nats-server for the tests that stop and start NATS, so the shared one is never disturbed.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { eventually } from './service.js';

export const NATS_SERVER = '/usr/sbin/nats-server';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** JetStream on `port`, its files in `storeDir` (kept across a restart on the same folder). */
export function startNats(port: number, storeDir: string): ChildProcess {
  return spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
}

export async function waitForPort(port: number): Promise<void> {
  await eventually(() => new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  }), 10_000, `NATS on port ${port}`);
}
