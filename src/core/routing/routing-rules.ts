// Routing rules (contract: "Routing rules and A/B tests"): what a rule may say, and the compiled
// form the redirect runs. A link's rules are compiled once, when the link enters the redirect's
// cache: each rule becomes a short list of predicates over the click, the destinations get the
// link's UTM parameters then, and nothing a click does not need is computed for it (the country,
// region or city looked up, the user agent parsed, the referrer or the query read only when a rule
// of the link asks for them).
import type { RoutingRule, RuleConditions, Variant } from '../../oltp/link-table.js';
import { referrerHost } from '../../ingest/enrich.js';
import { baseDestination } from '../redirect/destination.js';
import { chooseVariant, compileVariants } from './variants.js';

export type { RoutingRule, Variant };

export const DEVICE_TYPES = ['mobile', 'tablet', 'desktop'] as const;
export const OPERATING_SYSTEMS = ['ios', 'android', 'windows', 'macos', 'linux'] as const;
export type RuleDeviceType = (typeof DEVICE_TYPES)[number];
export type RuleOs = (typeof OPERATING_SYSTEMS)[number];
/**
 * Browser families as the user-agent parser names them (ua-parser-js), its variants folded in:
 * Mobile Safari is Safari, Opera Mini is Opera, Chrome Headless is Chrome (browserFamilyOf). Chrome
 * WebView stays apart: it is an app's embedded view, not the Chrome a person opened.
 */
export const BROWSERS = [
  'Chrome',
  'Chrome WebView',
  'Safari',
  'Firefox',
  'Edge',
  'Samsung Internet',
  'Opera',
  'IE',
  'Whale',
  'Yandex',
  'UCBrowser',
  'Brave',
  'Vivaldi',
  'DuckDuckGo',
  'Facebook',
  'Instagram',
  'KAKAOTALK',
  'NAVER',
  'Line',
  'WeChat',
  'TikTok',
] as const;

export const MAX_ROUTING_RULES = 50;
/** At most this many referrer hosts, regions or cities in one rule. */
export const MAX_LISTED_VALUES = 50;
export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 10;
/** Variant weights are integers summing to this. */
export const TOTAL_WEIGHT = 100;

/** What a rule can know of a visitor beyond the request: the address's place, the agent's device. */
export interface VisitorTraits {
  /** ISO 3166-1 alpha-2, upper case; '' when unknown. */
  country(ip: string): string;
  /** ISO 3166-2 region (`KR-11`) and English city name; '' when the database does not know. */
  place(ip: string): { region: string; city: string };
  /** `browser`: the family in lower case (`chrome`, `samsung internet`), '' when unknown. */
  agent(userAgent: string): { deviceType: RuleDeviceType; os: RuleOs | ''; browser: string };
}

/** A click as routing sees it. */
export interface RoutingClick {
  ip: string;
  userAgent: string | undefined;
  acceptLanguage: string | undefined;
  /** The Referer header. */
  referrer: string | undefined;
  /** What the click carried after the `?` ('' for nothing). */
  query: string;
  /** Unix ms. */
  now: number;
}

/** Where a click goes and what chose it. Made at compile time: routing a click allocates nothing. */
export interface Routed {
  /** The destination as configured (a rule's or variant's url, or originalUrl). */
  url: string;
  /** `url` with the link's UTM parameters. */
  location: string;
  /** `original`, `rule:N` or `variant:N` (0-based positions). */
  route: string;
}

/** The routing of one link: where a click goes. */
export type CompiledRouting = (click: RoutingClick) => Routed;

/** The link fields routing reads. */
export interface RoutableLink {
  id: number;
  originalUrl: string;
  utm: Parameters<typeof baseDestination>[0]['utm'];
  routingRules: readonly RoutingRule[];
  variants: readonly Variant[];
}

const COMMA = 44;
const SEMICOLON = 59;
const HYPHEN = 45;

/**
 * The first language of an Accept-Language header, as its primary subtag in lower case ('' for none
 * or `*`). Read in place, one character at a time: it runs on every click of a link with a
 * language rule, and splitting made three arrays and strings for each.
 */
export function primaryLanguage(acceptLanguage: string | undefined): string {
  if (!acceptLanguage) return '';
  let end = 0;
  while (end < acceptLanguage.length) {
    const c = acceptLanguage.charCodeAt(end);
    if (c === COMMA || c === SEMICOLON || c === HYPHEN) break;
    end++;
  }
  const primary = acceptLanguage.slice(0, end).trim().toLowerCase();
  return primary === '*' ? '' : primary;
}

const DOT = '.'.charCodeAt(0);

/**
 * Whether `host` is one of `hosts` or a subdomain of one (`mobile.twitter.com` of `twitter.com`);
 * the dot before the suffix is what keeps `nottwitter.com` out. No string is built per click.
 */
function isHostOrSubdomain(host: string, hosts: readonly string[]): boolean {
  if (host === '') return false;
  for (const h of hosts) {
    if (
      host === h ||
      (host.length > h.length && host.endsWith(h) && host.charCodeAt(host.length - h.length - 1) === DOT)
    )
      return true;
  }
  return false;
}

/**
 * What a click's predicates read, each worked out at most once and only when asked for. One context
 * serves every click of a link, reset for each: routing runs to its end without yielding, so no
 * two clicks share it at once, and a click allocates none.
 */
class ClickContext {
  private countryValue: string | undefined;
  private placeValue: ReturnType<VisitorTraits['place']> | undefined;
  private agentValue: ReturnType<VisitorTraits['agent']> | undefined;
  private languageValue: string | undefined;
  private referrerValue: string | undefined;
  private queryValue: URLSearchParams | undefined;
  click: RoutingClick = NO_CLICK;
  constructor(private readonly traits: VisitorTraits) {}
  reset(click: RoutingClick): this {
    this.click = click;
    this.countryValue = undefined;
    this.placeValue = undefined;
    this.agentValue = undefined;
    this.languageValue = undefined;
    this.referrerValue = undefined;
    this.queryValue = undefined;
    return this;
  }
  country(): string {
    this.countryValue ??= this.click.ip ? this.traits.country(this.click.ip).toUpperCase() : '';
    return this.countryValue;
  }
  place(): ReturnType<VisitorTraits['place']> {
    this.placeValue ??= this.click.ip ? this.traits.place(this.click.ip) : { region: '', city: '' };
    return this.placeValue;
  }
  agent(): ReturnType<VisitorTraits['agent']> {
    this.agentValue ??= this.traits.agent(this.click.userAgent ?? '');
    return this.agentValue;
  }
  language(): string {
    this.languageValue ??= primaryLanguage(this.click.acceptLanguage);
    return this.languageValue;
  }
  referrerHost(): string {
    this.referrerValue ??= referrerHost(this.click.referrer);
    return this.referrerValue;
  }
  query(): URLSearchParams {
    this.queryValue ??= new URLSearchParams(this.click.query);
    return this.queryValue;
  }
}

const NO_CLICK: RoutingClick = {
  ip: '',
  userAgent: undefined,
  acceptLanguage: undefined,
  referrer: undefined,
  query: '',
  now: 0,
};

type Predicate = (c: ClickContext) => boolean;

const lowerSet = (values: readonly string[]) => new Set(values.map((v) => v.toLowerCase()));

/** One predicate per condition the rule has; a click meets the rule when it meets all of them. */
function predicatesOf(conditions: RuleConditions): Predicate[] {
  const out: Predicate[] = [];
  if (conditions.countries) {
    const set = new Set(conditions.countries.map((v) => v.toUpperCase()));
    out.push((c) => set.has(c.country()));
  }
  if (conditions.regions) {
    const set = new Set(conditions.regions.map((v) => v.toUpperCase()));
    out.push((c) => set.has(c.place().region));
  }
  if (conditions.cities) {
    const set = lowerSet(conditions.cities);
    out.push((c) => set.has(c.place().city.toLowerCase()));
  }
  if (conditions.deviceTypes) {
    const set = lowerSet(conditions.deviceTypes);
    out.push((c) => set.has(c.agent().deviceType));
  }
  if (conditions.os) {
    const set = lowerSet(conditions.os);
    out.push((c) => set.has(c.agent().os));
  }
  if (conditions.browsers) {
    const set = lowerSet(conditions.browsers);
    out.push((c) => set.has(c.agent().browser));
  }
  if (conditions.referrers) {
    const hosts = conditions.referrers.map((v) => v.toLowerCase());
    out.push((c) => isHostOrSubdomain(c.referrerHost(), hosts));
  }
  if (conditions.languages) {
    const set = lowerSet(conditions.languages);
    out.push((c) => set.has(c.language()));
  }
  if (conditions.after !== undefined) {
    const after = Date.parse(conditions.after);
    out.push((c) => c.click.now >= after);
  }
  if (conditions.before !== undefined) {
    const before = Date.parse(conditions.before);
    out.push((c) => c.click.now < before);
  }
  if (conditions.query) {
    const wanted = Object.entries(conditions.query);
    out.push((c) => {
      // A click without a query meets no query condition (the contract's conditions name a value).
      if (c.click.query === '' && wanted.length > 0) return false;
      const query = c.query();
      return wanted.every(([name, value]) => query.getAll(name).includes(value));
    });
  }
  return out;
}

/**
 * The routing of a link, or null when it has neither rules nor variants: such a link's clicks go
 * to its destination as before, and the redirect does nothing more for them.
 */
export function compileRouting(link: RoutableLink, traits: VisitorTraits): CompiledRouting | null {
  if (link.routingRules.length === 0 && link.variants.length === 0) return null;
  const withUtm = (url: string) => baseDestination({ originalUrl: url, utm: link.utm });
  const rules = link.routingRules.map((rule, n) => ({
    predicates: predicatesOf(rule.conditions),
    routed: { url: rule.url, location: withUtm(rule.url), route: `rule:${n}` } satisfies Routed,
  }));
  const variants = compileVariants(link.id, link.variants);
  const variantRoutes: Routed[] = link.variants.map((v, n) => ({
    url: v.url,
    location: withUtm(v.url),
    route: `variant:${n}`,
  }));
  const original: Routed = { url: link.originalUrl, location: withUtm(link.originalUrl), route: 'original' };

  const context = new ClickContext(traits);
  return (click) => {
    if (rules.length > 0) {
      context.reset(click);
      for (let r = 0; r < rules.length; r++) {
        const { predicates, routed } = rules[r]!;
        let met = true;
        for (let p = 0; p < predicates.length && met; p++) met = predicates[p]!(context);
        if (met) return routed;
      }
    }
    if (variants) return variantRoutes[chooseVariant(variants, click.ip, click.userAgent ?? '')]!;
    return original;
  };
}
