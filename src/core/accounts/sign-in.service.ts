// Signing in without a partner: a one-time link by mail (no passwords to store), the operator's
// login link for a machine without mail, and following any one-time link into a session. A
// request for an unknown address answers exactly like one for a known address, so the form
// tells no one who has an account; it still counts toward that address's limit.
import type { User, UsersRepo } from '../../oltp/users.repo.js';
import { limitReached, notFound } from '../../shared/errors.js';
import { refusedField } from '../field-error.js';
import type { Language } from '../../shared/roles.js';
import { normalizeEmail } from '../journey/contact-fields.js';
import type { Actor, AuditTrail } from './audit-trail.js';
import type { ClientFacts, Sessions, StartedSession } from './console-sessions.service.js';
import { LINK_MINUTES, type SignInLinks } from './sign-in-links.js';
import type { SsoService } from './sso.service.js';

export interface SignInLimits {
  /** Links one address may be sent per window. */
  perEmail: number;
  windowMs: number;
}

export function createSignInService(deps: {
  users: UsersRepo;
  links: SignInLinks;
  sessions: Sessions;
  sso: Pick<SsoService, 'complete'>;
  audit: AuditTrail;
  limits: SignInLimits;
}) {
  const { users, links } = deps;

  function addressOf(raw: string): string {
    const email = normalizeEmail(raw);
    if (!email) throw refusedField('EMAIL_INVALID', 'email: not a valid address', 'email', 'not a valid address');
    return email;
  }

  return {
    /** Mails a sign-in link when the address has an account; answers the same either way. */
    async requestLink(rawEmail: string): Promise<{ minutes: number }> {
      const email = addressOf(rawEmail);
      if ((await links.sentTo(email, deps.limits.windowMs)) >= deps.limits.perEmail) {
        throw limitReached(
          'SIGN_IN_EMAIL_LIMIT',
          'too many sign-in links were sent to this address; try again later',
          deps.limits.windowMs / 1000,
        );
      }
      const user = await users.findByEmail(email);
      const link = await links.issue('sign_in', { userId: user?.id ?? null, email });
      if (user) await links.mail('sign_in', user.email, link, user.language);
      return { minutes: LINK_MINUTES };
    },

    /** The operator's link for an existing account, handed over rather than mailed. */
    async operatorLink(rawEmail: string, actor: Actor): Promise<{ url: string; expiresAt: Date }> {
      const email = addressOf(rawEmail);
      const user = await users.findByEmail(email);
      if (!user)
        throw notFound('USER_NOT_FOUND', 'no account has this address; add it as a member of an organization first');
      const link = await links.issue('sign_in', { userId: user.id });
      await deps.audit.record(actor, 'login_link.issued', { target: `user:${user.id}` });
      return { url: link.url, expiresAt: link.expiresAt };
    },

    /** Follows a one-time link: signs in (linking a partner account, or creating the account, first). */
    async follow(token: string, client: ClientFacts): Promise<StartedSession | undefined> {
      const used = await links.use(token, ['sign_in', 'sso_link', 'sso_signup']);
      if (!used) return undefined;
      let user: User | undefined;
      if (used.purpose === 'sign_in') user = used.userId === null ? undefined : await users.get(used.userId);
      else user = await deps.sso.complete(used, client.ip);
      if (!user) return undefined;
      const method = used.purpose === 'sign_in' ? 'email' : 'sso';
      const session = await deps.sessions.start(user, method, client);
      await deps.audit.record({ type: 'user', userId: user.id, ip: client.ip }, 'sign_in', {
        target: `user:${user.id}`,
        details: { method },
      });
      return session;
    },

    setLanguage: (userId: number, language: Language) => users.setLanguage(userId, language),
  };
}

export type SignInService = ReturnType<typeof createSignInService>;
