// The custom-domain verification job: every instance runs it; each pass claims the domains that
// are due (see domain-verification.repo.ts), asks DNS for their CNAME and applies the rules of
// verification-rules.ts. A status change tells every instance to re-read which hosts serve links.
// The mobile SDK's verify route runs the same check for one domain at once.
import type { DomainStatus } from '../../oltp/custom-domains.repo.js';
import type { DomainToCheck, DomainVerificationRepo } from '../../oltp/domain-verification.repo.js';
import type { Logger } from '../../shared/logger.js';
import type { CnameChecker, CnameOutcome } from './cname-check.js';
import { nextVerificationState } from './verification-rules.js';

export interface DomainVerifier {
  /** Starts the background passes (no-op when the interval is 0). */
  start(): void;
  /** Stops passes and waits for the one running; call before PostgreSQL closes. */
  stop(): Promise<void>;
  /** Checks one domain now, whether due or not (nothing to check for platform subdomains). */
  checkNow(id: number): Promise<void>;
  /** One pass over every due domain; the number checked. */
  runOnce(): Promise<number>;
}

/** Passes run at least this often, so a new domain waits at most this long for its first check. */
const MAX_PASS_GAP_MS = 15_000;
const CLAIM_BATCH = 50;
/** Batches per pass: a huge backlog is worked off over several passes, never in one long one. */
const MAX_BATCHES_PER_PASS = 20;
const CONCURRENT_LOOKUPS = 8;
/**
 * How long a claimed check holds its domain against other instances: far longer than any lookup
 * (a few seconds of resolver timeouts), so it lapses only for an instance that died mid-check or
 * could not store the result; the domain is then checked again this much later.
 */
const CHECK_LEASE_MS = 60_000;

export function createDomainVerifier(options: {
  repo: DomainVerificationRepo;
  checker: CnameChecker;
  intervalMs: number;
  maxMisses: number;
  log: Logger;
  onStatusChange(change: { domainId: number; organizationId: number; from: DomainStatus; to: DomainStatus }): void;
}): DomainVerifier {
  const { repo, checker, intervalMs, maxMisses } = options;
  const log = options.log.child({ module: 'domain-verifier' });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  async function verify(domain: DomainToCheck, explicit: boolean) {
    if (!domain.cnameRecordName || !domain.cnameRecordValue) return undefined;
    const outcome: CnameOutcome = await checker.check(domain.cnameRecordName, domain.cnameRecordValue);
    const change = await repo.apply(domain.id, domain.claimedAt, (current) => {
      const next = nextVerificationState(current, outcome.kind, { maxMisses, explicit });
      return {
        ...next,
        found: outcome.kind === 'found',
        counted: outcome.kind !== 'inconclusive',
        note: outcome.kind === 'found' ? 'found' : `${outcome.kind}:${outcome.detail}`,
      };
    });
    if (change && change.from !== change.to) {
      log.info(
        { domainId: domain.id, from: change.from, to: change.to, outcome },
        'custom domain status changed by DNS check',
      );
      options.onStatusChange({ domainId: domain.id, organizationId: domain.organizationId, ...change });
    } else if (outcome.kind === 'inconclusive') {
      log.warn({ domainId: domain.id, detail: outcome.detail }, 'DNS check inconclusive; not counted');
    }
    return change;
  }

  async function runOnce(): Promise<number> {
    let checked = 0;
    for (let batch = 0; batch < MAX_BATCHES_PER_PASS && !stopped; batch++) {
      const due = await repo.claimDue(intervalMs, CLAIM_BATCH, CHECK_LEASE_MS);
      for (let i = 0; i < due.length && !stopped; i += CONCURRENT_LOOKUPS) {
        const results = await Promise.allSettled(due.slice(i, i + CONCURRENT_LOOKUPS).map((d) => verify(d, false)));
        for (const r of results)
          if (r.status === 'rejected') log.warn({ err: r.reason }, 'custom domain check not stored');
      }
      checked += due.length;
      if (due.length < CLAIM_BATCH) break;
    }
    return checked;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(
      () => {
        running = runOnce()
          .catch((err: unknown) => log.warn({ err }, 'custom domain verification pass failed'))
          .finally(() => {
            running = undefined;
            schedule();
          });
      },
      Math.min(intervalMs, MAX_PASS_GAP_MS),
    );
    timer.unref();
  }

  return {
    start() {
      if (intervalMs > 0 && !timer && !stopped) schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      checker.cancel();
      await running;
    },
    async checkNow(id) {
      const domain = await repo.get(id);
      if (domain) await verify(domain, true);
    },
    runOnce,
  };
}
