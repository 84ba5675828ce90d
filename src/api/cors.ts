// CORS for the APIs browsers call directly (web SDK, user-journey identify/opt-in/events). They
// take no cookies, so any origin may call them; preflights are answered here, before routing,
// authentication or rate limits, so a browser always learns what it may send.
import type { FastifyInstance } from 'fastify';

const ALLOWED_HEADERS = 'Content-Type, X-App-ID, X-Mobile-App-API-Key, X-Request-Id';

/** Adds CORS to every route of an encapsulated context (call it inside the plugin). */
export function allowBrowserCalls(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', 'Retry-After, X-Request-Id');
    done();
  });
  // A preflight reaches no route handler of ours: answer every OPTIONS under the prefix.
  app.options('*', { schema: { hide: true } }, (_request, reply) => {
    reply
      .header('access-control-allow-methods', 'GET, POST, OPTIONS')
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', '86400')
      .code(204)
      .send();
  });
}
