// Liveness (/healthz, part of the operator interface), readiness (/readyz) and Prometheus metrics.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from './deps.js';

export const healthRoutes: FastifyPluginAsyncZod<{ deps: Pick<AppDeps, 'lifecycle' | 'metrics'> }> = async (app, { deps }) => {
  app.get('/healthz', {
    schema: { tags: ['operations'], summary: 'Liveness', response: { 200: z.object({ status: z.literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/readyz', {
    schema: {
      tags: ['operations'],
      summary: 'Readiness: 503 while starting or shutting down',
      response: { 200: z.object({ status: z.literal('ready') }), 503: z.object({ status: z.literal('unavailable') }) },
    },
  }, async (_request, reply) => {
    if (deps.lifecycle.isReady()) return { status: 'ready' as const };
    return reply.code(503).send({ status: 'unavailable' as const });
  });

  app.get('/metrics', { schema: { tags: ['operations'], summary: 'Prometheus metrics', hide: true } }, async (_request, reply) =>
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(await deps.metrics.render()),
  );
};
