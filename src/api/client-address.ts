// The client's address and the host it asked for, from a raw Node request, exactly as Fastify 5
// computes request.ip and request.hostname (lib/request.js) for the same trustProxy setting. The
// redirect fast path answers before Fastify sees the request, and must record the same values.
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../shared/config.js';

export interface ClientAddress {
  ip(req: IncomingMessage): string;
  /** The Host (or trusted X-Forwarded-Host) without its port; IPv6 literals keep their brackets. */
  hostname(req: IncomingMessage): string;
  /** `https` or `http`: the trusted X-Forwarded-Proto, else whether the socket is TLS. */
  protocol(req: IncomingMessage): string;
}

type TrustFn = (address: string, hop: number) => boolean;

function trustFunction(trust: TrustProxy): TrustFn | undefined {
  if (trust === false) return undefined;
  if (trust === true) return () => true;
  // Fastify fails closed on a bare hop count: the immediate peer cannot be validated.
  if (typeof trust === 'number') return () => false;
  return proxyAddr.compile(trust);
}

const lastEntry = (value: string) => {
  const comma = value.lastIndexOf(',');
  return comma === -1 ? value.trim() : value.slice(comma + 1).trim();
};

const socketProtocol = (req: IncomingMessage) => ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');

const withoutPort = (host: string) => (host[0] === '[' ? host.slice(0, host.indexOf(']') + 1) : host.split(':', 1)[0]!);

export function createClientAddress(trust: TrustProxy): ClientAddress {
  const trusted = trustFunction(trust);
  if (!trusted) {
    return {
      ip: (req) => req.socket.remoteAddress ?? '',
      hostname: (req) => withoutPort(req.headers.host ?? ''),
      protocol: socketProtocol,
    };
  }
  return {
    ip(req) {
      const all = proxyAddr.all(req, trusted);
      return all[all.length - 1] ?? '';
    },
    hostname(req) {
      const forwarded = req.headers['x-forwarded-host'];
      const peer = req.socket.remoteAddress;
      if (typeof forwarded === 'string' && forwarded && peer !== undefined && trusted(peer, 0))
        return withoutPort(lastEntry(forwarded));
      return withoutPort(req.headers.host ?? '');
    },
    protocol(req) {
      const forwarded = req.headers['x-forwarded-proto'];
      const peer = req.socket.remoteAddress;
      if (typeof forwarded === 'string' && forwarded && peer !== undefined && trusted(peer, 0))
        return lastEntry(forwarded);
      return socketProtocol(req);
    },
  };
}
