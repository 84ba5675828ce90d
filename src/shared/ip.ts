// One spelling per client address, so the allow-list, click records and deep-link matching all
// compare the same text for the same client.
import { isIP } from 'node:net';

/** `::ffff:1.2.3.4` → `1.2.3.4`, IPv6 in lowercase. */
export function normalizeIp(ip: string): string {
  const trimmed = ip.trim().toLowerCase();
  return trimmed.startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}
