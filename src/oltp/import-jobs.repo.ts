// Import jobs and the links they brought in. A job is claimed by one instance at a time with FOR
// UPDATE SKIP LOCKED and a lease (lease_until) that the runner renews after every page: a job whose
// instance died is claimed again once its lease has passed, and resumes from its saved cursor.
// imported_links remembers each source link imported, per organization and source.
import type { Sql } from './postgres.js';

export type ImportStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface ImportProblem {
  sourceId: string;
  message: string;
  /** A CSV job's data row. */
  row?: number;
}

export interface ImportJob {
  id: number;
  organizationId: number;
  source: string;
  baseUrl: string;
  options: Record<string, string>;
  status: ImportStatus;
  cursor: string | null;
  total: number | null;
  imported: number;
  skipped: number;
  failed: number;
  errors: ImportProblem[];
  failure: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** A job as the runner takes it: with its sealed token. */
export interface ClaimedImportJob extends ImportJob {
  tokenSealed: string;
}

/** What one page changed: the new cursor and counts, the job's problem list as it is now. */
export type ImportProgress = Pick<ImportJob, 'cursor' | 'total' | 'imported' | 'skipped' | 'failed' | 'errors'> & {
  leaseMs: number;
};

/** The columns whose names are the fields' own; the rest are snake_case. */
type JobRow = Pick<
  ImportJob,
  'id' | 'source' | 'options' | 'status' | 'cursor' | 'total' | 'imported' | 'skipped' | 'failed' | 'errors' | 'failure'
> & {
  organization_id: number;
  base_url: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
};

function toJob({ organization_id, base_url, created_at, started_at, finished_at, ...same }: JobRow): ImportJob {
  return {
    ...same,
    organizationId: organization_id,
    baseUrl: base_url,
    createdAt: created_at,
    startedAt: started_at,
    finishedAt: finished_at,
  };
}

interface NewJob {
  organizationId: number;
  source: string;
  baseUrl: string;
  tokenSealed: string;
  options: Record<string, string>;
}

const lease = (ms: number) => `${Math.max(1, Math.round(ms))} milliseconds`;

export function createImportJobsRepo({ sql }: { sql: Sql }) {
  const columns = sql`id, organization_id, source, base_url, options, status, cursor, total, imported, skipped,
    failed, errors, failure, created_at, started_at, finished_at`;

  /** An ended job's stored CSV rows are not read again. */
  const dropRows = async (jobId: number) => {
    await sql`delete from import_job_rows where job_id = ${jobId}
      and exists (select 1 from import_jobs where id = ${jobId} and status in ('completed', 'failed', 'cancelled'))`;
  };

  return {
    async create(input: NewJob): Promise<ImportJob> {
      const [row] = await sql<JobRow[]>`
        insert into import_jobs (organization_id, source, base_url, token_sealed, options)
        values (${input.organizationId}, ${input.source}, ${input.baseUrl}, ${input.tokenSealed},
                ${JSON.stringify(input.options)}::text::jsonb)
        returning ${columns}`;
      return toJob(row!);
    },

    /**
     * A CSV job with its rows, in one transaction (no worker claims it before its rows are there):
     * `entries` are runs of consecutive rows, each stored apart so that a page reads one.
     */
    async createWithRows(
      input: NewJob & { total: number },
      entries: Array<{ firstRow: number; rows: string[][] }>,
    ): Promise<ImportJob> {
      return sql.begin(async (tx) => {
        const [row] = await tx<JobRow[]>`
          insert into import_jobs (organization_id, source, base_url, token_sealed, options, total)
          values (${input.organizationId}, ${input.source}, ${input.baseUrl}, ${input.tokenSealed},
                  ${JSON.stringify(input.options)}::text::jsonb, ${input.total})
          returning ${columns}`;
        const job = toJob(row!);
        // A few hundred entries at a time keeps each statement's parameters well under the limit.
        for (let at = 0; at < entries.length; at += 200) {
          const batch = entries.slice(at, at + 200);
          await tx`
            insert into import_job_rows (job_id, first_row, cells)
            select ${job.id}, * from unnest(${batch.map((e) => e.firstRow)}::int[], ${batch.map((e) => JSON.stringify(e.rows))}::text[])`;
        }
        return job;
      }) as Promise<ImportJob>;
    },

    /** The stored rows of a CSV job from `firstRow`: the entry starting there, undefined past the last. */
    async rowsAt(jobId: number, firstRow: number): Promise<string[][] | undefined> {
      const [row] = await sql<{ cells: string }[]>`
        select cells from import_job_rows where job_id = ${jobId} and first_row = ${firstRow}`;
      return row ? (JSON.parse(row.cells) as string[][]) : undefined;
    },

    async list(
      organizationId: number,
      page: { page: number; size: number },
    ): Promise<{ items: ImportJob[]; total: number }> {
      const [count] = await sql<{ n: number }[]>`
        select count(*)::int as n from import_jobs where organization_id = ${organizationId}`;
      const rows = await sql<JobRow[]>`
        select ${columns} from import_jobs where organization_id = ${organizationId}
        order by id desc limit ${page.size} offset ${page.page * page.size}`;
      return { items: rows.map(toJob), total: count?.n ?? 0 };
    },

    async get(organizationId: number, id: number): Promise<ImportJob | undefined> {
      const [row] = await sql<JobRow[]>`
        select ${columns} from import_jobs where organization_id = ${organizationId} and id = ${id}`;
      return row ? toJob(row) : undefined;
    },

    /** Cancels a job that has not ended; answers the job as it is afterwards (undefined: no such job). */
    async cancel(organizationId: number, id: number): Promise<ImportJob | undefined> {
      await sql`
        update import_jobs set status = 'cancelled', finished_at = now(), lease_until = null, updated_at = now()
        where organization_id = ${organizationId} and id = ${id} and status in ('queued', 'running')`;
      await dropRows(id);
      return this.get(organizationId, id);
    },

    /** The oldest queued job, or a running one whose instance let its lease pass, for `leaseMs`. */
    async claim(leaseMs: number): Promise<ClaimedImportJob | undefined> {
      const [row] = await sql<(JobRow & { token_sealed: string })[]>`
        update import_jobs j
        set status = 'running', started_at = coalesce(j.started_at, now()),
            lease_until = now() + ${lease(leaseMs)}::interval, updated_at = now()
        where j.id = (
          select id from import_jobs
          where status = 'queued' or (status = 'running' and (lease_until is null or lease_until < now()))
          order by id
          limit 1
          for update skip locked
        )
        returning ${columns}, token_sealed`;
      return row ? { ...toJob(row), tokenSealed: row.token_sealed } : undefined;
    },

    /**
     * Saves a page's progress and renews the lease; answers whether the job is still running (a
     * cancel in the meantime stops it).
     */
    async saveProgress(id: number, p: ImportProgress): Promise<boolean> {
      const rows = await sql`
        update import_jobs
        set cursor = ${p.cursor}, total = ${p.total}, imported = ${p.imported}, skipped = ${p.skipped},
            failed = ${p.failed}, errors = ${JSON.stringify(p.errors)}::text::jsonb,
            lease_until = now() + ${lease(p.leaseMs)}::interval, updated_at = now()
        where id = ${id} and status = 'running'
        returning id`;
      return rows.length > 0;
    },

    /** Keeps the job this instance's while it waits (a rate limit); false when it was cancelled. */
    async renewLease(id: number, leaseMs: number): Promise<boolean> {
      const rows = await sql`
        update import_jobs set lease_until = now() + ${lease(leaseMs)}::interval, updated_at = now()
        where id = ${id} and status = 'running' returning id`;
      return rows.length > 0;
    },

    /** Ends a running job: completed, or failed with the reason. */
    async finish(id: number, outcome: { status: 'completed' } | { status: 'failed'; failure: string }): Promise<void> {
      const failure = outcome.status === 'failed' ? outcome.failure : null;
      await sql`
        update import_jobs
        set status = ${outcome.status}, failure = ${failure}, finished_at = now(), lease_until = null, updated_at = now()
        where id = ${id} and status = 'running'`;
      await dropRows(id);
    },

    /** Gives a running job back at once (this instance is stopping): the next claim resumes it. */
    async release(id: number): Promise<void> {
      await sql`update import_jobs set lease_until = null, updated_at = now() where id = ${id} and status = 'running'`;
    },

    /** Which of these source ids the organization already imported from the source. */
    async importedIds(organizationId: number, source: string, sourceIds: string[]): Promise<Set<string>> {
      if (sourceIds.length === 0) return new Set();
      const rows = await sql<{ source_id: string }[]>`
        select source_id from imported_links
        where organization_id = ${organizationId} and source = ${source} and source_id = any(${sourceIds}::text[])`;
      return new Set(rows.map((r) => r.source_id));
    },

    async recordImported(
      organizationId: number,
      source: string,
      jobId: number,
      links: { sourceId: string; shortUrlId: number }[],
    ): Promise<void> {
      if (links.length === 0) return;
      // One statement for a page: a thousand rows one by one would cost a thousand round trips.
      await sql`
        insert into imported_links (organization_id, source, source_id, short_url_id, job_id)
        select ${organizationId}, ${source}, s, u, ${jobId}
        from unnest(${links.map((l) => l.sourceId)}::text[], ${links.map((l) => l.shortUrlId)}::bigint[]) as t(s, u)
        on conflict do nothing`;
    },
  };
}

export type ImportJobsRepo = ReturnType<typeof createImportJobsRepo>;
