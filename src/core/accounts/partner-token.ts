// Checks a partner's sign-in token: HS256 only (the algorithm is pinned, so `none` and every
// other algorithm fail like a wrong signature), then the claims the spec requires: exp at most
// five minutes after iat (or after now without iat), client_id equal to the parameter when
// present, sub and jti present.
import { errors, jwtVerify } from 'jose';
import type { SsoFailure } from './sso-errors.js';

const MAX_TOKEN_LIFETIME_SECONDS = 300;
/** Clocks of the partner and ours may differ this much. */
export const CLOCK_TOLERANCE_SECONDS = 30;

export interface PartnerTokenClaims {
  sub: string;
  jti: string;
  exp: number;
  email: string | undefined;
  name: string | undefined;
}

export type TokenCheck = { ok: true; claims: PartnerTokenClaims } | { ok: false; failure: SsoFailure; reason: string };

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

export async function checkPartnerToken(
  token: string,
  secret: string,
  clientId: string,
  now: Date,
): Promise<TokenCheck> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
    }));
  } catch (err) {
    if (err instanceof errors.JWTExpired) return { ok: false, failure: 'SSO_TOKEN_EXPIRED', reason: 'exp has passed' };
    if (err instanceof errors.JWTClaimValidationFailed)
      return { ok: false, failure: 'SSO_SIGNATURE_INVALID', reason: `claim ${err.claim} ${err.reason}` };
    const code = err instanceof errors.JOSEError ? err.code : 'not a JWT';
    return { ok: false, failure: 'SSO_SIGNATURE_INVALID', reason: code };
  }
  const sub = text(payload.sub);
  const jti = text(payload.jti);
  const exp = payload.exp;
  if (!sub || !jti || typeof exp !== 'number') {
    const missing = [!sub && 'sub', !jti && 'jti', typeof exp !== 'number' && 'exp'].filter(Boolean).join(', ');
    return { ok: false, failure: 'SSO_CLAIMS_MISSING', reason: `missing ${missing}` };
  }
  const nowSeconds = now.getTime() / 1000;
  const issuedAt = typeof payload.iat === 'number' ? payload.iat : nowSeconds;
  // Both bounds: a future-dated iat must not stretch the token's life past five minutes from now.
  if (
    exp - issuedAt > MAX_TOKEN_LIFETIME_SECONDS ||
    exp - nowSeconds > MAX_TOKEN_LIFETIME_SECONDS + CLOCK_TOLERANCE_SECONDS
  ) {
    return {
      ok: false,
      failure: 'SSO_TOKEN_LIFETIME',
      reason: `lives ${Math.round(exp - Math.min(issuedAt, nowSeconds))} s`,
    };
  }
  if (payload.client_id !== undefined && payload.client_id !== clientId) {
    return { ok: false, failure: 'SSO_CLIENT_ID_MISMATCH', reason: 'client_id claim differs from the parameter' };
  }
  return { ok: true, claims: { sub, jti, exp, email: text(payload.email), name: text(payload.name) } };
}
