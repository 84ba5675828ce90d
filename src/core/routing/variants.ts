// A/B variants: which of a link's variants a visitor gets. Sticky without shared state: the choice
// is a function of the link, the visitor (client address and user agent) and the variants alone,
// so every instance, and every click of the same visitor, agrees.
//
// Weighted rendezvous hashing: each variant scores the visitor with a hash of (link, visitor,
// variant url) turned into -ln(u) / weight, and the lowest score wins. A variant wins with
// probability weight / 100. Changing the weights moves few visitors: a visitor moves only from a
// variant whose weight went down or to one whose weight went up, never between two variants whose
// weights both stayed; adding, removing or reordering variants moves only visitors to the variants
// added or from those removed (the url, not the position, seeds the hash). A bucket 0..99 over
// cumulative weights would move every visitor past a shifted boundary instead, between untouched
// variants too.
import type { Variant } from '../../oltp/link-table.js';

export interface CompiledVariants {
  linkSeed: number;
  /** Per variant: the seed of its url, and its weight. */
  seeds: Uint32Array;
  weights: Float64Array;
}

/** FNV-1a, 32 bits, over the UTF-16 code units of `text`, continuing from `hash`. */
function fnv1a(text: string, hash = 0x811c9dc5): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** MurmurHash3's finaliser: spreads every input bit over the output. */
function mix(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function compileVariants(linkId: number, variants: readonly Variant[]): CompiledVariants | undefined {
  if (variants.length === 0) return undefined;
  return {
    linkSeed: fnv1a(String(linkId)),
    seeds: Uint32Array.from(variants, (v) => fnv1a(v.url)),
    weights: Float64Array.from(variants, (v) => v.weight),
  };
}

/** The position of the variant this visitor gets. */
export function chooseVariant(compiled: CompiledVariants, ip: string, userAgent: string): number {
  const visitor = fnv1a(userAgent, fnv1a('\n', fnv1a(ip, compiled.linkSeed)));
  let best = 0;
  let bestScore = Number.POSITIVE_INFINITY;
  for (let i = 0; i < compiled.seeds.length; i++) {
    const weight = compiled.weights[i]!;
    if (weight <= 0) continue;
    // u in (0, 1): never 0, whose logarithm is -Infinity.
    const u = (mix(visitor ^ mix(compiled.seeds[i]!)) + 0.5) / 4294967296;
    const score = -Math.log(u) / weight;
    if (score < bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return best;
}
