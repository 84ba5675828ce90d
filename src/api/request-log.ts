// Every answer's latency in Prometheus histograms and its access-log line at info. Redirects, the
// bulk of the traffic, have a histogram of their own (by status) and are logged by sample
// (ACCESS_LOG_REDIRECT_SAMPLE); every other request is labelled by its route pattern, never by its
// URL, so ids and codes do not make a series each. Probes and scrapes log at debug.
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../shared/logger.js';
import { LATENCY_BUCKETS, type BoundHistogram, type Metrics } from '../shared/metrics.js';

/** The statuses a redirect answers: 302, a preview, landing or interstitial page, 404, 410, 503. */
const REDIRECT_STATUSES = ['200', '302', '404', '410', '503'];
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

export interface RequestLogOptions {
  metrics: Metrics;
  log: Logger;
  /** Share of redirects that get an access-log line, 0 to 1. */
  redirectSample: number;
  /** Route patterns that are the redirect. */
  redirectRoutes: readonly string[];
}

/** What the redirect's fast path reports of an answer it sent itself (a 302). */
export type FastRedirectAnswered = (req: IncomingMessage, path: string, requestId: string, startedAt: number) => void;

export function registerRequestLog(app: FastifyInstance, options: RequestLogOptions): FastRedirectAnswered {
  const { metrics, redirectSample } = options;
  const http = metrics.histogram(
    'http_request_duration_seconds',
    'Answers of the APIs and pages (not redirects) by route pattern, method and status',
    {
      labels: { method: [], route: [], status: [] },
      buckets: LATENCY_BUCKETS,
    },
  );
  const redirect = metrics.histogram('redirect_duration_seconds', 'Redirect answers by status', {
    labels: { status: REDIRECT_STATUSES },
    buckets: LATENCY_BUCKETS,
  });
  const redirectByStatus = new Map<number, BoundHistogram>(
    REDIRECT_STATUSES.map((status) => [Number(status), redirect.bind({ status })]),
  );
  const found = redirectByStatus.get(302)!;
  const redirectRoutes = new Set(options.redirectRoutes);
  const sampled = () => redirectSample > 0 && (redirectSample >= 1 || Math.random() < redirectSample);

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url;
    const status = reply.statusCode;
    const ms = reply.elapsedTime;
    const isRedirect = route !== undefined && redirectRoutes.has(route);
    if (isRedirect) {
      (redirectByStatus.get(status) ?? redirect.bind({ status: String(status) })).observe(ms / 1000);
    } else {
      http.bind({ method: request.method, route: route ?? 'unmatched', status: String(status) }).observe(ms / 1000);
    }
    if (!isRedirect || sampled()) {
      const path = request.url.split('?', 1)[0];
      const line = { method: request.method, path, route, status, ms: Math.round(ms * 100) / 100 };
      if (route !== undefined && PROBES.has(route)) request.log.debug(line, 'request');
      else request.log.info(line, 'request');
    }
    done();
  });

  const log = options.log.child({ module: 'http' });
  return (req, path, requestId, startedAt) => {
    const ms = performance.now() - startedAt;
    found.observe(ms / 1000);
    if (sampled())
      log.info(
        { reqId: requestId, method: req.method, path, route: '/:slug', status: 302, ms: Math.round(ms * 100) / 100 },
        'request',
      );
  };
}
