// A webhook receiver's check of X-Signature-256: one of its comma-separated entries (two during a
// secret rotation) is sha256=<hex HMAC-SHA256 of the exact raw body with the secret>.
import { createHmac } from 'node:crypto';

export function signedWith(header: string | string[] | undefined, raw: Buffer, secret: string): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  return String(header).split(',').includes(expected);
}
