// Identifiers and random secrets: UUIDv7 event ids, API keys, partner credentials, webhook secrets.
import { randomBytes, randomFillSync } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A random base62 string. Rejection sampling keeps every character uniform (a plain `% 62` would
 * favour the first eight characters).
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const bytes = randomBytes(Math.ceil((length - out.length) * 1.3) + 4);
    for (const b of bytes) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

let lastMs = 0;
let seq = 0;

/** Random bytes drawn 4 KiB at a time: one crypto call per ~400 ids instead of two per id. */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
/** Offset of `n` fresh random bytes in `pool`. */
function takeRandom(n: number): number {
  if (poolOffset + n > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const at = poolOffset;
  poolOffset += n;
  return at;
}

/** `bytes` fresh random bytes as base64url, from the pool (one crypto call per many). */
export function randomBase64url(bytes: number): string {
  const at = takeRandom(bytes);
  return pool.toString('base64url', at, at + bytes);
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then randomness. Ids from one process are strictly
 * increasing even within a millisecond (12-bit counter in rand_a), so they sort as they were made.
 * Built from a byte-to-hex table: it runs once per click.
 */
export function uuidv7(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    const at = takeRandom(2);
    seq = ((pool[at]! << 8) | pool[at + 1]!) & 0x3ff;
  } else {
    seq++;
    if (seq > 0xfff) {
      lastMs++;
      seq = 0;
    }
  }
  const ms = lastMs.toString(16).padStart(12, '0');
  const r = takeRandom(8);
  return (
    `${ms.slice(0, 8)}-${ms.slice(8, 12)}-${HEX[0x70 | (seq >> 8)]}${HEX[seq & 0xff]}-` +
    `${HEX[0x80 | (pool[r]! & 0x3f)]}${HEX[pool[r + 1]!]}-` +
    `${HEX[pool[r + 2]!]}${HEX[pool[r + 3]!]}${HEX[pool[r + 4]!]}${HEX[pool[r + 5]!]}${HEX[pool[r + 6]!]}${HEX[pool[r + 7]!]}`
  );
}

/** Service API key: 32 base62 characters (~190 bits) behind a recognisable prefix. */
export function newApiKey(): string {
  return `sp_live_${randomBase62(32)}`;
}

/** Partner SSO client id (public) and shared secret (HS256 key, 256 bits of entropy or more). */
export function newPartnerClientId(): string {
  return `spc_${randomBase62(20)}`;
}

export function newSharedSecret(): string {
  return randomBase62(48);
}

/**
 * Webhook signing secret: 256 random bits in base64 behind the `whsec_` prefix, the form Standard
 * Webhooks libraries take as it is.
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
