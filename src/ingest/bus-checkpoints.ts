// Where each durable consumer of the in-process bus stands in the segment log: every message up to
// `through` that its subject filter matches is acknowledged, and so are the few seqs in `acked`
// beyond it (a message isolated and acknowledged while an older one still fails). One small JSON
// file per consumer, replaced by rename, so a crash leaves the previous checkpoint or the new one.
// A checkpoint that lags only means messages delivered again (with deliveryCount > 1), never lost.
import fs from 'node:fs';
import path from 'node:path';

export interface Checkpoint {
  through: number;
  acked: number[];
}

export interface Checkpoints {
  load(durable: string): Checkpoint | undefined;
  /** Every checkpoint on disk, by durable name (consumers of this run or an earlier one). */
  all(): Map<string, Checkpoint>;
  save(durable: string, checkpoint: Checkpoint): Promise<void>;
  saveSync(durable: string, checkpoint: Checkpoint): void;
}

const SUFFIX = '.json';

export function createCheckpoints(dir: string): Checkpoints {
  fs.mkdirSync(dir, { recursive: true });
  const fileOf = (durable: string) => path.join(dir, `${encodeURIComponent(durable)}${SUFFIX}`);
  const serialise = (c: Checkpoint) => JSON.stringify({ through: c.through, acked: c.acked });
  // Unique per write: two saves of one consumer may overlap.
  let writes = 0;

  function read(file: string): Checkpoint | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      return undefined;
    }
    const c = parsed as Partial<Checkpoint>;
    if (typeof c.through !== 'number' || !Array.isArray(c.acked)) return undefined;
    return { through: c.through, acked: c.acked.filter((s): s is number => typeof s === 'number') };
  }

  return {
    load: (durable) => read(fileOf(durable)),
    all() {
      const found = new Map<string, Checkpoint>();
      for (const f of fs.readdirSync(dir)) {
        if (!f.endsWith(SUFFIX)) continue;
        const checkpoint = read(path.join(dir, f));
        if (checkpoint) found.set(decodeURIComponent(f.slice(0, -SUFFIX.length)), checkpoint);
      }
      return found;
    },
    async save(durable, checkpoint) {
      const file = fileOf(durable);
      const tmp = `${file}.${++writes}.tmp`;
      await fs.promises.writeFile(tmp, serialise(checkpoint));
      await fs.promises.rename(tmp, file);
    },
    saveSync(durable, checkpoint) {
      const file = fileOf(durable);
      const tmp = `${file}.${++writes}.tmp`;
      fs.writeFileSync(tmp, serialise(checkpoint));
      fs.renameSync(tmp, file);
    },
  };
}
