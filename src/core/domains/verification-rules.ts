// What one DNS answer does to a custom domain's status. Pure, so the rules read in one place:
//   PENDING  → VERIFIED when the CNAME is found; → FAILED after `maxMisses` consecutive misses.
//   VERIFIED, ACTIVE → REVOKED after REVOKE_AFTER_MISSES consecutive misses, and only when the
//     record was once seen: a domain the operator activated without our CNAME has none to lose.
//   FAILED → VERIFIED when found on an explicit re-check (the customer fixed DNS and asked again).
//   REVOKED stays REVOKED: reinstating is the operator's decision. VERIFIED → ACTIVE is too.
// An inconclusive answer (resolver down, timeout) changes nothing and counts as no miss.
import type { DomainStatus } from '../../oltp/custom-domains.repo.js';
import type { CnameOutcome } from './cname-check.js';

/** Consecutive misses that take a verified record away: one flaky answer is not enough. */
export const REVOKE_AFTER_MISSES = 3;

export interface VerificationState {
  status: DomainStatus;
  /** Consecutive misses so far. */
  failures: number;
  recordSeen: boolean;
}

export function nextVerificationState(
  current: VerificationState,
  outcome: CnameOutcome['kind'],
  options: { maxMisses: number; explicit: boolean },
): VerificationState {
  if (outcome === 'inconclusive') return current;
  if (outcome === 'found') {
    const promote = current.status === 'PENDING' || (current.status === 'FAILED' && options.explicit);
    return { status: promote ? 'VERIFIED' : current.status, failures: 0, recordSeen: true };
  }
  const failures = current.failures + 1;
  let status = current.status;
  if (status === 'PENDING' && failures >= options.maxMisses) status = 'FAILED';
  if ((status === 'VERIFIED' || status === 'ACTIVE') && current.recordSeen && failures >= REVOKE_AFTER_MISSES)
    status = 'REVOKED';
  return { status, failures, recordSeen: current.recordSeen };
}
