// An organization's IP allow-list: entries are addresses or CIDR blocks, IPv4 or IPv6; an empty
// list allows every address.
import { BlockList, isIP } from 'node:net';
import { normalizeIp } from '../../shared/ip.js';

export function ipAllowed(allowlist: string[], clientIp: string): boolean {
  if (allowlist.length === 0) return true;
  const ip = normalizeIp(clientIp);
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  const list = new BlockList();
  for (const entry of allowlist) {
    const [address, prefix] = entry.split('/');
    if (!address) continue;
    const entryFamily = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, entryFamily);
    else list.addSubnet(address, Number(prefix), entryFamily);
  }
  return list.check(ip, family);
}

/** Whether `value` may be an allow-list entry: an address, or a block with a prefix its family allows. */
export function isIpOrCidr(value: string): boolean {
  const [address, prefix, extra] = value.split('/');
  if (!address || extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
