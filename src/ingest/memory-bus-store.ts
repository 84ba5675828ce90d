// The folder that makes the in-process bus durable (DATA_DIR/bus): the segment log of every
// published message (log/), each consumer's checkpoint in it (consumers/) and the dead letters
// (dead-letters.jsonl). It gives a starting consumer what it had not acknowledged, writes the
// checkpoints that moved, and deletes the log segments every consumer is past.
import path from 'node:path';
import type { Logger } from '../shared/logger.js';
import { createCheckpoints, type Checkpoint } from './bus-checkpoints.js';
import { createDeadLetterFile, type DeadLetterFile } from './dead-letter-file.js';
import type { MemoryQueue, Pending } from './memory-bus-queue.js';
import { openSegmentLog } from './segment-log.js';
import { subjectMatches } from './bus.js';

export interface BusStoreOptions {
  dir: string;
  log: Logger;
  fsyncIntervalMs: number;
  segmentBytes?: number;
}

/** What a consumer had not acknowledged when it last stopped (or its process died). */
export interface Unacknowledged {
  messages: Pending[];
  /** The log was read up to here. */
  replayedThrough: number;
  /** Seqs beyond the checkpoint acknowledged already. */
  ackedAhead: number[];
}

export interface BusStore {
  readonly deadLetters: DeadLetterFile;
  /** Appends a message to the log; resolves with its seq once it is in the file. */
  append(id: string, subject: string, data: Uint8Array): Promise<number>;
  /** The highest seq in the log. */
  lastSeq(): number;
  segmentCount(): number;
  /** Reads from the log what the consumer had not acknowledged: delivered before, so counted as redeliveries. */
  unacknowledged(durable: string, subject: string): Unacknowledged;
  /** Writes the checkpoints that moved (at once with `sync`), and deletes the segments every consumer is past. */
  saveCheckpoints(queues: ReadonlyMap<string, MemoryQueue>, dispatchedSeq: number, sync: boolean): void;
  /** Writes the checkpoint of a consumer that stopped, once a write of it under way is over. */
  saveStopped(durable: string, checkpoint: Checkpoint): Promise<void>;
  close(): Promise<void>;
}

export function openBusStore(options: BusStoreOptions): BusStore {
  const { dir, log } = options;
  const checkpoints = createCheckpoints(path.join(dir, 'consumers'));
  /** Checkpoints on disk, of consumers of this run (updated when they stop) and of earlier runs. */
  const saved = checkpoints.all();
  let highest = 0;
  for (const c of saved.values()) highest = Math.max(highest, c.through, ...c.acked);
  const segmentLog = openSegmentLog({
    dir: path.join(dir, 'log'),
    log,
    fsyncIntervalMs: options.fsyncIntervalMs,
    segmentBytes: options.segmentBytes,
    minNextSeq: highest + 1,
  });
  /** Checkpoint writes under way, by consumer. */
  const saving = new Map<string, Promise<void>>();

  return {
    deadLetters: createDeadLetterFile(path.join(dir, 'dead-letters.jsonl')),
    append: (id, subject, data) => segmentLog.append(id, subject, data),
    lastSeq: () => segmentLog.lastSeq(),
    segmentCount: () => segmentLog.segmentCount(),

    unacknowledged(durable, subject) {
      const checkpoint = checkpoints.load(durable) ?? saved.get(durable) ?? { through: 0, acked: [] };
      const acked = new Set(checkpoint.acked);
      const messages: Pending[] = [];
      segmentLog.replay(checkpoint.through, (record) => {
        if (acked.has(record.seq) || !subjectMatches(subject, record.subject)) return;
        // Delivered before, maybe written already: the consumer checks (the olap writer does).
        messages.push({
          id: record.id,
          subject: record.subject,
          data: record.data,
          deliveryCount: 2,
          seq: record.seq,
          failures: 0,
        });
      });
      return {
        messages,
        // Replay read every record written so far, some maybe not yet dispatched: those are not queued twice.
        replayedThrough: Math.max(checkpoint.through, segmentLog.lastSeq()),
        ackedAhead: checkpoint.acked.filter((seq) => seq > checkpoint.through),
      };
    },

    saveCheckpoints(queues, dispatchedSeq, sync) {
      let floor = Infinity;
      for (const [durable, queue] of queues) {
        const checkpoint = queue.checkpoint(dispatchedSeq);
        floor = Math.min(floor, checkpoint.through);
        // One write at a time per consumer: an older one finishing last would move it back.
        if (saving.has(durable) || !queue.takeMoved()) continue;
        if (sync) {
          checkpoints.saveSync(durable, checkpoint);
          continue;
        }
        const written = checkpoints
          .save(durable, checkpoint)
          .catch((err) => log.warn({ err, durable }, 'could not write a bus checkpoint'))
          .finally(() => saving.delete(durable));
        saving.set(durable, written);
      }
      // A consumer of an earlier run that has not started (yet) in this one keeps what it has not read.
      for (const [durable, checkpoint] of saved) if (!queues.has(durable)) floor = Math.min(floor, checkpoint.through);
      if (floor !== Infinity) segmentLog.release(floor);
    },

    async saveStopped(durable, checkpoint) {
      await saving.get(durable);
      checkpoints.saveSync(durable, checkpoint);
      saved.set(durable, checkpoint);
    },

    close: () => segmentLog.close(),
  };
}
