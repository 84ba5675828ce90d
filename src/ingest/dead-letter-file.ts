// The in-process bus's dead letters: messages that could never be processed, kept with the reason
// in a JSON-lines file under DATA_DIR (one object a line: time, subject, id, reason, base64 data),
// so an operator can read, fix and publish them again. Appended, never rewritten.
import fs from 'node:fs';
import path from 'node:path';

export interface DeadLetter {
  subject: string;
  id: string;
  reason: string;
  data: Uint8Array;
}

/** A dead letter as the operator lists it (without its data). */
export interface ListedDeadLetter {
  subject: string;
  id: string;
  reason: string;
  at: Date;
}

export interface DeadLetterFile {
  readonly path: string;
  append(letter: DeadLetter): Promise<void>;
  /** The newest `limit` letters, newest first, read from the end of the file. */
  recent(limit: number): Promise<ListedDeadLetter[]>;
}

/** How much of the file's end is read for a listing: lines are small, data is base64 of one batch. */
const TAIL_BYTES = 8 * 1024 * 1024;

export function createDeadLetterFile(file: string): DeadLetterFile {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Appends one after the other, so two lines never interleave.
  let tail: Promise<void> = Promise.resolve();
  return {
    path: file,
    append(letter) {
      const line = `${JSON.stringify({
        time: new Date().toISOString(),
        subject: letter.subject,
        id: letter.id,
        reason: letter.reason,
        data: Buffer.from(letter.data.buffer, letter.data.byteOffset, letter.data.byteLength).toString('base64'),
      })}\n`;
      const written = tail.then(() => fs.promises.appendFile(file, line));
      tail = written.catch(() => {});
      return written;
    },
    async recent(limit) {
      await tail;
      let handle: fs.promises.FileHandle | undefined;
      try {
        handle = await fs.promises.open(file, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
      try {
        const { size } = await handle.stat();
        const start = Math.max(0, size - TAIL_BYTES);
        const buffer = Buffer.alloc(size - start);
        await handle.read(buffer, 0, buffer.length, start);
        const lines = buffer.toString('utf8').split('\n').filter(Boolean);
        // A read that starts mid-file starts mid-line.
        if (start > 0) lines.shift();
        const listed: ListedDeadLetter[] = [];
        for (let i = lines.length - 1; i >= 0 && listed.length < limit; i--) {
          try {
            const entry = JSON.parse(lines[i]!) as { time: string; subject: string; id: string; reason: string };
            listed.push({ subject: entry.subject, id: entry.id, reason: entry.reason, at: new Date(entry.time) });
          } catch {
            // A line cut by a crash mid-append: not a letter.
          }
        }
        return listed;
      } finally {
        await handle.close();
      }
    },
  };
}
