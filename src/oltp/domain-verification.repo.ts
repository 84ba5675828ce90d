// The verification job's SQL: which domains are due for a DNS check (claimed so that several
// instances never check one domain at once) and the outcome of a check, applied under a row lock
// to the status the row has then (the operator may have changed it while DNS was answering).
import type { DomainStatus } from './custom-domains.repo.js';
import type { Sql } from './postgres.js';

export interface DomainToCheck {
  id: number;
  organizationId: number;
  cnameRecordName: string | null;
  cnameRecordValue: string | null;
  /** When the background job claimed it (its last_checked_at then); absent for a check on demand. */
  claimedAt?: Date;
}

export interface CheckState {
  status: DomainStatus;
  failures: number;
  recordSeen: boolean;
}

export interface CheckResult {
  status: DomainStatus;
  failures: number;
  /** The record was found by this check. */
  found: boolean;
  /** Counted as an attempt (false for an inconclusive answer, which is only noted). */
  counted: boolean;
  /** found, missing:…, or inconclusive:… (kept for the operator). */
  note: string;
}

interface ClaimRow {
  id: number;
  organization_id: number;
  cname_record_name: string | null;
  cname_record_value: string | null;
  last_checked_at?: Date | null;
}

const toCheck = (r: ClaimRow): DomainToCheck => ({
  id: r.id,
  organizationId: r.organization_id,
  cnameRecordName: r.cname_record_name,
  cnameRecordValue: r.cname_record_value,
  ...(r.last_checked_at ? { claimedAt: r.last_checked_at } : {}),
});

export function createDomainVerificationRepo({ sql }: { sql: Sql }) {
  return {
    /**
     * Takes up to `limit` domains whose last check is older than `intervalMs` (or that were never
     * checked) and that no check holds. Setting last_checked_at and a lease of `leaseMs` is the
     * claim: SKIP LOCKED keeps two instances off the same rows in the moment, the lease keeps them
     * off while the check waits for DNS (however slow), and apply() ends it.
     */
    async claimDue(intervalMs: number, limit: number, leaseMs: number): Promise<DomainToCheck[]> {
      const rows = await sql<ClaimRow[]>`
        update custom_domains set last_checked_at = now(),
          check_claimed_until = now() + ${leaseMs}::float8 * interval '1 millisecond'
        where id in (
          select id from custom_domains
          where status in ('PENDING', 'VERIFIED', 'ACTIVE') and cname_record_name is not null
            and (last_checked_at is null or last_checked_at <= now() - ${intervalMs}::float8 * interval '1 millisecond')
            and (check_claimed_until is null or check_claimed_until <= now())
          order by last_checked_at nulls first, id
          limit ${limit}
          for update skip locked)
        returning id, organization_id, cname_record_name, cname_record_value, last_checked_at`;
      return rows.map(toCheck);
    },

    async get(id: number): Promise<DomainToCheck | undefined> {
      const [row] = await sql<ClaimRow[]>`
        select id, organization_id, cname_record_name, cname_record_value from custom_domains where id = ${id}`;
      return row && toCheck(row);
    },

    /**
     * Locks the row, lets `decide` turn its current state into the next, and stores that. Returns
     * the status before and after, or undefined when the domain is gone or, for a claimed check,
     * when the row was claimed or checked again since `claimedAt`.
     */
    async apply(
      id: number,
      claimedAt: Date | undefined,
      decide: (current: CheckState) => CheckResult,
    ): Promise<{ from: DomainStatus; to: DomainStatus } | undefined> {
      return (await sql.begin(async (tx) => {
        const [row] = await tx<
          { status: DomainStatus; verification_failures: number; seen: boolean; last_checked_at: Date | null }[]
        >`
          select status, verification_failures, record_seen_at is not null as seen, last_checked_at
          from custom_domains where id = ${id} for update`;
        if (!row) return undefined;
        // A check whose lease lapsed and whose domain was claimed again (or checked on demand) since:
        // the newer check counts and this one is dropped, so overlapping checks never count twice.
        if (claimedAt && row.last_checked_at && row.last_checked_at.getTime() !== claimedAt.getTime()) return undefined;
        const next = decide({ status: row.status, failures: row.verification_failures, recordSeen: row.seen });
        await tx`
          update custom_domains set
            status = ${next.status},
            status_changed_at = case when status <> ${next.status} then now() else status_changed_at end,
            verification_failures = ${next.failures},
            verification_attempts = verification_attempts + ${next.counted ? 1 : 0},
            record_seen_at = case when ${next.found} then now() else record_seen_at end,
            last_check_result = ${next.note},
            last_checked_at = now(),
            check_claimed_until = null
          where id = ${id}`;
        return { from: row.status, to: next.status };
      })) as { from: DomainStatus; to: DomainStatus } | undefined;
    },

    /** Bookkeeping of one domain, for tests and the operator. */
    async checkRecord(id: number) {
      const [row] = await sql<
        {
          attempts: number;
          failures: number;
          last_checked_at: Date | null;
          record_seen_at: Date | null;
          last_check_result: string | null;
        }[]
      >`
        select verification_attempts as attempts, verification_failures as failures, last_checked_at, record_seen_at, last_check_result
        from custom_domains where id = ${id}`;
      return (
        row && {
          attempts: row.attempts,
          failures: row.failures,
          lastCheckedAt: row.last_checked_at,
          recordSeenAt: row.record_seen_at,
          lastCheckResult: row.last_check_result,
        }
      );
    },
  };
}

export type DomainVerificationRepo = ReturnType<typeof createDomainVerificationRepo>;
