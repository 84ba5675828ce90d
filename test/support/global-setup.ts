// Fails fast, with a clear message, when the services run cannot reach its servers.
import net from 'node:net';
import { backend, servicesEnv } from './backend.js';

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || defaultPort) });
    socket.setTimeout(3000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export default async function setup(): Promise<void> {
  if (backend !== 'services') return;
  const missing: string[] = [];
  if (!(await reachable(servicesEnv.postgresAdminUrl, 5432)))
    missing.push(`PostgreSQL at ${servicesEnv.postgresAdminUrl}`);
  if (!(await reachable(servicesEnv.natsUrl, 4222))) missing.push(`NATS at ${servicesEnv.natsUrl}`);
  if (missing.length > 0) throw new Error(`test:services needs ${missing.join(' and ')}`);
}
