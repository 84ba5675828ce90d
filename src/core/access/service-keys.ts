// Service API callers, checked in this order: a key, live and not expired (unauthenticated), the
// organization's IP allow-list (forbidden), the key's scopes against the one the operation needs
// (forbidden), the monthly call quota (limited until the next UTC month). The look-up is one
// indexed query that also brings this month's recorded calls; the meter adds the ones not
// written yet, and counts this call.
import { forbidden, limitReached, unauthenticated } from '../../shared/errors.js';
import { normalizeIp } from '../../shared/ip.js';
import { secondsUntilNextUtcMonth, utcMonthStart } from '../../shared/time.js';
import type { ApiKeysRepo } from '../../oltp/api-keys.repo.js';
import type { UsageMeter } from '../../oltp/usage-meter.js';
import type { ServiceCaller } from '../caller.js';
import { type OperationScope, requireScope } from './api-key-scopes.js';
import { ipAllowed } from './ip-allow-rule.js';

/** Longer than any key issued: refused without a look-up. */
const MAX_KEY_LENGTH = 200;

/**
 * The scope a call needs: an operation's own; `null`, an operation without one (full-access keys
 * only); `undefined`, no operation at all (an unknown path, answered 404 after the key is checked).
 */
export type NeededScope = OperationScope | null | undefined;

export function createServiceKeyAccess(deps: { apiKeys: ApiKeysRepo; usageMeter: UsageMeter; clock: () => Date }) {
  return async function authenticate(
    key: string | undefined,
    clientIp: string,
    needed: NeededScope,
  ): Promise<ServiceCaller> {
    if (!key) throw unauthenticated('API_KEY_MISSING', 'X-API-KEY header is required');
    const now = deps.clock();
    const found = key.length <= MAX_KEY_LENGTH ? await deps.apiKeys.authenticate(key, utcMonthStart(now)) : undefined;
    if (!found) throw unauthenticated('API_KEY_INVALID', 'the API key is invalid or has been deleted');
    if (found.expiredAt) {
      throw unauthenticated('API_KEY_EXPIRED', `the API key expired at ${found.expiredAt.toISOString()}`);
    }
    const { organization } = found;
    if (!ipAllowed(organization.ipAllowlist, clientIp)) {
      throw forbidden('IP_NOT_ALLOWED', `requests from ${normalizeIp(clientIp)} are not allowed for this organization`);
    }
    if (needed !== undefined) requireScope(found.scopes, needed);
    const used = found.callsThisMonth + deps.usageMeter.pending(organization.id, now);
    if (used >= organization.monthlyQuota) {
      throw limitReached(
        'QUOTA_EXCEEDED',
        `the monthly Service API quota of ${organization.monthlyQuota} calls is used up`,
        secondsUntilNextUtcMonth(now),
      );
    }
    deps.usageMeter.count(organization.id, now);
    return { organization, app: null, channel: 'service', apiKeyId: found.apiKeyId };
  };
}

export type ServiceKeyAccess = ReturnType<typeof createServiceKeyAccess>;
