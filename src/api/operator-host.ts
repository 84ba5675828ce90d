// The operator's surfaces (/docs, /openapi.json, /metrics, /readyz, the operator API) and the
// console with its sign-in (/console, /sso) answer only
// on the service's own host: PUBLIC_BASE_URL's, the names in OPERATOR_HOSTS, and the names a
// probe or scraper inside the deployment uses (an IP address, a single-label service name such as
// `signpost`, localhost and local names such as `signpost.monitoring.svc.cluster.local` or
// `metrics.internal`). A customer's custom domain (a public dotted name) gets the same 404 as
// a path that does not exist, so nothing about the operator shows through a customer's domain.
// /healthz stays on every host for load balancers; links, well-known files, the Service, SDK and
// journey APIs are unaffected.
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../shared/errors.js';
import { isLocalName } from '../shared/public-address.js';
import type { Config } from '../shared/config.js';

/** Route patterns (as registered) that belong to the operator. */
const OPERATOR_ROUTE = /^\/(?:docs(?:\/|$)|openapi\.json$|metrics$|readyz$|api\/admin(?:\/|$)|console(?:\/|$)|sso\/)/;

function operatorHostRule(config: Pick<Config, 'publicBaseUrl' | 'operatorHosts'>): (hostname: string) => boolean {
  const named = new Set([new URL(config.publicBaseUrl).hostname.toLowerCase(), ...config.operatorHosts]);
  return (hostname) => {
    const host = hostname.toLowerCase().replace(/\.$/, '');
    if (named.has(host) || host === '' || !host.includes('.')) return true;
    if (isLocalName(host)) return true;
    return isIP(host.replace(/^\[|\]$/g, '')) !== 0;
  };
}

export function registerOperatorHostRule(app: FastifyInstance, config: Pick<Config, 'publicBaseUrl' | 'operatorHosts'>): void {
  const isOperatorHost = operatorHostRule(config);
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    if (route !== undefined && OPERATOR_ROUTE.test(route) && !isOperatorHost(request.hostname)) {
      done(notFound('ROUTE_NOT_FOUND', `no route for ${request.method} ${request.url.split('?')[0]}`));
      return;
    }
    done();
  });
}
