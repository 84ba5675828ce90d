// Mails a warning before a Service API key expires, once per key: to the member who issued it in
// the console while they still belong to its organization, otherwise to the organization's owners,
// each in their own language. The key is marked first (every instance runs the round, and only one
// takes a key); a mail that fails gives the mark back for the next round.
import type { Mailer } from '../../mail/mailer.js';
import type { ApiKeysRepo, ExpiringApiKey } from '../../oltp/api-keys.repo.js';
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type { User, UsersRepo } from '../../oltp/users.repo.js';
import { apiKeyExpiryMail } from '../accounts/mail-messages.js';
import { handleClaimed, type QueuedRounds, type RoundDeps, startQueuedRounds } from '../periodic-job.js';

const DAY_MS = 24 * 3_600_000;
/** Keys taken per round: a burst of expiries is spread over rounds rather than one long mailing. */
const KEYS_PER_ROUND = 100;

/** The warning rounds; a round answers how many keys it warned of. */
export function startApiKeyExpiryNotices(
  deps: RoundDeps & {
    apiKeys: Pick<ApiKeysRepo, 'claimExpiryNotices' | 'releaseExpiryNotice'>;
    users: Pick<UsersRepo, 'get' | 'roleIn' | 'members'>;
    organizations: Pick<OrganizationsRepo, 'get'>;
    mailer: Pick<Mailer, 'send'>;
    /** Days ahead of the expiry; 0: no warnings. */
    noticeDays: number;
    publicBaseUrl: string;
  },
): QueuedRounds {
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

  return startQueuedRounds('API key expiry warnings', { ...deps, log }, async (now) => {
    if (deps.noticeDays === 0) return 0;
    const keys = await deps.apiKeys.claimExpiryNotices(
      now,
      new Date(now.getTime() + deps.noticeDays * DAY_MS),
      KEYS_PER_ROUND,
    );
    return handleClaimed(
      keys,
      async (key) => {
        await warn(key);
        return true;
      },
      async (key, err) => {
        log.warn({ err, apiKeyId: key.id }, 'API key expiry warning not sent; retrying next round');
        await deps.apiKeys.releaseExpiryNotice(key.id);
      },
    );
  });
}
