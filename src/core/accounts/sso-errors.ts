// Partner sign-in failures: the spec's Korean messages (its error table), with the status each
// kind maps to and a machine-readable code. `details.loginUrl` is where the error page sends the
// user back to (the partner's login), when the partner is known.
import { DomainError, type ErrorKind } from '../../shared/errors.js';

const FAILURES = {
  SSO_PARAMETERS_MISSING: ['invalid', 'token과 client_id 파라미터가 필요합니다.'],
  SSO_PARTNER_UNKNOWN: ['unauthenticated', '등록되지 않은 파트너이거나 SSO 설정이 완료되지 않았습니다.'],
  SSO_HTTPS_REQUIRED: ['forbidden', 'SSO 요청은 HTTPS로만 받을 수 있습니다.'],
  SSO_ORIGIN_NOT_ALLOWED: ['forbidden', '허용되지 않은 출처(origin)에서 온 SSO 요청입니다.'],
  SSO_SIGNATURE_INVALID: ['unauthenticated', '토큰 서명이 유효하지 않습니다.'],
  SSO_TOKEN_EXPIRED: ['unauthenticated', '토큰이 만료되었습니다. (최대 유효시간 5분)'],
  SSO_TOKEN_LIFETIME: ['unauthenticated', '토큰 유효시간이 너무 깁니다. (최대 유효시간 5분)'],
  SSO_CLAIMS_MISSING: ['invalid', '토큰에 필수 클레임(sub, jti, exp)이 없습니다.'],
  SSO_CLIENT_ID_MISMATCH: ['unauthenticated', 'client_id가 일치하지 않습니다.'],
  SSO_TOKEN_REUSED: ['invalid', '이미 사용된 토큰입니다.'],
  SSO_EMAIL_REQUIRED: ['invalid', '이메일 정보가 없어 가입할 수 없습니다.'],
  SSO_EMAIL_INVALID: ['invalid', '토큰의 이메일 주소가 올바르지 않습니다.'],
  SSO_ACCOUNT_LINKED_ELSEWHERE: ['conflict', '이 계정은 이미 다른 파트너 서비스와 연결되어 있습니다.'],
  SSO_STEP_EXPIRED: ['gone', '가입 절차가 만료되었습니다. 파트너 서비스에서 다시 로그인하세요.'],
} as const satisfies Record<string, readonly [ErrorKind, string]>;

export type SsoFailure = keyof typeof FAILURES;

/** English for the page's second line, for people who read the Korean with difficulty. */
export const SSO_FAILURES_EN: Record<SsoFailure, string> = {
  SSO_PARAMETERS_MISSING: 'The token and client_id parameters are required.',
  SSO_PARTNER_UNKNOWN: 'The partner is not registered or its single sign-on setup is incomplete.',
  SSO_HTTPS_REQUIRED: 'Single sign-on requires HTTPS.',
  SSO_ORIGIN_NOT_ALLOWED: 'The request came from an origin the partner did not register.',
  SSO_SIGNATURE_INVALID: 'The token signature is invalid.',
  SSO_TOKEN_EXPIRED: 'The token has expired (it is valid for 5 minutes at most).',
  SSO_TOKEN_LIFETIME: 'The token lives too long (5 minutes at most).',
  SSO_CLAIMS_MISSING: 'The token lacks a required claim (sub, jti, exp).',
  SSO_CLIENT_ID_MISMATCH: 'client_id does not match.',
  SSO_TOKEN_REUSED: 'The token has already been used.',
  SSO_EMAIL_REQUIRED: 'Cannot sign up without an email address.',
  SSO_EMAIL_INVALID: 'The email address in the token is not valid.',
  SSO_ACCOUNT_LINKED_ELSEWHERE: 'This account is already linked to another partner service.',
  SSO_STEP_EXPIRED: 'This sign-up step has expired. Sign in again at the partner service.',
};

export function ssoFailure(code: SsoFailure, loginUrl: string | null, reason?: string): DomainError {
  const [kind, message] = FAILURES[code];
  return new DomainError(kind, code, message, { details: { loginUrl, ...(reason ? { reason } : {}) } });
}

export const isSsoFailure = (code: string): code is SsoFailure => code in FAILURES;
