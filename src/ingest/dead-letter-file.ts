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

export interface DeadLetterFile {
  readonly path: string;
  append(letter: DeadLetter): Promise<void>;
}

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
  };
}
