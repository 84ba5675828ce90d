// Who calls the HTTP API, and how much: failed authentications per client address (one limiter
// per surface, 429 after too many), and the SDK callers with their per-app and keyless limits.
import { type AuthFailureLimiters, createAuthFailureLimiters } from '../api/auth-failures.js';
import { createSdkAuthenticator } from '../api/sdk/app-auth.js';
import { withMobileKeyFailures } from '../api/sdk/mobile-key-failures.js';
import type { SdkCallers } from '../api/sdk/mobile-sdk-auth.js';
import { createSdkRateLimiter } from '../api/sdk/rate-limit.js';
import type { AccessService } from '../core/access/index.js';
import type { Config } from '../shared/config.js';

export function composeCallers(ctx: { config: Pick<Config, 'authFailures' | 'sdk'>; access: AccessService }): {
  authFailures: AuthFailureLimiters;
  sdk: SdkCallers;
} {
  const { config } = ctx;
  const authFailures = createAuthFailureLimiters(config.authFailures);
  const rateLimit = createSdkRateLimiter({
    keyedPerSecond: config.sdk.rateLimitPerSecond,
    keylessPerSecond: config.sdk.keylessRateLimitPerSecond,
    keylessBurst: config.sdk.keylessRateLimitBurst,
  });
  const authenticate = withMobileKeyFailures(createSdkAuthenticator(ctx.access.apps), authFailures.mobileKey);
  return { authFailures, sdk: { authenticate, rateLimit } };
}
