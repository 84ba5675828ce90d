// The rules a webhook URL must meet, checked when the operator sets it and again before every
// delivery: https (plain http only to loopback, and only when WEBHOOK_ALLOW_INSECURE is set), no
// credentials, no local host name, and a host whose every resolved address is public. The delivery then connects to
// the address checked here, so a DNS answer that changes in between cannot redirect it.
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { addressRefusal, isLocalName, isLoopbackAddress } from './public-address.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address of a host name (the system resolver, as an HTTP client would use it). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export type UrlProblem = {
  ok: false;
  code: 'WEBHOOK_URL_INVALID' | 'WEBHOOK_URL_INSECURE' | 'WEBHOOK_URL_FORBIDDEN' | 'WEBHOOK_DNS_FAILED';
  message: string;
};

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.']);

/** `[::1]` → `::1`; WHATWG URL has already turned `2130706433` or `0x7f.1` into dotted form. */
export const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** The checks that need no DNS. */
export function checkUrlShape(raw: string, options: { allowInsecure: boolean }): { ok: true; url: URL } | UrlProblem {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, code: 'WEBHOOK_URL_INVALID', message: 'url is not a valid URL' };
  }
  if (url.username || url.password)
    return { ok: false, code: 'WEBHOOK_URL_INVALID', message: 'url must not carry credentials' };
  const host = bareHost(url);
  const loopbackHost = LOOPBACK_NAMES.has(host.toLowerCase()) || (isIP(host) !== 0 && isLoopbackAddress(host));
  const plainAllowed = url.protocol === 'http:' && options.allowInsecure && loopbackHost;
  if (url.protocol !== 'https:' && !plainAllowed) {
    return { ok: false, code: 'WEBHOOK_URL_INSECURE', message: 'url must start with https://' };
  }
  // A local name (x.internal, router.lan, nas.home.arpa, foo.localhost, localhost.) is refused up
  // front, as link destinations refuse it, whatever it resolves to here and now; localhost itself
  // stays open where plain loopback is (development).
  if (isLocalName(host) && !(options.allowInsecure && loopbackHost)) {
    return {
      ok: false,
      code: 'WEBHOOK_URL_FORBIDDEN',
      message: `url names a local host (${host}), which may not be reached from the service`,
    };
  }
  if (isIP(host) !== 0) {
    const refused = addressRefusal(host, { allowLoopback: options.allowInsecure });
    if (refused)
      return {
        ok: false,
        code: 'WEBHOOK_URL_FORBIDDEN',
        message: `url points at a ${refused} address, which webhooks may not reach`,
      };
  }
  return { ok: true, url };
}

/**
 * The address to connect to: the literal itself, or the first resolved address when none of them
 * is forbidden (a name with one private address among public ones is refused outright).
 */
export async function resolveDeliveryAddress(
  url: URL,
  options: { allowInsecure: boolean; resolve: Resolve; timeoutMs?: number },
): Promise<{ ok: true; address: ResolvedAddress } | UrlProblem> {
  const host = bareHost(url);
  const family = isIP(host);
  let addresses: ResolvedAddress[];
  if (family !== 0) {
    addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await withTimeout(options.resolve(host), options.timeoutMs ?? 5_000);
    } catch (err) {
      return {
        ok: false,
        code: 'WEBHOOK_DNS_FAILED',
        message: `could not resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      };
    }
    if (addresses.length === 0) return { ok: false, code: 'WEBHOOK_DNS_FAILED', message: `${host} has no address` };
  }
  for (const a of addresses) {
    const refused = addressRefusal(a.address, { allowLoopback: options.allowInsecure });
    if (refused)
      return {
        ok: false,
        code: 'WEBHOOK_URL_FORBIDDEN',
        message: `${host} resolves to a ${refused} address, which webhooks may not reach`,
      };
    // Plain HTTP is a development convenience for this machine only.
    if (url.protocol === 'http:' && !isLoopbackAddress(a.address)) {
      return { ok: false, code: 'WEBHOOK_URL_INSECURE', message: 'plain http is allowed to loopback addresses only' };
    }
  }
  return { ok: true, address: addresses[0]! };
}

/**
 * The operator's check: the shape, then the addresses the name has now. A name that does not
 * resolve (yet) is accepted; every delivery resolves and checks it again anyway.
 */
export async function validateWebhookUrl(
  raw: string,
  options: { allowInsecure: boolean; resolve: Resolve },
): Promise<{ ok: true; url: URL } | UrlProblem> {
  const shape = checkUrlShape(raw, options);
  if (!shape.ok) return shape;
  const resolved = await resolveDeliveryAddress(shape.url, { ...options, timeoutMs: 3_000 });
  if (!resolved.ok && resolved.code !== 'WEBHOOK_DNS_FAILED') return resolved;
  return shape;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('DNS timeout'), { code: 'ETIMEOUT' })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
