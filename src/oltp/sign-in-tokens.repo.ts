// One-time tokens: sign-in links, partner account-link and signup verifications, the pending
// consent of a partner's new user. Only the SHA-256 of a token is stored; consuming one is a
// single conditional update, so two instances cannot both use it.
import type { Sql } from './postgres.js';

export type SignInPurpose = 'sign_in' | 'sso_link' | 'sso_signup' | 'sso_consent';

export interface SignInTokenRecord {
  purpose: SignInPurpose;
  userId: number | null;
  partnerId: number | null;
  /** Sealed JSON the purpose needs (a partner's claims); null for a plain sign-in. */
  claimsSealed: string | null;
  expiresAt: Date;
}

interface Row {
  purpose: SignInPurpose;
  user_id: number | null;
  partner_id: number | null;
  claims_sealed: string | null;
  expires_at: Date;
}

const toRecord = (r: Row): SignInTokenRecord => ({
  purpose: r.purpose,
  userId: r.user_id,
  partnerId: r.partner_id,
  claimsSealed: r.claims_sealed,
  expiresAt: r.expires_at,
});

export function createSignInTokensRepo({ sql }: { sql: Sql }) {
  return {
    async issue(
      input: SignInTokenRecord & { tokenHash: Buffer; emailIndex: Buffer | null; createdAt: Date },
    ): Promise<void> {
      await sql`
        insert into sign_in_tokens (token_hash, purpose, user_id, email_index, partner_id, claims_sealed, created_at, expires_at)
        values (${input.tokenHash}, ${input.purpose}, ${input.userId}, ${input.emailIndex}, ${input.partnerId},
                ${input.claimsSealed}, ${input.createdAt}, ${input.expiresAt})`;
    },

    /** Marks the token used and answers it, when it exists, is unused, unexpired and of one of these purposes. */
    async consume(tokenHash: Buffer, purposes: SignInPurpose[], now: Date): Promise<SignInTokenRecord | undefined> {
      const [row] = await sql<Row[]>`
        update sign_in_tokens set used_at = ${now}
        where token_hash = ${tokenHash} and used_at is null and expires_at > ${now} and purpose = any(${purposes}::text[])
        returning purpose, user_id, partner_id, claims_sealed, expires_at`;
      return row && toRecord(row);
    },

    /** The token without using it (a consent page shows before it is accepted). */
    async peek(tokenHash: Buffer, purpose: SignInPurpose, now: Date): Promise<SignInTokenRecord | undefined> {
      const [row] = await sql<Row[]>`
        select purpose, user_id, partner_id, claims_sealed, expires_at from sign_in_tokens
        where token_hash = ${tokenHash} and used_at is null and expires_at > ${now} and purpose = ${purpose}`;
      return row && toRecord(row);
    },

    /** Tokens mailed to this address since `since`: the per-address limit counts them on every instance alike. */
    async sentSince(emailIndex: Buffer, since: Date): Promise<number> {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from sign_in_tokens where email_index = ${emailIndex} and created_at >= ${since}`;
      return row!.n;
    },

    async purgeExpired(before: Date): Promise<number> {
      const rows = await sql`delete from sign_in_tokens where expires_at < ${before} returning 1`;
      return rows.length;
    },
  };
}

export type SignInTokensRepo = ReturnType<typeof createSignInTokensRepo>;
