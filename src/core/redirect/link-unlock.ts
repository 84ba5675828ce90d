// Protected links: the password check, and the proof a browser keeps for a day after giving the
// right password (a cookie per link: its expiry and an HMAC of it keyed by the link's password
// hash, so a new password, or none, makes every earlier proof worthless; no key of its own to share
// between instances).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { verifyPassword } from '../../shared/password-hash.js';
import type { CachedLink } from './link-resolver.js';

/** How long a browser is not asked again. */
export const UNLOCK_SECONDS = 24 * 60 * 60;

type Protected = Pick<CachedLink, 'kind' | 'id' | 'passwordHash'>;

/** The cookie holding a browser's proof for this link. */
export const unlockCookieName = (link: Pick<CachedLink, 'kind' | 'id'>) =>
  `sp_unlock_${link.kind === 'url' ? 'u' : 'c'}${link.id}`;

const mac = (link: Protected, expires: number) =>
  createHmac('sha256', link.passwordHash ?? '')
    .update(`${link.kind}:${link.id}:${expires}`)
    .digest();

/** The cookie's value, good until `nowMs` plus a day. */
export function unlockProof(link: Protected, nowMs: number): string {
  const expires = Math.floor(nowMs / 1000) + UNLOCK_SECONDS;
  return `${expires}.${mac(link, expires).toString('base64url')}`;
}

/** Whether `proof` (the cookie's value, if any) is a valid, unexpired proof for the link's password now. */
export function isUnlocked(link: Protected, proof: string | undefined, nowMs: number): boolean {
  if (link.passwordHash === null || !proof) return false;
  const dot = proof.indexOf('.');
  const expires = Number(proof.slice(0, dot));
  if (dot < 1 || !Number.isSafeInteger(expires) || expires * 1000 <= nowMs) return false;
  const given = Buffer.from(proof.slice(dot + 1), 'base64url');
  const expected = mac(link, expires);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function checkLinkPassword(link: Protected, password: string): Promise<boolean> {
  return link.passwordHash === null ? Promise.resolve(false) : verifyPassword(password, link.passwordHash);
}
