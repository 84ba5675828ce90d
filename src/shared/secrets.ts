// Hashing of bearer secrets and constant-time comparison. API keys carry ~190 random bits, so a
// single SHA-256 is enough (no password stretching needed) and lets us look keys up by hash.
import { createHash, timingSafeEqual } from 'node:crypto';

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Compares two secrets without leaking, through timing, where they first differ or how long either is. */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(hashSecret(a), hashSecret(b));
}

export function hashesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
