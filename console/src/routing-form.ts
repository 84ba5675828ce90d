// A link's routing rules and A/B variants as the editor holds them, and back to the API's
// `routingRules` and `variants` (contract: "Routing rules and A/B tests"). A condition left empty
// is left out of the rule; dates are edited in the browser's local time and sent as ISO-8601 UTC;
// referrers are kept as the bare lower-case hosts the API wants, whatever was pasted.
// Variant weights are whole numbers that must sum to 100: the form says what the sum is and the
// editor refuses to save until it is 100.
import { pathsConsoleApiOrganizationsOrgIdRoutingTestPostRequestBodyContentApplicationJsonVisitorBrowserValues as BROWSERS } from '../generated/api-schema';
import type { ShortUrl } from './api';
import { instantOf, toLocalInput } from './local-time';

/** A, B, C…: how the console names variants (the editor, the tester and the dashboard alike). */
export const variantName = (index: number): string => String.fromCharCode(65 + index);

type ApiRule = ShortUrl['routingRules'][number];
type ApiVariant = ShortUrl['variants'][number];

export interface QueryRow {
  name: string;
  value: string;
}

export interface RuleForm {
  /** Stable while the rule moves: React's key and the drag's handle. */
  key: string;
  countries: string[];
  /** ISO 3166-2 codes (`KR-11`). */
  regions: string[];
  /** English city names. */
  cities: string[];
  deviceTypes: string[];
  os: string[];
  /** Browser families as the API names them (`Samsung Internet`). */
  browsers: string[];
  /** Referer hosts (`t.co`). */
  referrers: string[];
  languages: string[];
  /** `YYYY-MM-DDTHH:mm` local, '' for none. */
  after: string;
  before: string;
  query: QueryRow[];
  url: string;
}

export interface VariantForm {
  key: string;
  url: string;
  weight: number;
}

export interface RoutingForm {
  rules: RuleForm[];
  variants: VariantForm[];
}

export const MAX_RULES = 50;
export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 10;
const TOTAL_WEIGHT = 100;

/** A browser family as the API lists it (`safari` saved through the API is `Safari`). */
const browserNameOf = (name: string): string => BROWSERS.find((b) => b.toLowerCase() === name.toLowerCase()) ?? name;

let nextKey = 0;
const newKey = () => `r${++nextKey}`;

export const emptyRule = (): RuleForm => ({
  key: newKey(),
  countries: [],
  regions: [],
  cities: [],
  deviceTypes: [],
  os: [],
  browsers: [],
  referrers: [],
  languages: [],
  after: '',
  before: '',
  query: [],
  url: '',
});

export function routingFormOf(link: {
  routingRules: readonly ApiRule[];
  variants: readonly ApiVariant[];
}): RoutingForm {
  return {
    rules: link.routingRules.map(({ conditions: c, url }) => ({
      key: newKey(),
      countries: [...(c.countries ?? [])].map((v) => v.toUpperCase()),
      regions: [...(c.regions ?? [])].map((v) => v.toUpperCase()),
      cities: [...(c.cities ?? [])],
      deviceTypes: [...(c.deviceTypes ?? [])].map((v) => v.toLowerCase()),
      os: [...(c.os ?? [])].map((v) => v.toLowerCase()),
      browsers: [...(c.browsers ?? [])].map(browserNameOf),
      referrers: [...(c.referrers ?? [])],
      languages: [...(c.languages ?? [])].map((v) => v.toLowerCase()),
      after: toLocalInput(c.after ?? null),
      before: toLocalInput(c.before ?? null),
      query: Object.entries(c.query ?? {}).map(([name, value]) => ({ name, value })),
      url,
    })),
    variants: link.variants.map((v) => ({ key: newKey(), url: v.url, weight: v.weight })),
  };
}

/** Weights that sum to 100 over `count` variants, as even as whole numbers allow (the first ones get the rest). */
export function evenWeights(count: number): number[] {
  const base = Math.floor(TOTAL_WEIGHT / count);
  return Array.from({ length: count }, (_, n) => base + (n < TOTAL_WEIGHT - base * count ? 1 : 0));
}

export const weightSum = (variants: readonly VariantForm[]): number => variants.reduce((sum, v) => sum + v.weight, 0);

/** Why the variants cannot be saved as they are, or null: weights not summing to 100. */
export function variantsProblem(variants: readonly VariantForm[]): { sum: number } | null {
  if (variants.length === 0) return null;
  const sum = weightSum(variants);
  return sum === TOTAL_WEIGHT ? null : { sum };
}

/** Starts an A/B test: two variants, the first the link's own destination, half each. */
export function startVariants(destination: string): VariantForm[] {
  const [a, b] = evenWeights(MIN_VARIANTS);
  return [
    { key: newKey(), url: destination.trim(), weight: a! },
    { key: newKey(), url: '', weight: b! },
  ];
}

/** One more variant, every weight even again. */
export function addVariant(variants: readonly VariantForm[]): VariantForm[] {
  const weights = evenWeights(variants.length + 1);
  return [...variants, { key: newKey(), url: '', weight: 0 }].map((v, n) => ({ ...v, weight: weights[n]! }));
}

/** Without the variant at `index`; the weights even again. */
export function removeVariant(variants: readonly VariantForm[], index: number): VariantForm[] {
  const left = variants.filter((_, n) => n !== index);
  const weights = evenWeights(left.length);
  return left.map((v, n) => ({ ...v, weight: weights[n]! }));
}

/** `items` with the one at `from` moved to `to`. */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const out = [...items];
  if (to < 0 || to >= out.length || from === to) return out;
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item!);
  return out;
}

/**
 * The host a person means by what they typed or pasted: `https://Twitter.com/home` is
 * `twitter.com`. Text that is no address stays as typed (in lower case), for the server to refuse.
 */
export function referrerHostOf(text: string): string {
  const trimmed = text.trim().toLowerCase();
  try {
    return new URL(trimmed.includes('://') ? trimmed : `https://${trimmed}`).hostname || trimmed;
  } catch {
    return trimmed;
  }
}

function conditionsOf(rule: RuleForm): ApiRule['conditions'] {
  const conditions: ApiRule['conditions'] = {};
  if (rule.countries.length > 0) conditions.countries = rule.countries;
  if (rule.regions.length > 0) conditions.regions = rule.regions;
  if (rule.cities.length > 0) conditions.cities = rule.cities;
  if (rule.deviceTypes.length > 0) conditions.deviceTypes = rule.deviceTypes;
  if (rule.os.length > 0) conditions.os = rule.os;
  if (rule.browsers.length > 0) conditions.browsers = rule.browsers;
  if (rule.referrers.length > 0) conditions.referrers = rule.referrers;
  if (rule.languages.length > 0) conditions.languages = rule.languages;
  const after = instantOf(rule.after);
  if (after) conditions.after = after.toISOString();
  const before = instantOf(rule.before);
  if (before) conditions.before = before.toISOString();
  const query = rule.query.filter((row) => row.name.trim() !== '');
  if (query.length > 0) conditions.query = Object.fromEntries(query.map((row) => [row.name.trim(), row.value]));
  return conditions;
}

/** The API's fields; the positions in them are those the server's refusals name (`routingRules.1.url`). */
export function routingBody(form: RoutingForm): { routingRules: ApiRule[]; variants: ApiVariant[] } {
  return {
    routingRules: form.rules.map((rule) => ({ conditions: conditionsOf(rule), url: rule.url.trim() })),
    variants: form.variants.map((v) => ({ url: v.url.trim(), weight: v.weight })),
  };
}
