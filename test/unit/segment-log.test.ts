// The in-process bus's segment log on a real folder: records come back after a reopen, a torn or
// corrupted tail is cut at open (and only it), appends of one tick share one write, segments are
// deleted once released, and sequence numbers never go back, even with every segment deleted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSegmentLog, type LogRecord, type SegmentLog } from '../../src/ingest/segment-log.js';
import { crc32 } from '../../src/shared/crc32.js';
import { createLogger } from '../../src/shared/logger.js';

const log = createLogger({ level: 'silent', pretty: false });
const dirs: string[] = [];
const opened: SegmentLog[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-log-'));
  dirs.push(dir);
  return dir;
}

function open(dir: string, extra: { segmentBytes?: number; minNextSeq?: number } = {}): SegmentLog {
  const segmentLog = openSegmentLog({ dir, log, fsyncIntervalMs: 1_000, ...extra });
  opened.push(segmentLog);
  return segmentLog;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((l) => l.close().catch(() => {})));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const all = (segmentLog: SegmentLog, after = 0) => {
  const records: { seq: number; id: string; subject: string; text: string }[] = [];
  segmentLog.replay(after, (r: LogRecord) =>
    records.push({ seq: r.seq, id: r.id, subject: r.subject, text: Buffer.from(r.data).toString() }),
  );
  return records;
};

const segmentFiles = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.seg'))
    .sort();

describe('crc32', () => {
  it('matches the IEEE check value and zlib', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.from(''))).toBe(0);
    expect(crc32(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });

  it('agrees with the bitwise definition on every length and offset', () => {
    const bitwise = (bytes: Uint8Array, start: number, end: number) => {
      let crc = 0xffffffff;
      for (let i = start; i < end; i++) {
        crc ^= bytes[i]!;
        for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
      }
      return (crc ^ 0xffffffff) >>> 0;
    };
    const bytes = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 151 + 17) & 0xff));
    for (let start = 0; start < 9; start++) {
      for (let end = start; end <= bytes.length; end += 7)
        expect(crc32(bytes, start, end)).toBe(bitwise(bytes, start, end));
    }
  });
});

describe('segment log', () => {
  it('gives back every record after a reopen, in order, and continues the sequence', async () => {
    const dir = tempDir();
    const first = open(dir);
    const seqs = await Promise.all(
      ['a', 'b', 'c'].map((t, i) => first.append(`id-${i}`, 'events.click', Buffer.from(t))),
    );
    expect(seqs).toEqual([1, 2, 3]);
    // No close: what resolved is in the file, as after a crash.
    const second = open(dir);
    expect(all(second)).toEqual([
      { seq: 1, id: 'id-0', subject: 'events.click', text: 'a' },
      { seq: 2, id: 'id-1', subject: 'events.click', text: 'b' },
      { seq: 3, id: 'id-2', subject: 'events.click', text: 'c' },
    ]);
    expect(all(second, 2).map((r) => r.seq)).toEqual([3]);
    expect(await second.append('id-3', 'events.api_request', Buffer.from('d'))).toBe(4);
    expect(all(second).map((r) => r.text)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('cuts a torn last record at open and keeps the intact ones before it', async () => {
    const dir = tempDir();
    const first = open(dir);
    for (const t of ['one', 'two', 'three']) await first.append(t, 'events.click', Buffer.from(t.repeat(20)));
    await first.close();
    const [file] = segmentFiles(dir);
    const full = fs.statSync(path.join(dir, file!)).size;
    fs.truncateSync(path.join(dir, file!), full - 7);

    const second = open(dir);
    expect(all(second).map((r) => r.id)).toEqual(['one', 'two']);
    // The torn bytes are gone from the file: what follows is readable again.
    expect(fs.statSync(path.join(dir, file!)).size).toBeLessThan(full - 7);
    await second.append('four', 'events.click', Buffer.from('4'));
    const third = open(dir);
    expect(all(third).map((r) => r.id)).toEqual(['one', 'two', 'four']);
  });

  it('cuts a last record whose bytes were damaged (its CRC no longer matches)', async () => {
    const dir = tempDir();
    const first = open(dir);
    for (const t of ['one', 'two']) await first.append(t, 'events.click', Buffer.from(t.repeat(20)));
    await first.close();
    const file = path.join(dir, segmentFiles(dir)[0]!);
    const bytes = fs.readFileSync(file);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 3) ^ 0xff, bytes.length - 3);
    fs.writeFileSync(file, bytes);
    expect(all(open(dir)).map((r) => r.id)).toEqual(['one']);
  });

  it('writes the appends of one tick together, and those made during a write in the next one', async () => {
    const segmentLog = open(tempDir());
    const before = segmentLog.writeCount();
    const firstTick = Array.from({ length: 200 }, (_, i) =>
      segmentLog.append(`a${i}`, 'events.click', Buffer.from('x')),
    );
    await Promise.all(firstTick);
    expect(segmentLog.writeCount() - before).toBe(1);

    // Appended while a write is under way: one more write for all of them.
    const writing = segmentLog.append('b0', 'events.click', Buffer.from('x'));
    await new Promise((r) => setImmediate(r));
    const during = Array.from({ length: 50 }, (_, i) => segmentLog.append(`c${i}`, 'events.click', Buffer.from('x')));
    await Promise.all([writing, ...during]);
    expect(segmentLog.writeCount() - before).toBeLessThanOrEqual(3);
    expect(all(segmentLog)).toHaveLength(251);
  });

  it('rolls segments at their size and deletes those released, never the one being written', async () => {
    const dir = tempDir();
    const segmentLog = open(dir, { segmentBytes: 300 });
    for (let i = 1; i <= 20; i++) await segmentLog.append(`m${i}`, 'events.click', Buffer.from('y'.repeat(100)));
    expect(segmentFiles(dir).length).toBeGreaterThan(5);

    segmentLog.release(10);
    await new Promise((r) => setTimeout(r, 50));
    // Every record after the release point is still there; a few before it may share a segment.
    const left = all(segmentLog).map((r) => r.seq);
    expect(left.filter((s) => s > 10)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(left.length).toBeLessThan(13);

    segmentLog.release(20);
    await new Promise((r) => setTimeout(r, 50));
    expect(segmentFiles(dir)).toHaveLength(1);
    await segmentLog.close();
    // Everything released and deleted: the sequence still goes on from where it was.
    const reopened = open(dir, { segmentBytes: 300 });
    expect(await reopened.append('next', 'events.click', Buffer.from('z'))).toBe(21);
  });

  it('never hands out a seq a checkpoint may have seen, even with the folder emptied', async () => {
    const segmentLog = open(tempDir(), { minNextSeq: 500 });
    expect(await segmentLog.append('x', 'events.click', Buffer.from('x'))).toBe(500);
  });
});
