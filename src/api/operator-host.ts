// The operator's surfaces (/docs, /openapi.json, /metrics, /readyz, the operator API) and the
// console with its sign-in (/console, /sso) answer only
// on the service's own host: PUBLIC_BASE_URL's, the names in OPERATOR_HOSTS, and the names a
// probe or scraper inside the deployment uses (an IP address, a single-label service name such as
// `signpost`, localhost and local names such as `signpost.monitoring.svc.cluster.local` or
// `metrics.internal`). A customer's custom domain (a public dotted name) gets the same 404 as
// a path that does not exist, so nothing about the operator shows through a customer's domain;
// a one-segment path there (/docs, /console, /metrics, /readyz) is the customer's: their link.
// /healthz stays on every host for load balancers; links, well-known files, the Service, SDK and
// journey APIs are unaffected.
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../shared/errors.js';
import { isLocalName } from '../shared/public-address.js';
import type { Config } from '../shared/config.js';

/** Route patterns (as registered) that belong to the operator. */
const OPERATOR_ROUTE = /^\/(?:docs(?:\/|$)|openapi\.json$|metrics$|readyz$|api\/admin(?:\/|$)|console(?:\/|$)|sso\/)/;

export function operatorHostRule(config: Pick<Config, 'server'>): (hostname: string) => boolean {
  const named = new Set([new URL(config.server.publicBaseUrl).hostname.toLowerCase(), ...config.server.operatorHosts]);
  return (hostname) => {
    const host = hostname.toLowerCase().replace(/\.$/, '');
    if (named.has(host) || host === '' || !host.includes('.')) return true;
    if (isLocalName(host)) return true;
    return isIP(host.replace(/^\[|\]$/g, '')) !== 0;
  };
}

/** A one-segment route path (`/docs`), whose segment a link may take on a custom domain. */
const ONE_SEGMENT = /^\/([^/]+)$/;

export function registerOperatorHostRule(
  app: FastifyInstance,
  config: Pick<Config, 'server'>,
  serveLink: (request: FastifyRequest, reply: FastifyReply, slug: string) => unknown,
): void {
  const isOperatorHost = operatorHostRule(config);
  app.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions.url;
    if (route !== undefined && OPERATOR_ROUTE.test(route) && !isOperatorHost(request.hostname)) {
      const path = request.url.split('?')[0] ?? '';
      const lone = ONE_SEGMENT.exec(route) && ONE_SEGMENT.exec(path);
      if (lone && (request.method === 'GET' || request.method === 'HEAD')) {
        // Answered here: the hook chain stops once the reply is sent.
        Promise.resolve(serveLink(request, reply, lone[1]!)).catch((err: unknown) => reply.send(err));
        return;
      }
      done(notFound('ROUTE_NOT_FOUND', `no route for ${request.method} ${path}`));
      return;
    }
    done();
  });
}
