// Service API authentication, in the order the spec implies: a key (401), the organization's IP
// allow-list (403), the monthly call quota (429 with Retry-After). The look-up is one indexed
// query that also brings this month's flushed call count; the meter adds the unflushed ones.
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { normalizeIp } from '../../shared/ip.js';
import { forbidden, isDomainError, limitReached, unauthenticated } from '../../shared/errors.js';
import { limited } from '../auth-failures.js';
import { secondsUntilNextUtcMonth, utcMonthStart } from '../../shared/time.js';
import type { Organization } from '../../oltp/organizations.repo.js';
import type { AppDeps } from '../deps.js';

export interface ServiceAuth {
  apiKeyId: number;
  organization: Organization;
}

declare module 'fastify' {
  interface FastifyRequest {
    serviceAuth: ServiceAuth | null;
  }
}


export function ipAllowed(allowlist: string[], clientIp: string): boolean {
  if (allowlist.length === 0) return true;
  const ip = normalizeIp(clientIp);
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  const list = new BlockList();
  for (const entry of allowlist) {
    const [address, prefix] = entry.split('/');
    if (!address) continue;
    const entryFamily = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, entryFamily);
    else list.addSubnet(address, Number(prefix), entryFamily);
  }
  return list.check(ip, family);
}

const wrongKey = (err: unknown) => isDomainError(err) && err.code === 'API_KEY_INVALID';

export function createServiceAuthenticator(deps: Pick<AppDeps, 'repos' | 'usageMeter' | 'clock' | 'authFailures'>) {
  /** Wrong keys count against the caller's address (auth-failures.ts); a missing one does not. */
  return (request: FastifyRequest): Promise<ServiceAuth> => limited(deps.authFailures.serviceKey, request, wrongKey, () => check(request));

  async function check(request: FastifyRequest): Promise<ServiceAuth> {
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) throw unauthenticated('API_KEY_MISSING', 'X-API-KEY header is required');
    const now = deps.clock();
    const found = key.length <= 200 ? await deps.repos.apiKeys.authenticate(key, utcMonthStart(now)) : undefined;
    if (!found) throw unauthenticated('API_KEY_INVALID', 'the API key is invalid or has been deleted');
    const { organization } = found;
    if (!ipAllowed(organization.ipAllowlist, request.ip)) {
      throw forbidden('IP_NOT_ALLOWED', `requests from ${normalizeIp(request.ip)} are not allowed for this organization`);
    }
    const used = found.callsThisMonth + deps.usageMeter.pending(organization.id, now);
    if (used >= organization.monthlyQuota) {
      throw limitReached(
        'QUOTA_EXCEEDED',
        `the monthly Service API quota of ${organization.monthlyQuota} calls is used up`,
        secondsUntilNextUtcMonth(now),
      );
    }
    deps.usageMeter.count(organization.id, now);
    return { apiKeyId: found.apiKeyId, organization };
  }
}
