// The access core without HTTP: which credentials each journey access level needs, the add-on
// check, the app id format, and the order of the Service API key checks (key, allow-list, quota).
import { describe, expect, it } from 'vitest';
import {
  admitJourneyCaller,
  createServiceKeyAccess,
  journeyCredentials,
  parseAppId,
} from '../../src/core/access/index.js';
import type { Caller, Organization } from '../../src/core/caller.js';
import type { ApiKeysRepo } from '../../src/oltp/api-keys.repo.js';
import type { UsageMeter } from '../../src/oltp/usage-meter.js';
import { isDomainError } from '../../src/shared/errors.js';

const organization = (over: Partial<Organization> = {}): Organization => ({
  id: 7,
  name: 'Acme',
  plan: 'FREE',
  monthlyQuota: 2,
  monthlyQuotaOverride: null,
  userJourney: false,
  revenueAnalytics: false,
  ipAllowlist: [],
  defaultLanguage: 'ko',
  timeZone: 'Asia/Seoul',
  createdAt: new Date(0),
  ...over,
});

async function codeOf(run: () => unknown): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (err) {
    if (!isDomainError(err)) throw err;
    return err.code;
  }
}

describe('journey access', () => {
  it("asks statistics and the session endpoints for a proven caller, identity and the web SDK's session calls for an app id", () => {
    expect(journeyCredentials('stats', true)).toBe('service');
    expect(journeyCredentials('stats', false)).toBe('mobile');
    // The spec: session endpoints need the app's key; browsers call them through the web SDK API.
    expect(journeyCredentials('session', true)).toBe('mobile');
    expect(journeyCredentials('session', false, 'web-sdk')).toBe('mobileOrBrowser');
    expect(journeyCredentials('identity', false)).toBe('mobileOrBrowser');
  });

  it('needs the add-on for sessions and statistics, not for identity', async () => {
    const caller: Caller = { organization: organization(), app: null, channel: 'service', apiKeyId: 1 };
    expect(await codeOf(() => admitJourneyCaller('identity', caller))).toBeUndefined();
    expect(await codeOf(() => admitJourneyCaller('session', caller))).toBe('ADD_ON_REQUIRED');
    expect(
      await codeOf(() => admitJourneyCaller('stats', { ...caller, organization: organization({ userJourney: true }) })),
    ).toBeUndefined();
  });
});

describe('app id', () => {
  it('is a positive number, absent when empty', async () => {
    expect(parseAppId(undefined)).toBeUndefined();
    expect(parseAppId('')).toBeUndefined();
    expect(parseAppId(' 42 ')).toBe(42);
    expect(await codeOf(() => parseAppId('0x2a'))).toBe('APP_ID_INVALID');
  });
});

describe('Service API keys', () => {
  function access(org: Organization, callsThisMonth: number, key: { scopes?: string[]; expiredAt?: Date | null } = {}) {
    const counted: number[] = [];
    const apiKeys = {
      authenticate: async (presented: string) =>
        presented === 'right'
          ? {
              apiKeyId: 3,
              organization: org,
              callsThisMonth,
              scopes: key.scopes ?? [],
              expiredAt: key.expiredAt ?? null,
            }
          : undefined,
    } as unknown as ApiKeysRepo;
    const usageMeter = { pending: () => 0, count: (id: number) => counted.push(id) } as unknown as UsageMeter;
    return {
      counted,
      authenticate: createServiceKeyAccess({ apiKeys, usageMeter, clock: () => new Date('2026-03-10T00:00:00Z') }),
    };
  }

  it('checks the key, then the allow-list, then the quota, and counts an admitted call', async () => {
    const { authenticate, counted } = access(organization({ ipAllowlist: ['10.0.0.0/8'] }), 1);
    expect(await codeOf(() => authenticate(undefined, '10.0.0.1', 'links:read'))).toBe('API_KEY_MISSING');
    expect(await codeOf(() => authenticate('wrong', '192.0.2.1', 'links:read'))).toBe('API_KEY_INVALID');
    expect(await codeOf(() => authenticate('right', '192.0.2.1', 'links:read'))).toBe('IP_NOT_ALLOWED');
    const caller = await authenticate('right', '10.0.0.1', 'links:write');
    expect(caller).toMatchObject({ channel: 'service', app: null, apiKeyId: 3, organization: { id: 7 } });
    expect(counted).toEqual([7]);
    expect(await codeOf(() => access(organization(), 2).authenticate('right', '10.0.0.1', 'links:read'))).toBe(
      'QUOTA_EXCEEDED',
    );
  });

  it.each([
    { scopes: [], needed: 'links:read', code: undefined },
    { scopes: [], needed: 'links:write', code: undefined },
    { scopes: ['read'], needed: 'statistics:read', code: undefined },
    { scopes: ['read'], needed: 'links:write', code: 'API_KEY_SCOPE_MISSING' },
    { scopes: ['statistics:read'], needed: 'links:read', code: 'API_KEY_SCOPE_MISSING' },
    // An unknown path: the key is checked, then the 404 answers.
    { scopes: ['statistics:read'], needed: undefined, code: undefined },
  ] as const)('lets a key with scopes $scopes call what needs $needed: $code', async ({ scopes, needed, code }) => {
    const { authenticate, counted } = access(organization(), 0, { scopes: [...scopes] });
    expect(await codeOf(() => authenticate('right', '10.0.0.1', needed))).toBe(code);
    // A refused call is not counted against the quota.
    expect(counted).toEqual(code ? [] : [7]);
  });

  it('refuses an expired key as unauthenticated, saying when it expired, before anything else', async () => {
    const expiredAt = new Date('2026-03-01T00:00:00Z');
    const { authenticate } = access(organization({ ipAllowlist: ['10.0.0.0/8'] }), 0, { expiredAt });
    const err = await authenticate('right', '192.0.2.1', 'links:read').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'API_KEY_EXPIRED', kind: 'unauthenticated' });
    expect((err as Error).message).toContain('2026-03-01T00:00:00.000Z');
  });
});
