// Mails a warning before a Service API key expires, once per key: to the member who issued it in
// the console while they still belong to its organization, otherwise to the organization's owners,
// each in their own language. The key is marked first (every instance runs the round, and only one
// takes a key); a mail that fails gives the mark back for the next round.
import type { Mailer } from '../../mail/mailer.js';
import type { ApiKeysRepo, ExpiringApiKey } from '../../oltp/api-keys.repo.js';
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type { User, UsersRepo } from '../../oltp/users.repo.js';
import type { Logger } from '../../shared/logger.js';
import { apiKeyExpiryMail } from '../accounts/mail-messages.js';
import { startPeriodicJob, type PeriodicJob } from '../periodic-job.js';

const DAY_MS = 24 * 3_600_000;
/** Keys taken per round: a burst of expiries is spread over rounds rather than one long mailing. */
const KEYS_PER_ROUND = 100;

export interface ApiKeyExpiryNotices {
  /** One round as of `now` (the clock's time by default); answers how many keys were warned of. */
  notify(now?: Date): Promise<number>;
  stop(): Promise<void>;
}

export function startApiKeyExpiryNotices(deps: {
  apiKeys: Pick<ApiKeysRepo, 'claimExpiryNotices' | 'releaseExpiryNotice'>;
  users: Pick<UsersRepo, 'get' | 'roleIn' | 'members'>;
  organizations: Pick<OrganizationsRepo, 'get'>;
  mailer: Pick<Mailer, 'send'>;
  /** Days ahead of the expiry; 0: no warnings. */
  noticeDays: number;
  publicBaseUrl: string;
  clock: () => Date;
  log: Logger;
  intervalMs?: number;
}): ApiKeyExpiryNotices {
  const log = deps.log.child({ module: 'api-key-expiry' });

  async function recipientsOf(key: ExpiringApiKey): Promise<User[]> {
    if (key.createdByUserId !== null && (await deps.users.roleIn(key.organizationId, key.createdByUserId))) {
      const issuer = await deps.users.get(key.createdByUserId);
      if (issuer) return [issuer];
    }
    return (await deps.users.members(key.organizationId)).filter((m) => m.role === 'owner');
  }

  async function warn(key: ExpiringApiKey): Promise<void> {
    const organization = await deps.organizations.get(key.organizationId);
    if (!organization) return;
    const keyLabel = key.name ? `${key.name} (${key.prefix}…)` : `${key.prefix}…`;
    for (const user of await recipientsOf(key)) {
      await deps.mailer.send(
        apiKeyExpiryMail({
          to: user.email,
          language: user.language,
          link: `${deps.publicBaseUrl}/console/api-keys`,
          organizationName: organization.name,
          keyLabel,
          expiresAt: key.expiresAt,
        }),
      );
    }
  }

  async function round(now: Date): Promise<number> {
    if (deps.noticeDays === 0) return 0;
    const keys = await deps.apiKeys.claimExpiryNotices(
      now,
      new Date(now.getTime() + deps.noticeDays * DAY_MS),
      KEYS_PER_ROUND,
    );
    let warned = 0;
    for (const key of keys) {
      try {
        await warn(key);
        warned++;
      } catch (err) {
        log.warn({ err, apiKeyId: key.id }, 'API key expiry warning not sent; retrying next round');
        await deps.apiKeys.releaseExpiryNotice(key.id);
      }
    }
    return warned;
  }

  // One round at a time on this instance, whether the timer or a caller started it.
  let queue: Promise<unknown> = Promise.resolve();
  const notify = (now?: Date): Promise<number> => {
    const next = queue.then(() => round(now ?? deps.clock()));
    queue = next.catch(() => {});
    return next;
  };

  const job: PeriodicJob = startPeriodicJob({
    name: 'API key expiry warnings',
    intervalMs: deps.intervalMs ?? 10 * 60_000,
    log,
    round: () => notify(),
  });
  return { notify, stop: job.stop };
}
