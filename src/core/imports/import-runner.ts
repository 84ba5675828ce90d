// Runs import jobs in the background on every worker instance, several at once: claims a queued job
// (or one whose instance died), reads the source page by page (the next while the current one is
// written), skips what the organization already imported, writes the rest through the sink and
// saves the cursor and counts after every page, so a restart resumes from the last saved page. A
// rate limit is waited out (Retry-After, else a growing back-off); a refused token fails the job at
// once; other failures are retried a few times.
import type { Organization } from '../../oltp/organizations.repo.js';
import type { ClaimedImportJob, ImportJobsRepo, ImportProblem } from '../../oltp/import-jobs.repo.js';
import type { Logger } from '../../shared/logger.js';
import type { SecretBox } from '../../shared/secret-box.js';
import type { LinkCaller } from '../links/tracked-links.js';
import { startPeriodicJob } from '../periodic-job.js';
import {
  type ImportedLink,
  type ImportSource,
  SourceFailed,
  SourceRateLimited,
  SourceRefused,
} from './import-source.js';

/** Where imported links go: one outcome per link, in order (a link's own problem is an error, not a throw). */
export interface ImportSink {
  createMany(caller: LinkCaller, links: ImportedLink[]): Promise<Array<{ id: number } | { error: string }>>;
}

/** The job's problem list keeps the first ones; the counts say how many there were. */
const MAX_RECORDED_ERRORS = 100;

export interface ImportRunnerDeps {
  repo: ImportJobsRepo;
  secretBox: SecretBox;
  organizations: { get(id: number): Promise<Organization | undefined> };
  /** The source of a claimed job, given its token opened. */
  sourceOf(job: ClaimedImportJob, token: string): ImportSource;
  sink: ImportSink;
  log: Logger;
  pollMs: number;
  /** How long a claimed job stays this instance's without a saved page. */
  leaseMs?: number;
  /** Back-off: the first wait when the service gave none, doubled each time up to the cap. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Tries of one page before the job fails (rate limits count too). */
  maxAttempts?: number;
  /** Jobs run at once on this instance; default 4. */
  concurrency?: number;
}

export interface ImportRunner {
  start(): void;
  /** Looks for work now (a job was just queued). */
  nudge(): void;
  /** Stops reading, gives the job under way back (its last saved page stands), waits for it. */
  stop(): Promise<void>;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export function createImportRunner(deps: ImportRunnerDeps): ImportRunner {
  const log = deps.log.child({ module: 'imports' });
  const leaseMs = deps.leaseMs ?? 120_000;
  const retryBaseMs = deps.retryBaseMs ?? 2_000;
  const retryMaxMs = deps.retryMaxMs ?? 60_000;
  const maxAttempts = deps.maxAttempts ?? 8;
  const concurrency = deps.concurrency ?? 4;
  const stopping = new AbortController();
  let periodic: ReturnType<typeof startPeriodicJob> | undefined;

  /** One page, asked again after a rate limit or a passing failure; throws what cannot be helped. */
  async function fetchPage(job: ClaimedImportJob, source: ImportSource, cursor: string | null) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await source.fetchPage(cursor, stopping.signal);
      } catch (err) {
        const passing = err instanceof SourceRateLimited || (err instanceof SourceFailed && err.retry);
        if (!passing || attempt >= maxAttempts || stopping.signal.aborted) throw err;
        const backOff = Math.min(retryMaxMs, retryBaseMs * 2 ** (attempt - 1));
        const wait =
          err instanceof SourceRateLimited && err.retryAfterMs !== undefined
            ? Math.min(retryMaxMs, err.retryAfterMs)
            : backOff;
        log.info({ jobId: job.id, attempt, waitMs: wait, reason: err.message }, 'import page retried after a wait');
        // The wait keeps the job this instance's; a cancel meanwhile ends it.
        if (!(await deps.repo.renewLease(job.id, leaseMs + wait))) return undefined;
        await sleep(wait, stopping.signal);
        if (stopping.signal.aborted) throw stopping.signal.reason;
      }
    }
  }

  async function run(job: ClaimedImportJob): Promise<void> {
    const organization = await deps.organizations.get(job.organizationId);
    if (!organization)
      return deps.repo.finish(job.id, { status: 'failed', failure: 'the organization no longer exists' });
    const caller: LinkCaller = { organization };
    let token: string;
    try {
      token = deps.secretBox.open(job.tokenSealed);
    } catch {
      // The key that sealed it is no longer configured: trying again cannot help.
      return deps.repo.finish(job.id, {
        status: 'failed',
        failure: 'the stored token cannot be decrypted with the configured PII_ENCRYPTION_KEY; start the import again',
      });
    }
    const source = deps.sourceOf(job, token);
    const progress = {
      cursor: job.cursor,
      total: job.total,
      imported: job.imported,
      skipped: job.skipped,
      failed: job.failed,
      errors: [...job.errors],
      leaseMs,
    };
    const noteProblem = (problem: ImportProblem) => {
      progress.failed++;
      if (progress.errors.length < MAX_RECORDED_ERRORS) progress.errors.push(problem);
    };

    let next = fetchPage(job, source, progress.cursor);
    for (;;) {
      const page = await next;
      // Cancelled while the page was on its way: nothing of it is written.
      if (!page || !(await deps.repo.renewLease(job.id, leaseMs))) return;
      // The next page is read (and its rows made links) while this one is written. What it throws
      // is met at the top of the next round, after this page's progress is saved; a job that ends
      // or stops first leaves it unread, and the saved cursor still points at it.
      next = page.nextCursor === null ? Promise.resolve(undefined) : fetchPage(job, source, page.nextCursor);
      next.catch(() => undefined);
      if (page.total !== undefined) progress.total = page.total;

      // The same link twice in a page, or imported by an earlier run: skipped.
      const seen = new Set<string>();
      const unique = page.links.filter((l) => !seen.has(l.sourceId) && seen.add(l.sourceId));
      const known = await deps.repo.importedIds(
        job.organizationId,
        job.source,
        unique.map((l) => l.sourceId),
      );
      const fresh = unique.filter((l) => !known.has(l.sourceId));
      progress.skipped += page.links.length - fresh.length;

      const outcomes = fresh.length === 0 ? [] : await deps.sink.createMany(caller, fresh);
      const created: { sourceId: string; shortUrlId: number }[] = [];
      fresh.forEach((link, i) => {
        const outcome = outcomes[i] ?? { error: 'not written' };
        if ('id' in outcome) created.push({ sourceId: link.sourceId, shortUrlId: outcome.id });
        else noteProblem({ sourceId: link.sourceId, message: outcome.error, ...(link.row ? { row: link.row } : {}) });
      });
      await deps.repo.recordImported(job.organizationId, job.source, job.id, created);
      progress.imported += created.length;
      progress.cursor = page.nextCursor;

      if (!(await deps.repo.saveProgress(job.id, progress))) return; // cancelled
      if (page.nextCursor === null) return deps.repo.finish(job.id, { status: 'completed' });
      if (stopping.signal.aborted) return;
    }
  }

  async function runJob(job: ClaimedImportJob): Promise<void> {
    log.info({ jobId: job.id, source: job.source, organizationId: job.organizationId }, 'import job started');
    try {
      await run(job);
      // Stopped between pages: the saved page stands, and the next claim anywhere resumes after it.
      if (stopping.signal.aborted) await deps.repo.release(job.id);
    } catch (err) {
      if (stopping.signal.aborted) {
        await deps.repo.release(job.id);
        return;
      }
      if (err instanceof SourceRefused || err instanceof SourceFailed || err instanceof SourceRateLimited) {
        log.warn({ jobId: job.id, reason: err.message }, 'import job failed');
        await deps.repo.finish(job.id, { status: 'failed', failure: err.message });
        return;
      }
      // Our own trouble (a store): the job waits for its lease to pass and is tried again.
      log.error({ err, jobId: job.id }, 'import job interrupted');
    }
  }

  /** Jobs under way on this instance. */
  const running = new Set<Promise<void>>();

  /**
   * Claims jobs while a lane is free; each runs in the background and, when it ends, looks for the
   * next. One organization's long import does not hold up another's.
   */
  async function round(): Promise<number> {
    let claimed = 0;
    while (!stopping.signal.aborted && running.size < concurrency) {
      const job = await deps.repo.claim(leaseMs);
      if (!job) break;
      // Runs apart from the round: a store failing while a job is given back or finished is
      // logged here (the job's lease runs out and it is claimed again), never left unhandled.
      const lane: Promise<void> = runJob(job)
        .catch((err: unknown) => log.error({ err, jobId: job.id }, 'import job could not be given back or finished'))
        .finally(() => {
          running.delete(lane);
          if (!stopping.signal.aborted) void periodic?.runOnce();
        });
      running.add(lane);
      claimed++;
    }
    return claimed;
  }

  return {
    start() {
      periodic ??= startPeriodicJob({ name: 'import jobs', intervalMs: deps.pollMs, log, round });
    },
    nudge() {
      if (periodic && !stopping.signal.aborted) void periodic.runOnce();
    },
    async stop() {
      stopping.abort(new Error('the service is stopping'));
      await periodic?.stop();
      await Promise.all(running);
    },
  };
}
