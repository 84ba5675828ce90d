// Which network addresses an outbound webhook may reach: public unicast only. Private, loopback,
// link-local, CGNAT, multicast, unspecified, reserved and cloud-metadata addresses are refused, in
// every spelling (IPv4-mapped, IPv4-compatible, NAT64 and 6to4 IPv6 forms carry an IPv4 address
// that is checked as such). Pure functions: the caller resolves names and pins the address.
import { isIPv4, isIPv6 } from 'node:net';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'metadata'
  | 'cgnat'
  | 'multicast'
  | 'unspecified'
  | 'reserved'
  | 'invalid';

type V4 = [number, number, number, number];

function parseV4(text: string): V4 | undefined {
  if (!isIPv4(text)) return undefined;
  return text.split('.').map(Number) as V4;
}

/** 16 bytes of an IPv6 address (with an optional dotted IPv4 tail), or undefined. */
function parseV6(text: string): number[] | undefined {
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(bare)) return undefined;
  let head = bare;
  const tail: number[] = [];
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (dotted) {
    const v4 = parseV4(dotted[1]!);
    if (!v4) return undefined;
    head = `${bare.slice(0, dotted.index)}:0:0`; // placeholder groups for the 4 bytes
    tail.push(...v4);
  }
  const [left, right] = head.includes('::') ? (head.split('::') as [string, string]) : [head, undefined];
  const groups = (s: string | undefined) =>
    s
      ? s
          .split(':')
          .filter((g) => g !== '')
          .map((g) => parseInt(g, 16))
      : [];
  const l = groups(left);
  const r = groups(right);
  const words = right === undefined ? l : [...l, ...new Array<number>(8 - l.length - r.length).fill(0), ...r];
  if (words.length !== 8) return undefined;
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function inV4(a: V4, base: V4, bits: number): boolean {
  const toInt = (x: V4) => ((x[0] << 24) | (x[1] << 16) | (x[2] << 8) | x[3]) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (toInt(a) & mask) >>> 0 === (toInt(base) & mask) >>> 0;
}

const V4_RULES: [V4, number, AddressClass][] = [
  [[169, 254, 169, 254], 32, 'metadata'], // AWS, GCP, Azure, OpenStack instance metadata
  [[168, 63, 129, 16], 32, 'metadata'], // Azure wire server
  [[100, 100, 100, 200], 32, 'metadata'], // Alibaba Cloud metadata
  [[0, 0, 0, 0], 8, 'unspecified'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'cgnat'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link-local'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'reserved'], // IETF protocol assignments
  [[192, 0, 2, 0], 24, 'reserved'], // documentation
  [[192, 88, 99, 0], 24, 'reserved'], // 6to4 relay anycast
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'reserved'], // benchmarking
  [[198, 51, 100, 0], 24, 'reserved'],
  [[203, 0, 113, 0], 24, 'reserved'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved'], // includes 255.255.255.255
];

function classifyV4(a: V4): AddressClass {
  for (const [base, bits, cls] of V4_RULES) if (inV4(a, base, bits)) return cls;
  return 'public';
}

const startsWith = (bytes: number[], prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const zeros = (n: number) => new Array<number>(n).fill(0);

function classifyV6(b: number[]): AddressClass {
  const v4At12 = () => classifyV4(b.slice(12, 16) as V4);
  if (b.every((x) => x === 0)) return 'unspecified';
  if (startsWith(b, zeros(15)) && b[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated), 64:ff9b::a.b.c.d (NAT64)
  if (startsWith(b, [...zeros(10), 0xff, 0xff])) return v4At12();
  if (startsWith(b, zeros(12))) return v4At12() === 'public' ? 'reserved' : v4At12();
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return v4At12();
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 1])) return 'private'; // local-use NAT64
  // 6to4 (2002:a.b.c.d::/48) embeds an IPv4 address in bytes 2..5
  if (b[0] === 0x20 && b[1] === 0x02) {
    const embedded = classifyV4(b.slice(2, 6) as V4);
    return embedded === 'public' ? 'public' : embedded;
  }
  if (
    startsWith(b, [0xfd, 0x00, 0x0e, 0xc2]) &&
    b.slice(4, 14).every((x) => x === 0) &&
    b[14] === 0x02 &&
    b[15] === 0x54
  )
    return 'metadata'; // fd00:ec2::254
  if ((b[0]! & 0xfe) === 0xfc) return 'private'; // fc00::/7 unique local
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return 'link-local'; // fe80::/10
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0) return 'private'; // fec0::/10 site-local (deprecated)
  if (b[0] === 0xff) return 'multicast';
  if (startsWith(b, [0x01, 0x00, ...zeros(6)])) return 'reserved'; // 100::/64 discard
  if (startsWith(b, [0x20, 0x01, 0x0d, 0xb8])) return 'reserved'; // documentation
  if (b[0] === 0x20 && b[1] === 0x01 && (b[2]! & 0xfe) === 0) return 'reserved'; // 2001::/23 (Teredo, ORCHID, ...)
  if ((b[0]! & 0xe0) !== 0x20) return 'reserved'; // outside 2000::/3, the global unicast space
  return 'public';
}

/** The class of an IP address literal (IPv6 with or without brackets). */
export function classifyAddress(address: string): AddressClass {
  const v4 = parseV4(address);
  if (v4) return classifyV4(v4);
  const v6 = parseV6(address);
  return v6 ? classifyV6(v6) : 'invalid';
}

/** Why a webhook may not connect to this address, or undefined when it may. */
export function addressRefusal(address: string, options: { allowLoopback: boolean }): AddressClass | undefined {
  const cls = classifyAddress(address);
  if (cls === 'public') return undefined;
  if (cls === 'loopback' && options.allowLoopback) return undefined;
  return cls;
}

export const isLoopbackAddress = (address: string) => classifyAddress(address) === 'loopback';

/**
 * Names that always mean this machine or a private network, never a public site: localhost and
 * the suffixes reserved or conventional for local use (.localhost, .local, .internal, .lan,
 * .home.arpa, .localdomain). Compared without a trailing dot.
 */
export function isLocalName(name: string): boolean {
  const host = name.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost') return true;
  return ['.localhost', '.local', '.internal', '.lan', '.home.arpa', '.localdomain'].some((suffix) =>
    host.endsWith(suffix),
  );
}

/**
 * Why a URL's host is not a public site, from the host text alone (no DNS): a non-public address
 * literal, or a local name. Pass the WHATWG-parsed hostname (`new URL(...).hostname`), which has
 * already turned `2130706433`, `0x7f.1` or `0177.0.0.1` into 127.0.0.1 as a browser would.
 */
export function hostRefusal(hostname: string): AddressClass | 'local-name' | undefined {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIPv4(bare) || isIPv6(bare)) {
    const cls = classifyAddress(bare);
    return cls === 'public' ? undefined : cls;
  }
  return isLocalName(bare) ? 'local-name' : undefined;
}
