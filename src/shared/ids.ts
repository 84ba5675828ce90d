// Identifiers and random secrets: UUIDv7 event ids, API keys, partner credentials.
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

/** Random bytes drawn 4 KiB at a time: one crypto call per ~500 ids instead of two per id. */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function randomSlice(n: number): Buffer {
  if (poolOffset + n > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const slice = pool.subarray(poolOffset, poolOffset + n);
  poolOffset += n;
  return slice;
}

/**
 * UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then randomness. Ids from one process are strictly
 * increasing even within a millisecond (12-bit counter in rand_a), so they sort as they were made.
 */
export function uuidv7(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    seq = randomSlice(2).readUInt16BE(0) & 0x3ff;
  } else {
    seq++;
    if (seq > 0xfff) {
      lastMs++;
      seq = 0;
    }
  }
  const ms = lastMs;
  const rand = randomSlice(8);
  const hex =
    ms.toString(16).padStart(12, '0') +
    (0x7000 | seq).toString(16).padStart(4, '0') +
    ((rand.readUInt16BE(0) & 0x3fff) | 0x8000).toString(16).padStart(4, '0') +
    rand.subarray(2).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
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
