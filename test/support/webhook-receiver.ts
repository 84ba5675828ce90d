// A webhook receiver on loopback that answers 200 "ok" to every POST and keeps what it got (the
// path, the headers, the raw body for signature checks, and the body parsed), in arrival order.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  body: { id: string; type: string; organizationId: number };
}

export interface WebhookReceiver {
  /** http://127.0.0.1:port */
  base: string;
  received: ReceivedHook[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      received.push({ path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw.toString('utf8')) });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
