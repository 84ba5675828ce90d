// The caller of a request, decided once by its context's onRequest hook (Service API key, SDK app
// credentials or user-journey access) and read by the route handlers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller } from '../core/caller.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** Declares the decoration once, on the root instance, for every context to set. */
export function decorateCaller(app: FastifyInstance): void {
  app.decorateRequest('caller', null);
}

/** The caller of a route whose context authenticates every request. */
export function callerOf(request: FastifyRequest): Caller {
  const caller = request.caller;
  if (!caller) throw new Error(`${request.routeOptions.url ?? 'route'} has no authentication hook`);
  return caller;
}
