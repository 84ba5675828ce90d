// A small MaxMind DB (mmdb) file written byte by byte, for the tests that need a City database: no
// npm package ships one, and an operator's GeoLite2 City file cannot be committed. The file follows
// version 2.0 of the MaxMind DB format: a binary search tree over the address's bits (IPv4
// networks under ::/96 of an IPv6 tree, as MaxMind's own files keep them), 16 zero bytes, the data
// section, then the metadata map after the `\xAB\xCD\xEFMaxMind.com` marker. Map keys and records
// that repeat are written once and referred to by pointers, as real databases do, so the reader's
// pointer path is exercised too.
import { writeFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';

/** A number written as the MaxMind DB type named, rather than as the type a plain number gets. */
export class MmdbNumber {
  constructor(
    readonly type: 'uint16' | 'uint32' | 'uint64' | 'double',
    readonly value: number,
  ) {}
}

/**
 * A value of the data section: a string (utf8_string), a boolean, a whole non-negative number below
 * 2^32 (uint32), another number (double), an array, a map, or a number of an explicit type.
 */
export type MmdbValue = string | boolean | number | MmdbNumber | MmdbValue[] | { [key: string]: MmdbValue };

const uint16 = (value: number) => new MmdbNumber('uint16', value);
const double = (value: number) => new MmdbNumber('double', value);

export interface MmdbOptions {
  /** The metadata's database_type: readers (and src/ingest/geo.ts) decide what it holds from it. */
  databaseType: string;
  /** Bits per search-tree record: 24, 28 or 32. Default 28. */
  recordSize?: 24 | 28 | 32;
  /** A 4 tree holds IPv4 networks only; a 6 tree (the default) both. */
  ipVersion?: 4 | 6;
  languages?: string[];
  description?: string;
  /** Seconds since the epoch. Default a fixed time, so the same input writes the same bytes. */
  buildEpoch?: number;
}

/** One network (`203.0.113.0/24`, `2001:db8::/32`) and the record every address in it answers. */
export interface MmdbNetwork {
  network: string;
  record: MmdbValue;
}

const METADATA_MARKER = Buffer.from([0xab, 0xcd, 0xef, ...Buffer.from('MaxMind.com')]);

// Type numbers of the format; those above 7 are "extended" (written as 0 plus a byte of type − 7).
const POINTER = 1;
const UTF8_STRING = 2;
const DOUBLE = 3;
const UINT16 = 5;
const UINT32 = 6;
const MAP = 7;
const UINT64 = 9;
const ARRAY = 11;
const BOOLEAN = 14;

/** The control byte(s) of a value of `type` and `size` (bytes, entries or pairs). */
function control(type: number, size: number): Buffer {
  let sizeBits: number;
  let extra: number[];
  if (size < 29) [sizeBits, extra] = [size, []];
  else if (size < 285) [sizeBits, extra] = [29, [size - 29]];
  else if (size < 65_821) [sizeBits, extra] = [30, [(size - 285) >> 8, (size - 285) & 0xff]];
  else {
    const n = size - 65_821;
    [sizeBits, extra] = [31, [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]];
  }
  const head = type <= 7 ? [(type << 5) | sizeBits] : [sizeBits, type - 7];
  return Buffer.from([...head, ...extra]);
}

/** The smallest big-endian form of an unsigned integer (no bytes for 0). */
function unsignedBytes(value: number): Buffer {
  const bytes: number[] = [];
  for (let n = BigInt(value); n > 0n; n >>= 8n) bytes.unshift(Number(n & 0xffn));
  return Buffer.from(bytes);
}

/** A pointer to `offset` bytes into the data section, in the shortest of its four forms. */
function pointer(offset: number): Buffer {
  if (offset < 2048) return Buffer.from([(POINTER << 5) | (offset >> 8), offset & 0xff]);
  if (offset < 526_336) {
    const n = offset - 2048;
    return Buffer.from([(POINTER << 5) | (1 << 3) | (n >> 16), (n >> 8) & 0xff, n & 0xff]);
  }
  if (offset < 134_744_064) {
    const n = offset - 526_336;
    return Buffer.from([(POINTER << 5) | (2 << 3) | (n >> 24), (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);
  }
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(offset);
  return Buffer.concat([Buffer.from([(POINTER << 5) | (3 << 3)]), tail]);
}

/**
 * A value's bytes. `key` (the data section only) writes a map key: in full the first time, then as
 * a pointer to it; it is told where in the section the key's bytes would start.
 */
function encode(value: MmdbValue, key?: (text: string, at: number) => Buffer, at = 0): Buffer {
  const parts: Buffer[] = [];
  let length = 0;
  const push = (bytes: Buffer) => {
    parts.push(bytes);
    length += bytes.length;
  };
  const write = (v: MmdbValue) => push(encode(v, key, at + length));
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    push(control(UTF8_STRING, text.length));
    push(text);
  } else if (typeof value === 'boolean') push(control(BOOLEAN, value ? 1 : 0));
  else if (typeof value === 'number')
    write(new MmdbNumber(Number.isInteger(value) && value >= 0 && value < 2 ** 32 ? 'uint32' : 'double', value));
  else if (value instanceof MmdbNumber) {
    if (value.type === 'double') {
      const bytes = Buffer.alloc(8);
      bytes.writeDoubleBE(value.value);
      push(control(DOUBLE, 8));
      push(bytes);
    } else {
      const bytes = unsignedBytes(value.value);
      push(control({ uint16: UINT16, uint32: UINT32, uint64: UINT64 }[value.type], bytes.length));
      push(bytes);
    }
  } else if (Array.isArray(value)) {
    push(control(ARRAY, value.length));
    for (const item of value) write(item);
  } else {
    const entries = Object.entries(value);
    push(control(MAP, entries.length));
    for (const [name, v] of entries) {
      push(key ? key(name, at + length) : encode(name));
      write(v);
    }
  }
  return Buffer.concat(parts);
}

/** The data section: each distinct record once, each map key once and pointed to after. */
class DataSection {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly keys = new Map<string, number>();
  private readonly records = new Map<string, number>();

  /** The record's offset in the section, written now unless an equal record was. */
  add(record: MmdbValue): number {
    const id = JSON.stringify(record);
    const known = this.records.get(id);
    if (known !== undefined) return known;
    const offset = this.size;
    const bytes = encode(
      record,
      (text, at) => {
        const first = this.keys.get(text);
        if (first !== undefined) return pointer(first);
        this.keys.set(text, at);
        return encode(text);
      },
      offset,
    );
    this.chunks.push(bytes);
    this.size += bytes.length;
    this.records.set(id, offset);
    return offset;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

type Child = TreeNode | { data: number } | null;
interface TreeNode {
  children: [Child, Child];
}

/** The network's address bits (128 for a 6 tree, IPv4 under ::/96) and its prefix length there. */
function networkBits(network: string, ipVersion: 4 | 6): { bits: number[]; prefix: number } {
  const [address, length] = network.split('/');
  if (!address || length === undefined) throw new Error(`not a network: ${network}`);
  let bytes: number[];
  let prefix = Number(length);
  if (isIPv4(address)) {
    bytes = address.split('.').map(Number);
    if (ipVersion === 6) {
      bytes = [...new Array(12).fill(0), ...bytes];
      prefix += 96;
    }
  } else if (isIPv6(address) && ipVersion === 6) {
    const [head = '', tail = ''] = address.split('::');
    const groups = (s: string) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
    const h = groups(head);
    const t = groups(tail);
    const all = address.includes('::') ? [...h, ...new Array(8 - h.length - t.length).fill(0), ...t] : h;
    bytes = all.flatMap((g) => [g >> 8, g & 0xff]);
  } else throw new Error(`not a network of an IPv${ipVersion} tree: ${network}`);
  const bits = bytes.flatMap((b) => [7, 6, 5, 4, 3, 2, 1, 0].map((i) => (b >> i) & 1));
  return { bits, prefix };
}

/** The whole file: search tree, separator, data section, marker and metadata. */
function mmdbFile(networks: readonly MmdbNetwork[], options: MmdbOptions): Buffer {
  const recordSize = options.recordSize ?? 28;
  const ipVersion = options.ipVersion ?? 6;
  const data = new DataSection();
  const root: TreeNode = { children: [null, null] };
  for (const { network, record } of networks) {
    const { bits, prefix } = networkBits(network, ipVersion);
    if (prefix < 1) throw new Error(`a network needs at least one bit of prefix: ${network}`);
    let node = root;
    for (let depth = 0; depth < prefix - 1; depth++) {
      const bit = bits[depth]!;
      const child = node.children[bit];
      if (child && 'data' in child) throw new Error(`${network} lies inside a network listed before it`);
      node = child ?? (node.children[bit] = { children: [null, null] });
    }
    const last = bits[prefix - 1]!;
    if (node.children[last]) throw new Error(`${network} overlaps a network listed before it`);
    node.children[last] = { data: data.add(record) };
  }

  // Nodes numbered breadth first from the root (node 0).
  const order: TreeNode[] = [root];
  for (let i = 0; i < order.length; i++)
    for (const child of order[i]!.children) if (child && 'children' in child) order.push(child);
  const index = new Map(order.map((node, i) => [node, i]));
  const nodeCount = order.length;
  // A record: another node's number; node_count for "no data"; past it, 16 + the data's offset.
  const recordValue = (child: Child): number =>
    child === null ? nodeCount : 'data' in child ? nodeCount + 16 + child.data : index.get(child)!;

  const nodeBytes = recordSize / 4;
  const tree = Buffer.alloc(nodeCount * nodeBytes);
  order.forEach((node, i) => {
    const [left, right] = node.children.map(recordValue) as [number, number];
    if (Math.max(left, right) >= 2 ** recordSize) throw new Error(`records do not fit in ${recordSize} bits`);
    const at = i * nodeBytes;
    if (recordSize === 24) {
      tree.writeUIntBE(left, at, 3);
      tree.writeUIntBE(right, at + 3, 3);
    } else if (recordSize === 28) {
      // The middle byte holds the top four bits of each record, the left one's in its high nibble.
      tree.writeUIntBE(left & 0xffffff, at, 3);
      tree[at + 3] = ((left >>> 24) << 4) | (right >>> 24);
      tree.writeUIntBE(right & 0xffffff, at + 4, 3);
    } else {
      tree.writeUInt32BE(left, at);
      tree.writeUInt32BE(right, at + 4);
    }
  });

  const metadata = encode({
    binary_format_major_version: uint16(2),
    binary_format_minor_version: uint16(0),
    build_epoch: new MmdbNumber('uint64', options.buildEpoch ?? 1_767_225_600),
    database_type: options.databaseType,
    description: { en: options.description ?? 'Signpost test database' },
    ip_version: uint16(ipVersion),
    languages: options.languages ?? ['en'],
    node_count: new MmdbNumber('uint32', nodeCount),
    record_size: uint16(recordSize),
  });
  return Buffer.concat([tree, Buffer.alloc(16), data.bytes(), METADATA_MARKER, metadata]);
}

/** A place as a GeoIP2 City record has it. */
export interface CityPlace {
  /** ISO 3166-1 alpha-2 (KR). */
  country: string;
  /** The subdivision's ISO 3166-2 code without the country (11 for KR-11); none: no subdivisions. */
  region?: string;
  /** English city name; none: no city. */
  city?: string;
  latitude: number;
  longitude: number;
  timeZone?: string;
}

/** A record shaped as GeoLite2 City's: continent, country, subdivisions, city, location. */
function cityRecord(place: CityPlace): MmdbValue {
  const id = (s: string) => [...s].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 10_000_000, 7);
  return {
    ...(place.city ? { city: { geoname_id: id(place.city), names: { en: place.city } } } : {}),
    country: { geoname_id: id(place.country), iso_code: place.country, names: { en: place.country } },
    location: {
      accuracy_radius: uint16(20),
      latitude: double(place.latitude),
      longitude: double(place.longitude),
      ...(place.timeZone ? { time_zone: place.timeZone } : {}),
    },
    ...(place.region
      ? {
          subdivisions: [
            { geoname_id: id(place.country + place.region), iso_code: place.region, names: { en: place.region } },
          ],
        }
      : {}),
  };
}

/** Writes a City database of these places to `file` (GeoLite2-City unless the type is given). */
export function writeCityDatabase(
  file: string,
  places: ReadonlyArray<{ network: string } & CityPlace>,
  options: Partial<MmdbOptions> = {},
): void {
  const networks = places.map(({ network, ...place }) => ({ network, record: cityRecord(place) }));
  writeFileSync(file, mmdbFile(networks, { databaseType: 'GeoLite2-City', ...options }));
}
