// Liveness (/healthz, part of the operator interface), readiness (/readyz) and Prometheus metrics
// (here unless METRICS_PORT moves them to a port of their own: metrics-server.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { unauthenticated } from '../shared/errors.js';
import type { Config } from '../shared/config.js';
import type { Metrics } from '../shared/metrics.js';
import { METRICS_TOKEN_INVALID, metricsAuthorized } from './metrics-server.js';

export interface Lifecycle {
  /** False while starting and from the first moment of shutdown: /readyz answers 503. */
  isReady(): boolean;
}

export interface HealthDeps {
  lifecycle: Lifecycle;
  metrics: Metrics;
  config: Pick<Config, 'metrics'>;
}

export const healthRoutes: FastifyPluginAsyncZod<{ deps: HealthDeps }> = async (app, { deps }) => {
  app.get(
    '/healthz',
    {
      schema: { tags: ['operations'], summary: 'Liveness', response: { 200: z.object({ status: z.literal('ok') }) } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: 503 while starting or shutting down',
        response: {
          200: z.object({ status: z.literal('ready') }),
          503: z.object({ status: z.literal('unavailable') }),
        },
      },
    },
    async (_request, reply) => {
      if (deps.lifecycle.isReady()) return { status: 'ready' as const };
      return reply.code(503).send({ status: 'unavailable' as const });
    },
  );

  if (deps.config.metrics.port !== undefined) return;
  const token = deps.config.metrics.token;
  app.get(
    '/metrics',
    { schema: { tags: ['operations'], summary: 'Prometheus metrics', hide: true } },
    async (request, reply) => {
      if (!metricsAuthorized(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer');
        throw unauthenticated(METRICS_TOKEN_INVALID.code, METRICS_TOKEN_INVALID.message);
      }
      return reply.type(deps.metrics.contentType).send(await deps.metrics.render());
    },
  );
};
