// CRC-32 (IEEE 802.3, the zlib/PNG polynomial). Frames of the bus's segment log carry it so a
// record torn by a crash is recognised and cut. zlib's own (native, vectorised) runs several
// times faster than a table-driven loop in JavaScript, and every event batch passes here once.
import { crc32 as zlibCrc32 } from 'node:zlib';

/** The CRC-32 of `bytes[start, end)`, as an unsigned 32-bit number. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return zlibCrc32(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
}
