// The Service API's credentials as the request carries them: X-API-KEY and the client address.
// The rules are the access core's; a wrong key also counts against the address (auth-failures.ts).
// The scope the call needs comes from the route it reached (key-scopes.ts).
import type { FastifyRequest } from 'fastify';
import { isDomainError } from '../../shared/errors.js';
import type { ServiceKeyAccess } from '../../core/access/service-keys.js';
import type { ServiceCaller } from '../../core/caller.js';
import { limited, type AuthFailureLimiter } from '../auth-failures.js';
import { keyScopeOf } from './key-scopes.js';

const wrongKey = (err: unknown) => isDomainError(err) && err.code === 'API_KEY_INVALID';

export function serviceKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  return Array.isArray(header) ? header[0] : header;
}

export function createServiceAuthenticator(serviceKey: ServiceKeyAccess, failures: AuthFailureLimiter) {
  /** A missing key is not counted as a failure; a wrong one is. */
  return (request: FastifyRequest): Promise<ServiceCaller> =>
    limited(failures, request, wrongKey, () =>
      serviceKey(serviceKeyOf(request), request.ip, keyScopeOf(request.method, request.routeOptions.url)),
    );
}

export type ServiceAuthenticator = ReturnType<typeof createServiceAuthenticator>;
