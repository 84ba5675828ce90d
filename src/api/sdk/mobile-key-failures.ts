// The SDK authenticator with failed mobile app API keys counted per client address: a caller
// that presented a key and was refused counts one failure; a missing key or an unknown app id
// without a key (browsers name the app only) does not. Kept apart from the authenticator and the
// per-app rate limit, which it wraps without changing.
import type { FastifyRequest } from 'fastify';
import { isDomainError } from '../../shared/errors.js';
import { limited, type AuthFailureLimiter } from '../auth-failures.js';
import type { SdkAuthenticator } from './app-auth.js';

const presentedKey = (request: FastifyRequest) => request.headers['x-mobile-app-api-key'] !== undefined;
const wrongKey = (err: unknown) => isDomainError(err) && err.code === 'APP_CREDENTIALS_INVALID';

export function withMobileKeyFailures(authenticator: SdkAuthenticator, limiter: AuthFailureLimiter): SdkAuthenticator {
  const guard = <T>(request: FastifyRequest, authenticate: () => Promise<T>) =>
    presentedKey(request) ? limited(limiter, request, wrongKey, authenticate) : authenticate();
  return {
    ...authenticator,
    mobile: (request) => guard(request, () => authenticator.mobile(request)),
    mobileOrBrowser: (request) => guard(request, () => authenticator.mobileOrBrowser(request)),
  };
}
