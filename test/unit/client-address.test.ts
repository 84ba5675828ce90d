// The fast redirect path computes the client's address and host itself; it must agree with
// Fastify's request.ip and request.hostname for every TRUST_PROXY form and header combination.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createClientAddress } from '../../src/api/client-address.js';
import type { TrustProxy } from '../../src/shared/config.js';

async function compare(trust: TrustProxy, headers: Record<string, string>) {
  const ours = createClientAddress(trust);
  let mine: { ip: string; hostname: string; protocol: string } | undefined;
  const app = Fastify({
    trustProxy: trust as boolean | string[],
    serverFactory: (handler) =>
      http.createServer((req, res) => {
        mine = { ip: ours.ip(req), hostname: ours.hostname(req), protocol: ours.protocol(req) };
        handler(req, res);
      }),
  });
  app.get('/', async (request) => ({ ip: request.ip, hostname: request.hostname, protocol: request.protocol }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const port = (app.server.address() as AddressInfo).port;
    const theirs = await new Promise<{ ip: string; hostname: string; protocol: string }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/', headers, agent: false }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve(JSON.parse(body)));
        })
        .on('error', reject);
    });
    return { mine, theirs };
  } finally {
    await app.close();
  }
}

const HEADERS: Record<string, string>[] = [
  { host: 'sgnp.example' },
  { host: 'sgnp.example:8443' },
  { host: '[::1]:8080' },
  { host: 'sgnp.example', 'x-forwarded-for': '198.51.100.7' },
  { host: 'sgnp.example', 'x-forwarded-for': '203.0.113.9, 10.0.0.2, 127.0.0.1' },
  { host: 'internal:8080', 'x-forwarded-host': 'brand.example' },
  { host: 'internal:8080', 'x-forwarded-host': 'evil.example, brand.example:443' },
  { host: 'sgnp.example', 'x-forwarded-proto': 'https' },
  { host: 'sgnp.example', 'x-forwarded-proto': 'http, https' },
];

describe('client address as Fastify computes it', () => {
  const trusts: TrustProxy[] = [false, true, 2, ['127.0.0.1'], ['10.0.0.0/8'], ['loopback', '10.0.0.0/8']];
  for (const trust of trusts) {
    it(`agrees with request.ip, request.hostname and request.protocol for TRUST_PROXY ${JSON.stringify(trust)}`, async () => {
      for (const headers of HEADERS) {
        const { mine, theirs } = await compare(trust, headers);
        expect(mine, JSON.stringify(headers)).toEqual(theirs);
      }
    });
  }
});
