// One-time links and what they carry: made here, mailed here, used here. A link is the
// credential, so only its hash is stored; it works once and for LINK_MINUTES.
import type { Mailer } from '../../mail/mailer.js';
import type { SignInPurpose, SignInTokensRepo } from '../../oltp/sign-in-tokens.repo.js';
import type { Language } from '../../shared/roles.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { mailFor } from './mail-messages.js';
import { newToken, tokenHash } from './one-time-tokens.js';

export const LINK_MINUTES = 15;
/** An invitation waits for a person who may not read mail today. */
const INVITATION_MINUTES = 3 * 24 * 60;

/** What a partner's sign-in told us, kept sealed while a signup or an account link waits on the user. */
export interface PartnerClaims {
  sub: string;
  email: string;
  name: string | null;
  language: Language;
}

export interface IssuedLink {
  token: string;
  url: string;
  expiresAt: Date;
}

export interface UsedLink {
  purpose: SignInPurpose;
  userId: number | null;
  partnerId: number | null;
  claims: PartnerClaims | null;
}

export function createSignInLinks(deps: {
  tokens: SignInTokensRepo;
  emailIndex: (email: string) => Promise<Buffer>;
  mailer: Mailer;
  secretBox: SecretBox;
  clock: () => Date;
  publicBaseUrl: string;
}) {
  const { tokens, secretBox } = deps;
  /** A stored token as the caller reads it, its partner's claims opened. */
  const usedLink = (record: Omit<UsedLink, 'claims'> & { claimsSealed: string | null }): UsedLink => ({
    purpose: record.purpose,
    userId: record.userId,
    partnerId: record.partnerId,
    claims: record.claimsSealed === null ? null : (JSON.parse(secretBox.open(record.claimsSealed)) as PartnerClaims),
  });

  /** A new one-time token of this purpose; `email` counts toward that address's hourly limit. */
  async function issue(
    purpose: SignInPurpose,
    input: { userId?: number | null; email?: string; partnerId?: number | null; claims?: PartnerClaims | null },
    minutes = LINK_MINUTES,
  ): Promise<IssuedLink> {
    const token = newToken();
    const now = deps.clock();
    const expiresAt = new Date(now.getTime() + minutes * 60_000);
    await tokens.issue({
      tokenHash: tokenHash(token),
      purpose,
      userId: input.userId ?? null,
      emailIndex: input.email === undefined ? null : await deps.emailIndex(input.email),
      partnerId: input.partnerId ?? null,
      claimsSealed: input.claims ? secretBox.seal(JSON.stringify(input.claims)) : null,
      createdAt: now,
      expiresAt,
    });
    return { token, url: `${deps.publicBaseUrl}/console/auth/link?token=${token}`, expiresAt };
  }

  return {
    issue,

    /** Links sent to this address within the window, whatever became of them. */
    async sentTo(email: string, windowMs: number): Promise<number> {
      return tokens.sentSince(await deps.emailIndex(email), new Date(deps.clock().getTime() - windowMs));
    },

    async mail(
      kind: 'sign_in' | 'sso_link' | 'sso_signup',
      to: string,
      link: IssuedLink,
      language: Language,
      serviceName?: string,
    ): Promise<void> {
      await deps.mailer.send(
        mailFor(kind, { to, link: link.url, language, minutes: LINK_MINUTES, ...(serviceName ? { serviceName } : {}) }),
      );
    },

    /** Tells a new member who added them where, with a sign-in link that lasts INVITATION_MINUTES. */
    async invite(
      member: { id: number; email: string; language: Language },
      organizationName: string,
      inviter: string,
    ): Promise<void> {
      const link = await issue('sign_in', { userId: member.id }, INVITATION_MINUTES);
      await deps.mailer.send(
        mailFor('invitation', {
          to: member.email,
          link: link.url,
          language: member.language,
          minutes: INVITATION_MINUTES,
          serviceName: organizationName,
          inviter,
        }),
      );
    },

    /** Uses the token once; undefined when unknown, used, expired or of another purpose. */
    async use(token: string, purposes: SignInPurpose[]): Promise<UsedLink | undefined> {
      const record = await tokens.consume(tokenHash(token), purposes, deps.clock());
      return record && usedLink(record);
    },

    /** The pending consent behind a token, without using it. */
    async peek(token: string, purpose: SignInPurpose): Promise<UsedLink | undefined> {
      const record = await tokens.peek(tokenHash(token), purpose, deps.clock());
      return record && usedLink(record);
    },
  };
}

export type SignInLinks = ReturnType<typeof createSignInLinks>;
