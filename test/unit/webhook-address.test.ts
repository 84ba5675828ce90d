// Where webhooks may connect: address classes in every spelling (IPv4-mapped IPv6 and friends),
// the URL rules at configuration, the re-check at delivery when DNS has changed, and the pinned
// connection that goes to the checked address while Host names the host.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressRefusal, classifyAddress, hostRefusal } from '../../src/shared/public-address.js';
import {
  checkUrlShape,
  resolveDeliveryAddress,
  validateWebhookUrl,
  type Resolve,
} from '../../src/shared/webhook-url.js';
import { sendWebhook } from '../../src/core/webhooks/webhook-sender.js';

describe('hostRefusal (link targets): the host as a browser parses it, no DNS', () => {
  it.each([
    ['https://10.0.0.1/', 'private'],
    ['https://2130706433/', 'loopback'],
    ['https://0x7f.1/', 'loopback'],
    ['https://0177.0.0.1/', 'loopback'],
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://[::ffff:a9fe:a9fe]/', 'metadata'],
    ['https://169.254.169.254/', 'metadata'],
    ['https://localhost./', 'local-name'],
    ['https://db.internal/', 'local-name'],
    ['https://nas.home.arpa/', 'local-name'],
    ['https://example.com/', undefined],
    ['https://8.8.8.8/', undefined],
    ['https://[2001:4860:4860::8888]/', undefined],
    ['https://localhost.example.com/', undefined],
  ])('%s → %s', (url, expected) => {
    expect(hostRefusal(new URL(url).hostname)).toBe(expected);
  });
});

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['not-an-ip', 'invalid'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('sees the IPv4 address inside IPv4-mapped, compatible, NAT64 and 6to4 IPv6 forms', () => {
    expect(classifyAddress('::ffff:127.0.0.1')).toBe('loopback');
    expect(classifyAddress('::ffff:7f00:1')).toBe('loopback');
    expect(classifyAddress('::ffff:169.254.169.254')).toBe('metadata');
    expect(classifyAddress('::ffff:a9fe:a9fe')).toBe('metadata');
    expect(classifyAddress('[::ffff:10.0.0.1]')).toBe('private');
    expect(classifyAddress('0:0:0:0:0:ffff:192.168.0.1')).toBe('private');
    expect(classifyAddress('::ffff:8.8.8.8')).toBe('public');
    expect(classifyAddress('::10.0.0.1')).toBe('private');
    expect(classifyAddress('64:ff9b::a9fe:a9fe')).toBe('metadata');
    expect(classifyAddress('64:ff9b::8.8.8.8')).toBe('public');
    expect(classifyAddress('2002:7f00:1::')).toBe('loopback');
    expect(classifyAddress('2002:0808:0808::1')).toBe('public');
  });

  it('lets loopback through only when allowed, and nothing else', () => {
    expect(addressRefusal('127.0.0.1', { allowLoopback: true })).toBeUndefined();
    expect(addressRefusal('::ffff:127.0.0.1', { allowLoopback: true })).toBeUndefined();
    expect(addressRefusal('127.0.0.1', { allowLoopback: false })).toBe('loopback');
    expect(addressRefusal('10.0.0.1', { allowLoopback: true })).toBe('private');
    expect(addressRefusal('169.254.169.254', { allowLoopback: true })).toBe('metadata');
    expect(addressRefusal('8.8.8.8', { allowLoopback: false })).toBeUndefined();
  });
});

describe('webhook URL at configuration', () => {
  const nowhere: Resolve = async () => {
    throw Object.assign(new Error('no DNS'), { code: 'ENOTFOUND' });
  };
  const to =
    (...addresses: string[]): Resolve =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('wants https; plain http only to loopback and only when insecure is allowed', () => {
    expect(checkUrlShape('http://hooks.example.com/x', { allowInsecure: true })).toMatchObject({
      ok: false,
      code: 'WEBHOOK_URL_INSECURE',
    });
    expect(checkUrlShape('http://127.0.0.1:9/x', { allowInsecure: false })).toMatchObject({
      ok: false,
      code: 'WEBHOOK_URL_INSECURE',
    });
    expect(checkUrlShape('http://127.0.0.1:9/x', { allowInsecure: true })).toMatchObject({ ok: true });
    expect(checkUrlShape('http://localhost:9/x', { allowInsecure: true })).toMatchObject({ ok: true });
    expect(checkUrlShape('ftp://hooks.example.com/x', { allowInsecure: true })).toMatchObject({
      ok: false,
      code: 'WEBHOOK_URL_INSECURE',
    });
    expect(checkUrlShape('https://user:pw@hooks.example.com/x', { allowInsecure: false })).toMatchObject({
      ok: false,
      code: 'WEBHOOK_URL_INVALID',
    });
  });

  it('refuses private, metadata and loopback literals in every spelling', () => {
    for (const url of [
      'https://10.0.0.5/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::ffff:169.254.169.254]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://[fd00:ec2::254]/',
      'https://[fe80::1]/',
      'https://100.64.1.1/',
      'https://0.0.0.0/',
      'https://127.0.0.1/',
      'https://2130706433/', // 127.0.0.1 as one number
      'https://0x7f.1/', // and in hex
      'https://[::1]/',
    ]) {
      expect(checkUrlShape(url, { allowInsecure: false }), url).toMatchObject({
        ok: false,
        code: 'WEBHOOK_URL_FORBIDDEN',
      });
    }
    expect(checkUrlShape('https://10.0.0.5/', { allowInsecure: true })).toMatchObject({
      ok: false,
      code: 'WEBHOOK_URL_FORBIDDEN',
    });
  });

  it('refuses local names up front, whatever they resolve to (the names link destinations refuse)', () => {
    for (const url of [
      'https://metadata.google.internal/x',
      'https://x.internal/',
      'https://x.local/',
      'https://router.lan/',
      'https://nas.home.arpa/',
      'https://foo.localhost/',
      'https://localhost./',
      'https://localhost/',
    ]) {
      expect(checkUrlShape(url, { allowInsecure: false }), url).toMatchObject({
        ok: false,
        code: 'WEBHOOK_URL_FORBIDDEN',
        message: expect.stringContaining('local host'),
      });
    }
    // Where plain loopback is allowed (development), localhost itself stays open; other local names do not.
    expect(checkUrlShape('https://localhost:9/x', { allowInsecure: true })).toMatchObject({ ok: true });
    expect(checkUrlShape('https://router.lan/x', { allowInsecure: true })).toMatchObject({ ok: false });
    expect(checkUrlShape('https://hooks.example.com/x', { allowInsecure: false })).toMatchObject({ ok: true });
  });

  it('refuses a name that resolves to a private address, accepts one that does not resolve yet', async () => {
    await expect(
      validateWebhookUrl('https://hooks.example.com/x', { allowInsecure: false, resolve: to('10.0.0.7') }),
    ).resolves.toMatchObject({ ok: false, code: 'WEBHOOK_URL_FORBIDDEN' });
    // One bad address among good ones is enough to refuse.
    await expect(
      validateWebhookUrl('https://hooks.example.com/x', {
        allowInsecure: false,
        resolve: to('93.184.216.34', '::ffff:192.168.0.1'),
      }),
    ).resolves.toMatchObject({ ok: false, code: 'WEBHOOK_URL_FORBIDDEN' });
    await expect(
      validateWebhookUrl('https://hooks.example.com/x', { allowInsecure: false, resolve: to('93.184.216.34') }),
    ).resolves.toMatchObject({ ok: true });
    await expect(
      validateWebhookUrl('https://hooks.example.com/x', { allowInsecure: false, resolve: nowhere }),
    ).resolves.toMatchObject({ ok: true });
  });
});

describe('webhook address at delivery', () => {
  it('checks DNS again: a name that now points inside is refused, before any connection', async () => {
    let answer = '93.184.216.34';
    const resolve: Resolve = async () => [{ address: answer, family: 4 }];
    const url = new URL('https://hooks.example.com/x');
    await expect(resolveDeliveryAddress(url, { allowInsecure: false, resolve })).resolves.toEqual({
      ok: true,
      address: { address: '93.184.216.34', family: 4 },
    });
    answer = '169.254.169.254';
    await expect(resolveDeliveryAddress(url, { allowInsecure: false, resolve })).resolves.toMatchObject({
      ok: false,
      code: 'WEBHOOK_URL_FORBIDDEN',
    });
    answer = '127.0.0.1';
    await expect(resolveDeliveryAddress(url, { allowInsecure: false, resolve })).resolves.toMatchObject({
      ok: false,
      code: 'WEBHOOK_URL_FORBIDDEN',
    });
  });

  it('keeps plain http on loopback even when a name changes', async () => {
    const url = new URL('http://localhost:9/x');
    await expect(
      resolveDeliveryAddress(url, { allowInsecure: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] }),
    ).resolves.toMatchObject({ ok: true });
    await expect(
      resolveDeliveryAddress(url, {
        allowInsecure: true,
        resolve: async () => [{ address: '93.184.216.34', family: 4 }],
      }),
    ).resolves.toMatchObject({ ok: false, code: 'WEBHOOK_URL_INSECURE' });
  });

  it('reports a name that does not resolve', async () => {
    const resolve: Resolve = async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    };
    await expect(
      resolveDeliveryAddress(new URL('https://gone.example/x'), { allowInsecure: false, resolve }),
    ).resolves.toMatchObject({ ok: false, code: 'WEBHOOK_DNS_FAILED' });
  });
});

describe('sendWebhook', () => {
  let server: http.Server;
  let port: number;
  const seen: { host: string | undefined; body: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ host: req.headers.host, body });
        if (req.url === '/redirect') res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
        else if (req.url === '/big') res.writeHead(500).end('x'.repeat(100_000));
        else res.writeHead(200).end('thanks');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const send = (path: string) =>
    sendWebhook({
      // The name resolves nowhere: only the pinned address can have been used.
      url: new URL(`http://hooks.invalid:${port}${path}`),
      address: { address: '127.0.0.1', family: 4 },
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
      timeoutMs: 5_000,
      maxResponseBytes: 4096,
    });

  it('connects to the pinned address with Host naming the host', async () => {
    const result = await send('/ok');
    expect(result).toMatchObject({ status: 200, error: null, responseBody: 'thanks', aborted: false });
    expect(seen.at(-1)).toEqual({ host: `hooks.invalid:${port}`, body: '{"a":1}' });
  });

  it('does not follow a redirect, and keeps only the first 4 KB of an answer', async () => {
    const redirected = await send('/redirect');
    expect(redirected.status).toBe(302);
    expect(redirected.error).toMatch(/redirect .* not followed/);
    const big = await send('/big');
    expect(big.status).toBe(500);
    expect(big.responseBody!.length).toBe(4096);
  });
});
