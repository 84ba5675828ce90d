// The A/B result of a link: its destinations as rows (which variant or rule sent clicks there, the
// variant's weight, clicks, conversions, rate, revenue) and a plain verdict on the variants: which
// leads, and whether the numbers can tell yet. The verdict is a two-proportion z-test of the two
// best-converting variants at 95 % confidence (|z| ≥ 1.96), asked only when each has at least
// MIN_CLICKS clicks and the pooled rate expects at least MIN_EXPECTED conversions and
// non-conversions in each (the usual condition for the test's normal approximation); below that
// the numbers are too small to tell. docs/statistics.md says the same to users.
import type { DestinationStat } from '../api';

const MIN_CLICKS = 30;
const MIN_EXPECTED = 5;
const Z_95 = 1.96;

/** What a link routes by: its rules' and variants' addresses, in order. */
export interface Routing {
  routingRules: { url: string }[];
  variants: { url: string; weight: number }[];
  /** The link's own destination. */
  originalUrl: string;
}

/** Who sent clicks to a destination: variant i (A, B…), rule i (0-based), or the link itself. */
export type Source = { kind: 'variant'; index: number } | { kind: 'rule'; index: number } | { kind: 'original' };

export interface AbRow {
  url: string;
  sources: Source[];
  /** The variant's weight, percent; null for a destination that is no variant. */
  weight: number | null;
  clicks: number;
  share: number;
  conversions: number;
  rate: number;
  revenue: { currency: string; amount: number }[];
}

/** The rows: every destination that had clicks, and every variant, with none, too (variants first, in order). */
export function abRows(stats: DestinationStat[], routing: Routing | undefined): AbRow[] {
  const sourcesOf = (url: string): Source[] => {
    if (!routing) return [];
    const at = (list: { url: string }[]) => list.flatMap((item, index) => (item.url === url ? [index] : []));
    return [
      ...at(routing.variants).map((index): Source => ({ kind: 'variant', index })),
      ...at(routing.routingRules).map((index): Source => ({ kind: 'rule', index })),
      ...(routing.originalUrl === url ? [{ kind: 'original' } as const] : []),
    ];
  };
  const rows: AbRow[] = stats.map((d) => {
    const sources = sourcesOf(d.url);
    const variant = sources.find((s) => s.kind === 'variant');
    return {
      url: d.url,
      sources,
      weight: variant ? (routing?.variants[variant.index]?.weight ?? null) : null,
      clicks: d.count,
      share: d.percentage,
      conversions: d.conversions,
      rate: d.conversionRate,
      revenue: d.revenue.map((r) => ({ currency: r.currency, amount: r.amount })),
    };
  });
  for (const v of routing?.variants ?? []) {
    if (!rows.some((r) => r.url === v.url)) {
      rows.push({
        url: v.url,
        sources: sourcesOf(v.url),
        weight: v.weight,
        clicks: 0,
        share: 0,
        conversions: 0,
        rate: 0,
        revenue: [],
      });
    }
  }
  const order = (r: AbRow) => {
    const v = r.sources.find((s) => s.kind === 'variant');
    return v ? v.index : Number.MAX_SAFE_INTEGER;
  };
  return rows.sort((a, b) => order(a) - order(b) || b.clicks - a.clicks);
}

/** The variant rows' verdict, for the hint under the table. */
export type Verdict =
  | { kind: 'none' }
  | { kind: 'noConversions' }
  | { kind: 'even' }
  | { kind: 'tooFew' | 'unclear' | 'leads'; leader: AbRow; other: AbRow };

/** Conversions per click of a row, as a fraction (the API's rate is rounded to one decimal). */
const rateOf = (r: AbRow) => (r.clicks === 0 ? 0 : r.conversions / r.clicks);

export function abVerdict(rows: AbRow[]): Verdict {
  const variants = rows.filter((r) => r.sources.some((s) => s.kind === 'variant'));
  if (variants.length < 2) return { kind: 'none' };
  if (variants.every((r) => r.conversions === 0)) return { kind: 'noConversions' };
  const [leader, other] = [...variants].sort((a, b) => rateOf(b) - rateOf(a) || b.clicks - a.clicks) as [AbRow, AbRow];
  if (rateOf(leader) === rateOf(other)) return { kind: 'even' };
  const n = leader.clicks + other.clicks;
  const pooled = (leader.conversions + other.conversions) / n;
  const enough = [leader, other].every(
    (r) => r.clicks >= MIN_CLICKS && r.clicks * pooled >= MIN_EXPECTED && r.clicks * (1 - pooled) >= MIN_EXPECTED,
  );
  if (!enough) return { kind: 'tooFew', leader, other };
  const z =
    (rateOf(leader) - rateOf(other)) / Math.sqrt(pooled * (1 - pooled) * (1 / leader.clicks + 1 / other.clicks));
  return { kind: z >= Z_95 ? 'leads' : 'unclear', leader, other };
}
