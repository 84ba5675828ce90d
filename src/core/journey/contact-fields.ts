// Phone numbers and email addresses of identify: what we accept, the one normal form we seal and
// index (E.164 for phones, so 010-1234-5678 and +82 10 1234 5678 are one number), and the masked
// form SDK callers see instead of the plaintext.

/** Korean mobile numbers as people write them: 010-1234-5678, 01012345678, 011-123-4567. */
const KOREAN_MOBILE = /^01[016789]\d{7,8}$/;
/** E.164: a plus, a country code not starting with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * The E.164 form of a Korean mobile number or an international number, or undefined when it is
 * neither. Spaces, dashes, dots and parentheses between digits are allowed.
 */
export function normalizePhone(raw: string): string | undefined {
  const trimmed = raw.trim();
  if (trimmed.length === 0 || trimmed.length > 30 || !/^\+?[\d\s().-]+$/.test(trimmed)) return undefined;
  const compact = trimmed.replace(/[\s().-]/g, '');
  if (KOREAN_MOBILE.test(compact)) return `+82${compact.slice(1)}`;
  if (!E164.test(compact)) return undefined;
  // A Korean number in international form keeps its own rules: +82 then a mobile number without 0.
  if (compact.startsWith('+821') && !KOREAN_MOBILE.test(`0${compact.slice(3)}`)) return undefined;
  return compact;
}

/** A deliberately plain address check (RFC 5321 lengths, one @, a dotted domain, no spaces). */
const EMAIL =
  /^[^\s@"<>()[\],;:\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function normalizeEmail(raw: string): string | undefined {
  const email = raw.trim();
  if (email.length > 254 || !EMAIL.test(email)) return undefined;
  const at = email.lastIndexOf('@');
  if (at > 64) return undefined;
  // The domain is case-insensitive; the local part is left as given (some servers honour case).
  return `${email.slice(0, at)}@${email.slice(at + 1).toLowerCase()}`;
}

/** What an index compares: addresses differ only in case for every real mail provider. */
export const emailIndexForm = (email: string) => email.toLowerCase();

/** `010-****-5678` for Korean mobiles, else the country prefix and the last four: `+44******5678`. */
export function maskPhone(e164: string): string {
  if (e164.startsWith('+821')) {
    const national = `0${e164.slice(3)}`;
    const middle = national.length - 7;
    return `${national.slice(0, 3)}-${'*'.repeat(middle)}-${national.slice(-4)}`;
  }
  return `${e164.slice(0, 3)}${'*'.repeat(Math.max(0, e164.length - 7))}${e164.slice(-4)}`;
}

/** `a***@example.com`: the first character of the local part and the domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}
