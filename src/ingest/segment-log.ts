// The durable side of the in-process bus: every published message as one record of an append-only
// log, in segment files under one folder. Appends made before the running task yields leave in one
// write (group commit) and an append resolves once its record reached the file, so a process crash
// loses nothing that was acknowledged to the publisher; fdatasync runs on an interval, which bounds
// what a power failure can take. Each record is framed with its length and a CRC-32, so a write
// torn by a crash is recognised at open and cut. The bus deletes a segment once every consumer has
// acknowledged past it (release).
//
// Frame: u32 body length, u32 CRC-32 of the body, body. Body: u48 seq, u16 id length, id,
// u16 subject length, subject, data. Segment files are named by the first seq they may hold.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32 } from '../shared/crc32.js';
import type { Logger } from '../shared/logger.js';

export interface LogRecord {
  seq: number;
  id: string;
  subject: string;
  data: Uint8Array;
}

export interface SegmentLog {
  /** Appends a record; resolves with its sequence number once the record reached the file. */
  append(id: string, subject: string, data: Uint8Array): Promise<number>;
  /** Visits, in order, every record written with a seq above `afterSeq` (read from the files). */
  replay(afterSeq: number, visit: (record: LogRecord) => void): void;
  /** The highest seq that reached the file (0 for an empty log). */
  lastSeq(): number;
  /** Deletes the segments whose records all have seqs up to `throughSeq`, never the one being written. */
  release(throughSeq: number): void;
  /** Segment files on disk, the one being written included. */
  segmentCount(): number;
  /** Writes made so far (group commits: several appends each). */
  writeCount(): number;
  /** Writes what is pending, syncs and closes the file. */
  close(): Promise<void>;
}

export interface SegmentLogOptions {
  dir: string;
  log: Logger;
  /** fdatasync at most this often; 0 syncs every group commit before its appends resolve. */
  fsyncIntervalMs: number;
  /** A segment rolls once it holds this many bytes. */
  segmentBytes?: number;
  /** The next record takes at least this seq (the consumers' checkpoints may name seqs of deleted segments). */
  minNextSeq?: number;
}

const HEADER = 8;
const SUFFIX = '.seg';
const MAX_SEQ_BYTES = 6;

interface Segment {
  first: number;
  file: string;
}

interface Active extends Segment {
  fd: number;
  size: number;
}

const datasync = promisify(fs.fdatasync);
const closeFd = promisify(fs.close);

interface Waiting {
  frame: Buffer;
  seq: number;
  resolve(seq: number): void;
  reject(err: Error): void;
}

const segmentName = (first: number) => `${String(first).padStart(16, '0')}${SUFFIX}`;

function encode(seq: number, id: string, subject: string, data: Uint8Array): Buffer {
  const idBytes = Buffer.from(id);
  const subjectBytes = Buffer.from(subject);
  const bodyLength = MAX_SEQ_BYTES + 2 + idBytes.length + 2 + subjectBytes.length + data.byteLength;
  const frame = Buffer.allocUnsafe(HEADER + bodyLength);
  let at = HEADER;
  frame.writeUIntBE(seq, at, MAX_SEQ_BYTES);
  at = frame.writeUInt16BE(idBytes.length, at + MAX_SEQ_BYTES);
  at += idBytes.copy(frame, at);
  at = frame.writeUInt16BE(subjectBytes.length, at);
  at += subjectBytes.copy(frame, at);
  frame.set(data, at);
  frame.writeUInt32BE(bodyLength, 0);
  frame.writeUInt32BE(crc32(frame, HEADER), 4);
  return frame;
}

/** Visits the intact records of a segment's bytes; returns the length of its intact prefix. */
function parse(bytes: Buffer, visit: (record: LogRecord) => void): number {
  let at = 0;
  while (at + HEADER <= bytes.length) {
    const bodyLength = bytes.readUInt32BE(at);
    const end = at + HEADER + bodyLength;
    if (bodyLength < MAX_SEQ_BYTES + 4 || end > bytes.length) break;
    if (crc32(bytes, at + HEADER, end) !== bytes.readUInt32BE(at + 4)) break;
    let p = at + HEADER;
    const seq = bytes.readUIntBE(p, MAX_SEQ_BYTES);
    p += MAX_SEQ_BYTES;
    const idLength = bytes.readUInt16BE(p);
    const id = bytes.toString('utf8', p + 2, p + 2 + idLength);
    p += 2 + idLength;
    const subjectLength = bytes.readUInt16BE(p);
    const subject = bytes.toString('utf8', p + 2, p + 2 + subjectLength);
    p += 2 + subjectLength;
    visit({ seq, id, subject, data: bytes.subarray(p, end) });
    at = end;
  }
  return at;
}

export function openSegmentLog(options: SegmentLogOptions): SegmentLog {
  const { dir, fsyncIntervalMs } = options;
  const segmentBytes = options.segmentBytes ?? 32 * 1024 * 1024;
  const log = options.log.child({ module: 'segment-log' });
  fs.mkdirSync(dir, { recursive: true });

  const segments: Segment[] = fs
    .readdirSync(dir)
    .filter((f) => /^\d{16}\.seg$/.test(f))
    .sort()
    .map((f) => ({ first: Number(f.slice(0, 16)), file: path.join(dir, f) }));
  // Every segment is checked: a crash tears at most the tail of the one being written, and a
  // failed write (disk full) the tail of the one it was written to.
  let last = 0;
  for (const segment of segments) {
    const bytes = fs.readFileSync(segment.file);
    const intact = parse(bytes, (record) => (last = record.seq));
    if (intact < bytes.length) {
      fs.truncateSync(segment.file, intact);
      log.warn(
        { file: path.basename(segment.file), cut: bytes.length - intact },
        'cut a torn record at the end of a bus log segment',
      );
    }
  }
  let nextSeq = Math.max(last + 1, segments.at(-1)?.first ?? 1, options.minNextSeq ?? 1);
  let lastSeq = nextSeq - 1;

  let pending: Waiting[] = [];
  let active: Active | undefined;
  let flushing: Promise<void> | undefined;
  let scheduled = false;
  let unsynced = false;
  let syncing: Promise<void> | undefined;
  let closed = false;
  let writes = 0;
  // Rolled segments are synced and closed in the background; close() waits for them.
  const retiring = new Set<Promise<void>>();

  /** Opening a file is quick and happens once per segment: synchronous keeps the order plain. */
  function openActive(): Active {
    // The smallest seq not yet in a file: appends made during a roll have theirs already.
    const first = pending[0]?.seq ?? nextSeq;
    const file = path.join(dir, segmentName(first));
    const fd = fs.openSync(file, 'a');
    const size = fs.fstatSync(fd).size;
    if (segments.at(-1)?.file !== file) segments.push({ first, file });
    return { first, file, fd, size };
  }

  function retire(segment: Active, sync: boolean): void {
    const done: Promise<void> = (sync ? datasync(segment.fd) : Promise.resolve())
      .catch((err) => log.error({ err, file: segment.file }, 'could not sync a bus log segment'))
      .then(() => closeFd(segment.fd))
      .catch(() => {})
      .finally(() => retiring.delete(done));
    retiring.add(done);
  }

  /**
   * Synchronous: a write of a group commit into the page cache takes microseconds, less than the
   * thread-pool round trip of an asynchronous one, and the publisher's next batch waits for it.
   * Only the fdatasync, which may take milliseconds, runs off the event loop.
   */
  function writeAll(fd: number, bytes: Buffer): void {
    for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
  }

  async function flush(): Promise<void> {
    scheduled = false;
    if (pending.length === 0) return;
    const group = pending;
    pending = [];
    try {
      active ??= openActive();
      const bytes = group.length === 1 ? group[0]!.frame : Buffer.concat(group.map((w) => w.frame));
      writes++;
      writeAll(active.fd, bytes);
      active.size += bytes.length;
      if (fsyncIntervalMs === 0) await datasync(active.fd);
      else unsynced = true;
      lastSeq = group.at(-1)!.seq;
      for (const w of group) w.resolve(w.seq);
      if (active.size >= segmentBytes) {
        retire(active, true);
        active = undefined;
        active = openActive();
      }
    } catch (err) {
      for (const w of group) w.reject(err as Error);
      // How much of the group reached the file is unknown: the next write starts a new segment,
      // and the next open cuts this one after its last intact record.
      if (active) retire(active, false);
      active = undefined;
      log.error({ err, records: group.length }, 'could not write to the bus log');
    }
  }

  function startFlush(): Promise<void> {
    return (flushing ??= flush().finally(() => {
      flushing = undefined;
      if (pending.length > 0) schedule();
    }));
  }

  function schedule(): void {
    if (scheduled || flushing) return;
    scheduled = true;
    // Every append made before the running task yields goes in the same write (the publisher hands
    // over all its subjects' batches at once); appends made while a write is under way go together
    // in the next one. Not at the end of the loop's turn: on a busy machine one turn answers many
    // requests, and a batch waiting for the turn's end would be lost to a crash for all that time.
    queueMicrotask(() => void startFlush());
  }

  // Consumers replay one after the other at start, often from the same segments: they share one
  // copy of each file's bytes (their messages are views into it) until the start is over.
  const readCache = new Map<string, Buffer>();
  let cachedAtSeq = 0;
  function readSegment(file: string): Buffer | undefined {
    // A write since: the copies may lack its records.
    if (cachedAtSeq !== lastSeq) readCache.clear();
    cachedAtSeq = lastSeq;
    let bytes = readCache.get(file);
    if (bytes) return bytes;
    try {
      bytes = fs.readFileSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    if (readCache.size === 0) setImmediate(() => readCache.clear());
    readCache.set(file, bytes);
    return bytes;
  }

  const syncTimer =
    fsyncIntervalMs > 0
      ? setInterval(() => {
          if (!unsynced || syncing || !active) return;
          unsynced = false;
          const file = active.file;
          syncing = datasync(active.fd)
            .catch((err) => log.error({ err, file }, 'could not sync the bus log'))
            .finally(() => (syncing = undefined));
        }, fsyncIntervalMs)
      : undefined;
  syncTimer?.unref();

  active = openActive();

  return {
    append(id, subject, data) {
      if (closed) return Promise.reject(new Error('the bus log is closed'));
      const seq = nextSeq++;
      const frame = encode(seq, id, subject, data);
      return new Promise<number>((resolve, reject) => {
        pending.push({ frame, seq, resolve, reject });
        schedule();
      });
    },
    replay(afterSeq, visit) {
      for (let i = 0; i < segments.length; i++) {
        const next = segments[i + 1];
        if (next && next.first <= afterSeq + 1) continue;
        const bytes = readSegment(segments[i]!.file);
        if (!bytes) continue;
        // Only records whose write completed: one in flight may be half in the file.
        parse(bytes, (record) => {
          if (record.seq > afterSeq && record.seq <= lastSeq) visit(record);
        });
      }
    },
    lastSeq: () => lastSeq,
    release(throughSeq) {
      while (segments.length > 1 && segments[1]!.first <= throughSeq + 1 && segments[0]!.file !== active?.file) {
        const [gone] = segments.splice(0, 1);
        fs.rm(gone!.file, { force: true }, (err) => {
          if (err) log.warn({ err, file: gone!.file }, 'could not delete a bus log segment');
        });
      }
    },
    segmentCount: () => segments.length,
    writeCount: () => writes,
    async close() {
      closed = true;
      while (flushing || pending.length > 0) await startFlush();
      if (syncTimer) clearInterval(syncTimer);
      await syncing;
      if (active) {
        await datasync(active.fd).catch((err) => log.error({ err }, 'could not sync the bus log at close'));
        await closeFd(active.fd);
        active = undefined;
      }
      await Promise.all(retiring);
    },
  };
}
