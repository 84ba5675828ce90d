// One console API route as they all read: documented under the console's tag and session security,
// with its params and body parsed, and answered with `status` and what the handler returns, or
// with 204 and no body once the handler is done.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { security, tags } from './route-docs.js';

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

export interface ConsoleRouteDoc<P extends z.ZodType, B extends z.ZodType> {
  summary: string;
  description?: string;
  params?: P;
  body?: B;
  /** 200 unless said; 204 answers no body and needs no `response`. */
  status?: 200 | 201 | 204;
  response?: z.ZodType;
  errors: Record<number, z.ZodType>;
}

/** The request a console route's handler gets, with its params and body as parsed. */
export type ConsoleRequest<P extends z.ZodType, B extends z.ZodType> = FastifyRequest & {
  params: z.output<P>;
  body: z.output<B>;
};

/** `method` `url`: `run`'s result with `doc.status` (200 unless said), or 204 with no body. */
export function consoleRoute<P extends z.ZodType, B extends z.ZodType>(
  app: ZodApp,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  doc: ConsoleRouteDoc<P, B>,
  run: (request: ConsoleRequest<P, B>, reply: FastifyReply) => Promise<unknown>,
): void {
  const { status = 200, response = z.null(), errors, params, body, ...text } = doc;
  app.route({
    method,
    url,
    schema: {
      tags,
      security,
      ...text,
      ...(params ? { params: params as z.ZodType } : {}),
      ...(body ? { body: body as z.ZodType } : {}),
      response: { [status]: response, ...errors },
    },
    handler: async (request, reply) => {
      const answer = await run(request as ConsoleRequest<P, B>, reply);
      return reply.code(status).send(status === 204 ? null : answer);
    },
  });
}
