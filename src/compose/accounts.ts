// Wires the accounts core: users and memberships, one-time links and the mail that carries them,
// console sessions, partner single sign-on and the audit trail; and the mailed warning before a
// Service API key expires, which goes through the same mailer.
import path from 'node:path';
import type { AccountServices } from '../core/accounts/index.js';
import { type AuditTrail, createAuditTrail } from '../core/accounts/audit-trail.js';
import { createConsoleAccess } from '../core/accounts/console-access.js';
import { createMembersService } from '../core/accounts/members.service.js';
import { createSessions } from '../core/accounts/console-sessions.service.js';
import { createSignInLinks } from '../core/accounts/sign-in-links.js';
import { createSignInService } from '../core/accounts/sign-in.service.js';
import { createOidcSignIn } from '../core/accounts/oidc-sign-in.service.js';
import { createSsoService } from '../core/accounts/sso.service.js';
import { startAccountsHousekeeping } from '../core/accounts/housekeeping.js';
import { startApiKeyExpiryNotices } from '../core/organizations/api-key-expiry.js';
import { createAgentParser } from '../ingest/enrich.js';
import { createMailer, type Mailer } from '../mail/mailer.js';
import { createAuditLogRepo } from '../oltp/audit-log.repo.js';
import { createBlindIndex } from '../oltp/blind-index.js';
import { createConsoleSessionsRepo } from '../oltp/console-sessions.repo.js';
import { createSignInTokensRepo } from '../oltp/sign-in-tokens.repo.js';
import { createSsoPartnersRepo, type SsoPartnersRepo } from '../oltp/sso-partners.repo.js';
import { createUsersRepo, type UsersRepo } from '../oltp/users.repo.js';
import type { Config } from '../shared/config.js';
import type { Wiring } from './wiring.js';

export interface ComposedAccounts {
  services: AccountServices;
  ssoPartners: SsoPartnersRepo;
  /** The mail transport (or outbox) and the users, for the other features that mail members. */
  mailer: Mailer;
  users: UsersRepo;
  /** One round of the API key expiry warnings, as of a given time (tests move the clock this way). */
  notifyExpiringApiKeys(now?: Date): Promise<number>;
  /** Stops the housekeeping rounds and closes the mail transport. */
  close(): Promise<void>;
}

/** The audit trail, built before the features that write to it. */
export const composeAuditTrail = ({ sql, secretBox, clock }: Pick<Wiring, 'sql' | 'secretBox' | 'clock'>): AuditTrail =>
  createAuditTrail({ repo: createAuditLogRepo({ sql }), secretBox, clock });

export function composeAccounts({
  config,
  log,
  sql,
  secretBox,
  repos,
  clock,
  audit,
}: Pick<Wiring, 'log' | 'sql' | 'secretBox' | 'repos' | 'clock'> & {
  config: Pick<Config, 'server' | 'stores' | 'mail' | 'sessions' | 'signInLimits' | 'oidc'>;
  audit: AuditTrail;
}): ComposedAccounts {
  const users = createUsersRepo({ sql, secretBox, blindIndex: createBlindIndex({ sql, secretBox }) });
  const ssoPartners = createSsoPartnersRepo({ sql });
  const mailer = createMailer({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    outboxDir: path.join(config.stores.dataDir, 'outbox'),
    log,
  });
  const tokens = createSignInTokensRepo({ sql });
  const sessionsRepo = createConsoleSessionsRepo({ sql });
  const housekeeping = startAccountsHousekeeping({ tokens, sessions: sessionsRepo, partners: ssoPartners, clock, log });
  const expiryNotices = startApiKeyExpiryNotices({
    apiKeys: repos.apiKeys,
    users,
    organizations: repos.organizations,
    mailer,
    noticeDays: config.mail.apiKeyExpiryNoticeDays,
    publicBaseUrl: config.server.publicBaseUrl,
    clock,
    log,
  });
  const sessions = createSessions({
    repo: sessionsRepo,
    users,
    secretBox,
    parseAgent: createAgentParser(),
    clock,
    policy: config.sessions,
    audit,
  });
  const links = createSignInLinks({
    tokens,
    emailIndex: users.emailIndex,
    mailer,
    secretBox,
    clock,
    publicBaseUrl: config.server.publicBaseUrl,
  });
  const sso = createSsoService({
    partners: ssoPartners,
    users,
    organizations: repos.organizations,
    links,
    sessions,
    audit,
    secretBox,
    clock,
  });
  const signIn = createSignInService({
    users,
    links,
    sessions,
    sso,
    audit,
    limits: { perEmail: config.signInLimits.perEmail, windowMs: config.signInLimits.windowSeconds * 1000 },
  });
  const oidc =
    config.oidc &&
    createOidcSignIn({
      settings: { ...config.oidc, redirectUri: `${config.server.publicBaseUrl}/console/auth/oidc/callback` },
      users,
      organizations: repos.organizations,
      sessions,
      audit,
      secretBox,
      clock,
    });
  return {
    services: {
      signIn,
      sso,
      oidc,
      sessions,
      members: createMembersService({
        users,
        organizations: repos.organizations,
        audit,
        invite: (member, organizationName, inviter) => links.invite(member, organizationName, inviter),
      }),
      console: createConsoleAccess({ sessions, users, organizations: repos.organizations, audit }),
      audit,
    },
    ssoPartners,
    mailer,
    users,
    notifyExpiringApiKeys: expiryNotices.run,
    async close() {
      await housekeeping.stop();
      await expiryNotices.stop();
      await mailer.close();
    },
  };
}
