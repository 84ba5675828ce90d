// Event batches parked on disk: what the bus could not take before memory ran to its bound or the
// process had to stop. One file per batch, named by its UUIDv7 id, so a directory listing is the
// sending order; written to a temporary name and renamed, so a crash never leaves half a batch.
import fs from 'node:fs';
import path from 'node:path';

export interface SpooledBatch {
  id: string;
  subject: string;
  data: Uint8Array;
  /** Events in the batch, for the counters. */
  count: number;
}

export interface Spool {
  put(batch: SpooledBatch): void;
  /** The oldest batch, or undefined when the spool is empty. */
  peek(): SpooledBatch | undefined;
  /** Every batch, oldest first. */
  all(): SpooledBatch[];
  remove(id: string): void;
  count(): number;
}

const SUFFIX = '.batch';

export function createSpool(dir: string): Spool {
  fs.mkdirSync(dir, { recursive: true });
  // Leftovers of a write interrupted by a crash.
  for (const f of fs.readdirSync(dir)) if (f.endsWith('.tmp')) fs.rmSync(path.join(dir, f), { force: true });
  const nameOf = (b: Omit<SpooledBatch, 'data'>) =>
    `${b.id}~${b.count}~${Buffer.from(b.subject).toString('base64url')}${SUFFIX}`;
  const list = () =>
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(SUFFIX))
      .sort();
  // The spool is empty nearly always, and the publisher asks after every batch it sent: an empty
  // spool answers from memory instead of listing the folder (one owner per folder).
  let files = list().length;
  const read = (name: string): SpooledBatch => {
    const [id, count, subject] = name.slice(0, -SUFFIX.length).split('~');
    return {
      id: id!,
      count: Number(count),
      subject: Buffer.from(subject!, 'base64url').toString(),
      data: fs.readFileSync(path.join(dir, name)),
    };
  };

  return {
    put(batch) {
      const file = path.join(dir, nameOf(batch));
      const replaces = fs.existsSync(file);
      fs.writeFileSync(`${file}.tmp`, batch.data);
      fs.renameSync(`${file}.tmp`, file);
      if (!replaces) files++;
    },
    peek() {
      if (files === 0) return undefined;
      const first = list()[0];
      return first === undefined ? undefined : read(first);
    },
    all: () => (files === 0 ? [] : list().map(read)),
    remove(id) {
      if (files === 0) return;
      for (const f of list()) {
        if (!f.startsWith(`${id}~`)) continue;
        fs.rmSync(path.join(dir, f), { force: true });
        files--;
      }
    },
    count: () => files,
  };
}
