// The console's routing tester: where a described visitor would go under a set of rules and
// variants that may not be saved yet. The answer comes from the redirect's own compiled routing
// (compileRouting): only the visitor's traits are given instead of read from a request, so the
// tester and the redirect can never disagree on a match.
import type { RoutingRule, Variant } from '../../oltp/link-table.js';
import { authorize } from '../accounts/permissions.js';
import type { Caller } from '../caller.js';
import { compileRouting, type RuleDeviceType, type RuleOs, type VisitorTraits } from './routing-rules.js';

/** What the person says of the visitor; what is left out is worked out as the redirect would. */
export interface TestVisitor {
  /** ISO 3166-1 alpha-2; without it, the country of `address` (none without an address). */
  country?: string;
  /** ISO 3166-2 (`KR-11`) and English city name; without them, those of `address` (as country). */
  region?: string;
  city?: string;
  /** Without them, what the user agent says. */
  deviceType?: RuleDeviceType;
  os?: RuleOs;
  /** A browser family (`Chrome`, `Samsung Internet`). */
  browser?: string;
  /** The Referer: a URL or a bare host (`m.facebook.com`). */
  referrer?: string;
  /** An Accept-Language value or a bare subtag (`ja`). */
  language?: string;
  /** When the click happens; now without it. */
  at?: Date;
  query?: Record<string, string>;
  /** The client address: the country's source, and with the user agent what keeps a variant sticky. */
  address?: string;
  userAgent?: string;
}

export interface RoutingTest {
  /** The link being edited, whose id seeds the variant choice as on the redirect; none for a new link. */
  linkId?: number;
  originalUrl: string;
  routingRules: readonly RoutingRule[];
  variants: readonly Variant[];
  visitor: TestVisitor;
}

/** Where the visitor goes: the destination as configured, and `original`, `rule:N` or `variant:N`. */
export interface RoutingTestResult {
  url: string;
  route: string;
}

/** Stands in for a visitor without an address: a rule still reads the given country. */
const NO_ADDRESS = '0.0.0.0';

export function createRoutingTester(deps: { traits: VisitorTraits; clock: () => Date }) {
  return {
    test(caller: Pick<Caller, 'member'>, input: RoutingTest): RoutingTestResult {
      authorize(caller, 'links.read');
      const { visitor } = input;
      const traits: VisitorTraits = {
        country: (ip) => visitor.country ?? (visitor.address ? deps.traits.country(ip) : ''),
        place(ip) {
          const known = visitor.address ? deps.traits.place(ip) : { region: '', city: '' };
          return { region: visitor.region ?? known.region, city: visitor.city ?? known.city };
        },
        agent(userAgent) {
          const parsed = deps.traits.agent(userAgent);
          return {
            deviceType: visitor.deviceType ?? parsed.deviceType,
            os: visitor.os ?? parsed.os,
            browser: visitor.browser?.toLowerCase() ?? parsed.browser,
          };
        },
      };
      const routing = compileRouting(
        {
          id: input.linkId ?? 0,
          originalUrl: input.originalUrl,
          utm: { source: null, medium: null, campaign: null, term: null, content: null },
          routingRules: input.routingRules,
          variants: input.variants,
        },
        traits,
      );
      if (!routing) return { url: input.originalUrl, route: 'original' };
      const routed = routing({
        ip: visitor.address ?? NO_ADDRESS,
        userAgent: visitor.userAgent,
        acceptLanguage: visitor.language,
        referrer:
          visitor.referrer && !visitor.referrer.includes('://') ? `https://${visitor.referrer}/` : visitor.referrer,
        query: new URLSearchParams(visitor.query ?? {}).toString(),
        now: (visitor.at ?? deps.clock()).getTime(),
      });
      return { url: routed.url, route: routed.route };
    },
  };
}

export type RoutingTester = ReturnType<typeof createRoutingTester>;
