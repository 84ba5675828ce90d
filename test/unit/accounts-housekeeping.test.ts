// The account tables' purge rounds: what each round deletes is decided by its cutoffs.
import { describe, expect, it } from 'vitest';
import { startAccountsHousekeeping } from '../../src/core/accounts/housekeeping.js';
import { createLogger } from '../../src/shared/logger.js';

describe('accounts housekeeping', () => {
  it('purges tokens a day after expiry, sessions a week after they ended, jti ten minutes after', async () => {
    const now = new Date('2030-06-01T12:00:00Z');
    const cutoffs: Record<string, string> = {};
    const job = startAccountsHousekeeping({
      tokens: {
        async purgeExpired(before) {
          cutoffs.tokens = before.toISOString();
          return 3;
        },
      },
      sessions: {
        async purgeEnded(before) {
          cutoffs.sessions = before.toISOString();
        },
      },
      partners: {
        async purgeJtis(before) {
          cutoffs.jtis = before.toISOString();
          return 2;
        },
      },
      clock: () => now,
      log: createLogger({ level: 'silent', pretty: false }),
      intervalMs: 3_600_000,
    });
    expect(await job.runOnce()).toBe(5);
    await job.stop();
    expect(cutoffs).toEqual({
      tokens: '2030-05-31T12:00:00.000Z',
      sessions: '2030-05-25T12:00:00.000Z',
      jtis: '2030-06-01T11:50:00.000Z',
    });
  });
});
