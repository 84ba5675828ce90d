// The IP allow-list as the operator API and the console take it: addresses or CIDR blocks.
import { z } from 'zod';
import { isIpOrCidr } from '../../core/access/ip-allow-rule.js';

/** An address or a CIDR block, IPv4 or IPv6. */
const ipOrCidr = z.string().trim().refine(isIpOrCidr, 'must be an IP address or a CIDR block such as 203.0.113.0/24');

export const ipAllowlistBody = z.object({ ips: z.array(ipOrCidr).max(200) });
