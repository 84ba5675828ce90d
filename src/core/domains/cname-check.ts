// One DNS question: does the domain's verification name carry a CNAME to the value we gave the
// customer? Answers found, missing (no such name, no CNAME, or a CNAME elsewhere) or inconclusive
// (the resolver failed or timed out): only a real answer may count against a domain.
import { Resolver } from 'node:dns/promises';

export type CnameOutcome =
  | { kind: 'found' }
  | { kind: 'missing'; detail: string }
  | { kind: 'inconclusive'; detail: string };

export interface CnameChecker {
  check(recordName: string, expectedValue: string): Promise<CnameOutcome>;
  /** Aborts lookups in flight (shutdown). */
  cancel(): void;
}

/** Answers that say "the record is not there"; anything else is a resolver problem. */
const NEGATIVE_ANSWERS = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

/** DNS names compare without case and without the root's trailing dot. */
const normalizeDnsName = (name: string) => name.trim().toLowerCase().replace(/\.+$/, '');

export function createCnameChecker(options: { servers: string[]; timeoutMs?: number; tries?: number }): CnameChecker {
  const resolver = new Resolver({ timeout: options.timeoutMs ?? 2_000, tries: options.tries ?? 2 });
  if (options.servers.length > 0) resolver.setServers(options.servers);

  return {
    async check(recordName, expectedValue) {
      const expected = normalizeDnsName(expectedValue);
      let targets: string[];
      try {
        targets = await resolver.resolveCname(normalizeDnsName(recordName));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? 'UNKNOWN';
        return NEGATIVE_ANSWERS.has(code)
          ? { kind: 'missing', detail: code === 'ENODATA' ? 'no-cname' : 'no-such-name' }
          : { kind: 'inconclusive', detail: code };
      }
      // A recursive resolver may hand back a chain; the customer's own record is one link of it.
      if (targets.some((t) => normalizeDnsName(t) === expected)) return { kind: 'found' };
      return { kind: 'missing', detail: `wrong-target:${targets.map(normalizeDnsName).join(',').slice(0, 200)}` };
    },
    cancel() {
      resolver.cancel();
    },
  };
}
