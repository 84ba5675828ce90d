// HTML form posts of the sign-in pages: their body parser, and the same-origin rule every
// state-changing browser request passes (a cross-site page cannot post here on a user's behalf).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../../shared/errors.js';
import { requestOrigin } from './browser-session.js';

export function registerFormParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16_384 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}

/** Refuses a request whose Origin (or Referer) is missing or another origin than the service's. */
export function sameOrigin(request: FastifyRequest, publicBaseUrl: string): void {
  const origin = requestOrigin(request);
  if (origin !== new URL(publicBaseUrl).origin) {
    throw forbidden(
      'CSRF_ORIGIN_MISMATCH',
      origin === undefined ? 'the request names no Origin' : `requests from ${origin} are not accepted here`,
    );
  }
}
