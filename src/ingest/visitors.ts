// Unique visitors without keeping who they are: a click's visitor is a keyed hash of its address
// and user agent under a salt that changes every UTC day, derived from the deployment's own key.
// The same person counts once a day; days cannot be linked, and nobody without the key can test
// an address against a hash. Rollups keep only approximate distinct counts of these hashes.
import { createHmac, hash } from 'node:crypto';

/** A click's visitor hash (48 bits: exact in JSON numbers); 0 when there is no address to go by. */
export type VisitorHasher = (ip: string, userAgent: string, occurredAt: number) => number;

const DAY_MS = 86_400_000;

export function createVisitorHasher(key: Buffer): VisitorHasher {
  // Clicks of a batch share their day: one salt for it, made again when the day turns.
  let day = Number.NaN;
  let salt = '';
  return (ip, userAgent, occurredAt) => {
    if (!ip) return 0;
    const d = Math.floor(occurredAt / DAY_MS);
    if (d !== day) {
      day = d;
      salt = createHmac('sha256', key).update(`visitor-day:${d}`).digest('hex');
    }
    // SHA-256 of the secret day salt (fixed length, so nothing else can pass for it) and the
    // visitor, in one call: an HMAC object and three updates cost about twice as much per click.
    // Keyed by a secret prefix rather than HMAC: length extension would only let someone who
    // holds a hash make others for longer inputs, never test an address. Never 0: that value
    // means "no visitor" in the tables.
    return hash('sha256', `${salt}${ip}\u0000${userAgent}`, 'buffer').readUIntBE(0, 6) || 1;
  };
}
