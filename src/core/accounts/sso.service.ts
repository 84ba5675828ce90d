// Partner single sign-on, in the spec's order: the partner and the transport (HTTPS, allowed
// origins), 1. the signature (and the token's claims), 2. the jti not used before, 3. an account
// linked to sub: signed in; 4. an account with the token's email: a verification link to that
// address links the two; 5. a new user: terms consent, then a verification link, then the
// account, its organization and membership. Every failure is a domain error with the spec's
// Korean message and the partner's login URL.
import type { SsoPartner, SsoPartnersRepo } from '../../oltp/sso-partners.repo.js';
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type { Sql } from '../../oltp/postgres.js';
import type { User, UsersRepo } from '../../oltp/users.repo.js';
import type { Language } from '../../shared/roles.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { maskEmail, normalizeEmail } from '../journey/contact-fields.js';
import type { AuditTrail } from './audit-trail.js';
import { CLOCK_TOLERANCE_SECONDS, checkPartnerToken } from './partner-token.js';
import type { ClientFacts, Sessions, StartedSession } from './console-sessions.service.js';
import { LINK_MINUTES, type PartnerClaims, type SignInLinks, type UsedLink } from './sign-in-links.js';
import { ssoFailure } from './sso-errors.js';

export interface CallbackInput {
  token: string | undefined;
  clientId: string | undefined;
  /** The request's Origin, or the origin of its Referer; undefined when it carried neither. */
  origin: string | undefined;
  /** Whether the request reached us over HTTPS (or the deployment is a loopback development one). */
  secure: boolean;
  language: Language;
  client: ClientFacts;
}

export type CallbackOutcome =
  | { kind: 'signed_in'; session: StartedSession }
  | { kind: 'verification_sent'; to: string; serviceName: string; minutes: number }
  | { kind: 'consent'; consentToken: string; serviceName: string };

export interface ConsentView {
  serviceName: string;
  email: string;
  name: string | null;
  loginUrl: string;
}

/** jti entries outlive their token by this much, beyond the clock tolerance. */
export const JTI_MARGIN_MS = 10 * 60_000;

export function createSsoService(deps: {
  partners: SsoPartnersRepo;
  users: UsersRepo;
  organizations: OrganizationsRepo;
  links: SignInLinks;
  sessions: Sessions;
  audit: AuditTrail;
  secretBox: SecretBox;
  clock: () => Date;
}) {
  const { partners, users, links } = deps;

  async function partnerOf(clientId: string | undefined): Promise<SsoPartner> {
    const partner = clientId ? await partners.get(clientId) : undefined;
    if (!partner) throw ssoFailure('SSO_PARTNER_UNKNOWN', null, 'unknown client_id');
    return partner;
  }

  /** The organization a partner's new user joins, and the role there: the partner's, or one of their own. */
  async function joinOrganization(
    partner: SsoPartner,
    user: User,
    tx: Sql,
  ): Promise<{ organizationId: number; role: string } | undefined> {
    if (partner.organizationId !== null) {
      const existing = await users.roleIn(partner.organizationId, user.id, tx);
      if (existing) return undefined;
      await users.setMembership(partner.organizationId, user.id, partner.defaultRole, tx);
      return { organizationId: partner.organizationId, role: partner.defaultRole };
    }
    if ((await users.membershipsOf(user.id, tx)).length > 0) return undefined;
    const organization = await deps.organizations.create(
      { name: `${user.name ?? user.email}`.slice(0, 200), plan: 'FREE' },
      tx,
    );
    await users.setMembership(organization.id, user.id, 'owner', tx);
    return { organizationId: organization.id, role: 'owner' };
  }

  async function pendingPartner(link: UsedLink | undefined): Promise<{ partner: SsoPartner; claims: PartnerClaims }> {
    const partner = link?.partnerId ? await partners.getById(link.partnerId) : undefined;
    if (!link?.claims || !partner) throw ssoFailure('SSO_STEP_EXPIRED', partner?.loginUrl ?? null);
    return { partner, claims: link.claims };
  }

  return {
    async callback(input: CallbackInput): Promise<CallbackOutcome> {
      if (!input.token || !input.clientId) throw ssoFailure('SSO_PARAMETERS_MISSING', null);
      const partner = await partnerOf(input.clientId);
      const fail = (code: Parameters<typeof ssoFailure>[0], reason?: string) =>
        ssoFailure(code, partner.loginUrl, reason);
      if (!input.secure) throw fail('SSO_HTTPS_REQUIRED', 'plain HTTP');
      if (partner.allowedOrigins.length === 0)
        throw fail('SSO_ORIGIN_NOT_ALLOWED', 'the partner has no allowed origins');
      if (input.origin !== undefined && !partner.allowedOrigins.includes(input.origin))
        throw fail('SSO_ORIGIN_NOT_ALLOWED', `origin ${input.origin}`);

      const now = deps.clock();
      const check = await checkPartnerToken(
        input.token,
        deps.secretBox.open(partner.sharedSecretSealed),
        partner.clientId,
        now,
      );
      if (!check.ok) throw fail(check.failure, check.reason);
      const { claims } = check;

      const keepUntil = new Date((claims.exp + CLOCK_TOLERANCE_SECONDS) * 1000 + JTI_MARGIN_MS);
      if (!(await partners.recordJti(partner.id, claims.jti, keepUntil)))
        throw fail('SSO_TOKEN_REUSED', 'jti used before');

      const actor = { type: 'partner' as const, partnerId: partner.id, ip: input.client.ip };
      const linkedId = await partners.linkedUser(partner.id, claims.sub);
      const linked = linkedId === undefined ? undefined : await users.get(linkedId);
      if (linked) {
        const session = await deps.sessions.start(linked, 'sso', input.client);
        await deps.audit.record({ ...actor }, 'sign_in', { target: `user:${linked.id}`, details: { method: 'sso' } });
        return { kind: 'signed_in', session };
      }

      if (claims.email === undefined) throw fail('SSO_EMAIL_REQUIRED', 'no email claim for an unlinked sub');
      const email = normalizeEmail(claims.email);
      if (!email) throw fail('SSO_EMAIL_INVALID');
      const pending: PartnerClaims = { sub: claims.sub, email, name: claims.name ?? null, language: input.language };

      const existing = await users.findByEmail(email);
      if (existing) {
        if (await partners.linkOf(existing.id)) throw fail('SSO_ACCOUNT_LINKED_ELSEWHERE');
        const link = await links.issue('sso_link', {
          userId: existing.id,
          email,
          partnerId: partner.id,
          claims: pending,
        });
        await links.mail('sso_link', existing.email, link, existing.language, partner.serviceName);
        return {
          kind: 'verification_sent',
          to: maskEmail(existing.email),
          serviceName: partner.serviceName,
          minutes: LINK_MINUTES,
        };
      }
      const consent = await links.issue('sso_consent', { partnerId: partner.id, claims: pending });
      return { kind: 'consent', consentToken: consent.token, serviceName: partner.serviceName };
    },

    /** What the consent page shows; the token stays usable. */
    async consent(consentToken: string): Promise<ConsentView> {
      const { partner, claims } = await pendingPartner(await links.peek(consentToken, 'sso_consent'));
      return { serviceName: partner.serviceName, email: claims.email, name: claims.name, loginUrl: partner.loginUrl };
    },

    /** The user accepted the terms: the verification link goes to the partner's address for them. */
    async acceptConsent(consentToken: string, language: Language): Promise<{ to: string; minutes: number }> {
      const { partner, claims } = await pendingPartner(await links.use(consentToken, ['sso_consent']));
      const accepted = { ...claims, language };
      const link = await links.issue('sso_signup', { email: claims.email, partnerId: partner.id, claims: accepted });
      await links.mail('sso_signup', claims.email, link, language, partner.serviceName);
      return { to: maskEmail(claims.email), minutes: LINK_MINUTES };
    },

    /** The user followed a verification link: link the accounts (making the account first for a signup). */
    async complete(link: UsedLink, ip: string): Promise<User> {
      const { partner, claims } = await pendingPartner(link);
      const actor = { type: 'partner' as const, partnerId: partner.id, ip };
      const known = link.userId === null ? undefined : await users.get(link.userId);
      if (link.userId !== null && !known) throw ssoFailure('SSO_STEP_EXPIRED', partner.loginUrl);
      // Loads the index key before the transaction: the embedded store has one connection.
      await users.emailIndex(claims.email);
      const { user, created, joined } = await users.transaction(async (tx) => {
        const ensured = known
          ? { user: known, created: false }
          : await users.ensure({ email: claims.email, name: claims.name, language: claims.language }, tx);
        if (!(await partners.link(partner.id, claims.sub, ensured.user.id, tx)))
          throw ssoFailure('SSO_ACCOUNT_LINKED_ELSEWHERE', partner.loginUrl);
        return { ...ensured, joined: await joinOrganization(partner, ensured.user, tx) };
      });
      await deps.audit.record(actor, created ? 'sso.signup' : 'sso.linked', {
        target: `user:${user.id}`,
        details: { serviceName: partner.serviceName },
      });
      if (joined) {
        await deps.audit.record(actor, 'member.added', {
          organizationId: joined.organizationId,
          target: `user:${user.id}`,
          details: { role: joined.role },
        });
      }
      return user;
    },
  };
}

export type SsoService = ReturnType<typeof createSsoService>;
