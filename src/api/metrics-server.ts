// /metrics away from the traffic: on a port of its own (METRICS_PORT), which a deployment keeps
// inside its network, and/or behind a bearer token (METRICS_TOKEN). The separate port serves
// /metrics alone, from a bare Node server: a scrape never queues behind the API, and nothing else
// of the service is reachable there.
import http from 'node:http';
import { secretsEqual } from '../shared/secrets.js';
import type { Metrics } from '../shared/metrics.js';
import { errorBody } from './error-handler.js';

/** Whether a request's Authorization header carries the metrics token (always, when none is set). */
export function metricsAuthorized(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
  return match?.[1] !== undefined && secretsEqual(match[1].trim(), token);
}

export const METRICS_TOKEN_INVALID = {
  status: 401,
  code: 'METRICS_TOKEN_INVALID',
  message: 'the metrics token is missing or wrong',
} as const;

function sendJson(
  res: http.ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(JSON.stringify(errorBody(status, code, message)));
}

export function createMetricsServer(options: {
  metrics: Metrics;
  token: string | undefined;
  onError: (err: unknown) => void;
}): http.Server {
  const { metrics, token } = options;
  return http.createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      sendJson(res, 404, 'ROUTE_NOT_FOUND', `no route for ${req.method} ${path}`);
      return;
    }
    if (!metricsAuthorized(req.headers.authorization, token)) {
      sendJson(res, METRICS_TOKEN_INVALID.status, METRICS_TOKEN_INVALID.code, METRICS_TOKEN_INVALID.message, {
        'www-authenticate': 'Bearer',
      });
      return;
    }
    metrics.render().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType, 'x-content-type-options': 'nosniff' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        options.onError(err);
        sendJson(res, 500, 'INTERNAL_ERROR', 'internal server error');
      },
    );
  });
}
