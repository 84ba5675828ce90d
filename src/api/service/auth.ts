// The Service API's credentials as the request carries them: X-API-KEY and the client address.
// The rules are the access core's; a wrong key also counts against the address (auth-failures.ts).
import type { FastifyRequest } from 'fastify';
import { isDomainError } from '../../shared/errors.js';
import type { KeyUse, ServiceKeyAccess } from '../../core/access/service-keys.js';
import type { ServiceCaller } from '../../core/caller.js';
import { limited, type AuthFailureLimiter } from '../auth-failures.js';

const wrongKey = (err: unknown) => isDomainError(err) && err.code === 'API_KEY_INVALID';

export function serviceKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  return Array.isArray(header) ? header[0] : header;
}

/** A GET (or HEAD) reads; every other method writes, as a read-only key's scope counts them. */
const keyUseOf = (request: FastifyRequest): KeyUse =>
  request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';

export function createServiceAuthenticator(serviceKey: ServiceKeyAccess, failures: AuthFailureLimiter) {
  /** A missing key is not counted as a failure; a wrong one is. */
  return (request: FastifyRequest): Promise<ServiceCaller> =>
    limited(failures, request, wrongKey, () => serviceKey(serviceKeyOf(request), request.ip, keyUseOf(request)));
}

export type ServiceAuthenticator = ReturnType<typeof createServiceAuthenticator>;
