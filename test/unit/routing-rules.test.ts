// The routing engine (src/core/routing): every condition alone, all of a rule together, the first
// matching rule winning, the original when nothing matches, UTM parameters on every destination,
// the country looked up only for a rule that names countries, and variants sticky per visitor and
// split by weight.
import { describe, expect, it } from 'vitest';
import {
  compileRouting,
  type RoutingRule,
  type Variant,
  type VisitorTraits,
} from '../../src/core/routing/routing-rules.js';
import { primaryLanguage } from '../../src/core/routing/routing-rules.js';
import { ruleOsOf } from '../../src/core/routing/visitor-traits.js';

const COUNTRY_OF: Record<string, string> = { '211.234.10.1': 'KR', '133.242.0.1': 'JP', '8.8.8.8': 'US' };
const AGENT_OF: Record<string, ReturnType<VisitorTraits['agent']>> = {
  iphone: { deviceType: 'mobile', os: 'ios' },
  ipad: { deviceType: 'tablet', os: 'ios' },
  pixel: { deviceType: 'mobile', os: 'android' },
  windows: { deviceType: 'desktop', os: 'windows' },
  mac: { deviceType: 'desktop', os: 'macos' },
  ubuntu: { deviceType: 'desktop', os: 'linux' },
};

function tracedTraits() {
  const calls = { country: 0, agent: 0 };
  const traits: VisitorTraits = {
    country(ip) {
      calls.country++;
      return COUNTRY_OF[ip] ?? '';
    },
    agent(ua) {
      calls.agent++;
      return AGENT_OF[ua] ?? { deviceType: 'desktop', os: '' };
    },
  };
  return { traits, calls };
}

const NOW = Date.parse('2026-06-01T12:00:00Z');
const click = (over: Partial<Parameters<NonNullable<ReturnType<typeof compileRouting>>>[0]> = {}) => ({
  ip: '8.8.8.8',
  userAgent: 'windows',
  acceptLanguage: 'en-US,en;q=0.9',
  query: '',
  now: NOW,
  ...over,
});

const link = (routingRules: RoutingRule[], variants: Variant[] = []) => ({
  id: 7,
  originalUrl: 'https://shop.example/',
  utm: { source: null, medium: null, campaign: null, term: null, content: null },
  routingRules,
  variants,
});

const route = (rules: RoutingRule[], c = click(), variants: Variant[] = []) =>
  compileRouting(link(rules, variants), tracedTraits().traits)!(c);

describe('a single condition', () => {
  const R = 'https://shop.example/rule';
  const cases: Array<[string, RoutingRule['conditions'], Partial<ReturnType<typeof click>>, boolean]> = [
    ['country matches', { countries: ['KR'] }, { ip: '211.234.10.1' }, true],
    ['country in lower case matches', { countries: ['kr', 'jp'] }, { ip: '133.242.0.1' }, true],
    ['another country does not', { countries: ['KR'] }, { ip: '8.8.8.8' }, false],
    ['an unknown country does not', { countries: ['KR'] }, { ip: '10.0.0.1' }, false],
    ['device mobile', { deviceTypes: ['mobile'] }, { userAgent: 'iphone' }, true],
    ['device tablet is not mobile', { deviceTypes: ['mobile'] }, { userAgent: 'ipad' }, false],
    ['device tablet', { deviceTypes: ['TABLET'] }, { userAgent: 'ipad' }, true],
    ['device desktop', { deviceTypes: ['desktop'] }, { userAgent: 'windows' }, true],
    ['os ios', { os: ['ios'] }, { userAgent: 'ipad' }, true],
    ['os android', { os: ['Android'] }, { userAgent: 'pixel' }, true],
    ['os windows', { os: ['windows'] }, { userAgent: 'windows' }, true],
    ['os macos', { os: ['macos'] }, { userAgent: 'mac' }, true],
    ['os linux', { os: ['linux'] }, { userAgent: 'ubuntu' }, true],
    ['os of another system', { os: ['linux'] }, { userAgent: 'pixel' }, false],
    ['language, first entry only', { languages: ['ko'] }, { acceptLanguage: 'ko-KR,en;q=0.8' }, true],
    ['language later in the header does not', { languages: ['ko'] }, { acceptLanguage: 'en,ko;q=0.8' }, false],
    ['language in upper case', { languages: ['EN'] }, { acceptLanguage: 'en-GB' }, true],
    ['no Accept-Language', { languages: ['en'] }, { acceptLanguage: undefined }, false],
    ['after: at the instant', { after: '2026-06-01T12:00:00Z' }, {}, true],
    ['after: before the instant', { after: '2026-06-01T12:00:01Z' }, {}, false],
    ['after with an offset', { after: '2026-06-01T20:59:00+09:00' }, {}, true],
    ['before: earlier', { before: '2026-06-01T12:00:01Z' }, {}, true],
    ['before: at the instant is too late', { before: '2026-06-01T12:00:00Z' }, {}, false],
    ['query value', { query: { ref: 'mail' } }, { query: 'ref=mail&x=1' }, true],
    ['query one of repeated values', { query: { ref: 'mail' } }, { query: 'ref=web&ref=mail' }, true],
    ['query other value', { query: { ref: 'mail' } }, { query: 'ref=web' }, false],
    ['query missing', { query: { ref: 'mail' } }, { query: '' }, false],
    ['query two parameters, both needed', { query: { a: '1', b: '2' } }, { query: 'a=1' }, false],
    ['no conditions: every click', {}, {}, true],
  ];
  it.each(cases)('%s', (_, conditions, over, matches) => {
    const routed = route([{ conditions, url: R }], click(over));
    expect(routed.route).toBe(matches ? 'rule:0' : 'original');
    expect(routed.url).toBe(matches ? R : 'https://shop.example/');
  });
});

describe('rules together', () => {
  it('need every condition of a rule, one value of each list', () => {
    const rules: RoutingRule[] = [
      {
        conditions: { countries: ['KR', 'JP'], deviceTypes: ['mobile'], languages: ['ko'] },
        url: 'https://a.example/',
      },
    ];
    expect(route(rules, click({ ip: '133.242.0.1', userAgent: 'iphone', acceptLanguage: 'ko' })).route).toBe('rule:0');
    expect(route(rules, click({ ip: '133.242.0.1', userAgent: 'windows', acceptLanguage: 'ko' })).route).toBe(
      'original',
    );
  });

  it('go in order: the first that matches wins', () => {
    const rules: RoutingRule[] = [
      { conditions: { countries: ['US'] }, url: 'https://us.example/' },
      { conditions: { deviceTypes: ['mobile'] }, url: 'https://mobile.example/' },
      { conditions: {}, url: 'https://rest.example/' },
    ];
    expect(route(rules, click({ ip: '8.8.8.8', userAgent: 'iphone' })).route).toBe('rule:0');
    expect(route(rules, click({ ip: '211.234.10.1', userAgent: 'iphone' })).route).toBe('rule:1');
    expect(route(rules, click({ ip: '211.234.10.1', userAgent: 'windows' })).route).toBe('rule:2');
  });

  it("add the link's UTM parameters to the rule's url", () => {
    const compiled = compileRouting(
      {
        ...link([{ conditions: {}, url: 'https://a.example/p?x=1' }]),
        utm: { source: 'news', medium: 'email', campaign: null, term: null, content: null },
      },
      tracedTraits().traits,
    )!;
    expect(compiled(click()).location).toBe('https://a.example/p?x=1&utm_source=news&utm_medium=email');
  });

  it('look the country up only for a rule that names countries, and once per click', () => {
    const { traits, calls } = tracedTraits();
    compileRouting(link([{ conditions: { languages: ['ko'] }, url: 'https://a.example/' }]), traits)!(click());
    expect(calls).toEqual({ country: 0, agent: 0 });
    compileRouting(
      link([
        { conditions: { countries: ['KR'] }, url: 'https://a.example/' },
        { conditions: { countries: ['JP'] }, url: 'https://b.example/' },
      ]),
      traits,
    )!(click());
    expect(calls.country).toBe(1);
  });

  it('are not compiled at all for a link with neither rules nor variants', () => {
    expect(compileRouting(link([]), tracedTraits().traits)).toBeNull();
  });
});

describe('variants', () => {
  const variants: Variant[] = [
    { url: 'https://a.example/', weight: 70 },
    { url: 'https://b.example/', weight: 30 },
  ];
  const visitors = Array.from({ length: 4000 }, (_, n) => ({
    ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
    userAgent: `agent ${n % 7}`,
  }));

  it('give the same visitor the same variant every time', () => {
    const compiled = compileRouting(link([], variants), tracedTraits().traits)!;
    for (const v of visitors.slice(0, 200)) {
      const first = compiled(click(v)).route;
      expect(compiled(click({ ...v, query: 'x=1', now: NOW + 86_400_000 })).route).toBe(first);
      // Another instance compiles the same answer.
      expect(compileRouting(link([], variants), tracedTraits().traits)!(click(v)).route).toBe(first);
    }
  });

  it('split visitors by weight', () => {
    const compiled = compileRouting(link([], variants), tracedTraits().traits)!;
    const counts = new Map<string, number>();
    for (const v of visitors) counts.set(compiled(click(v)).route, (counts.get(compiled(click(v)).route) ?? 0) + 1);
    expect(counts.get('variant:0')! / visitors.length).toBeGreaterThan(0.66);
    expect(counts.get('variant:0')! / visitors.length).toBeLessThan(0.74);
    expect(counts.get('variant:0')! + counts.get('variant:1')!).toBe(visitors.length);
  });

  it('move few visitors when the weights change: only from a variant that lost weight or to one that gained', () => {
    const three = (w: [number, number, number]): Variant[] =>
      ['https://a.example/', 'https://b.example/', 'https://c.example/'].map((url, i) => ({ url, weight: w[i]! }));
    const before = compileRouting(link([], three([40, 30, 30])), tracedTraits().traits)!;
    const after = compileRouting(link([], three([30, 30, 40])), tracedTraits().traits)!;
    let moved = 0;
    for (const v of visitors) {
      const [was, is] = [before(click(v)).route, after(click(v)).route];
      if (was !== is) {
        moved++;
        expect(was === 'variant:0' || is === 'variant:2', `${was} → ${is}`).toBe(true);
      }
    }
    expect(moved / visitors.length).toBeLessThan(0.2);
  });

  it('come after the rules: a click a rule caught is not split', () => {
    const rules: RoutingRule[] = [{ conditions: { countries: ['KR'] }, url: 'https://kr.example/' }];
    expect(route(rules, click({ ip: '211.234.10.1' }), variants).route).toBe('rule:0');
    expect(route(rules, click({ ip: '8.8.8.8' }), variants).route).toMatch(/^variant:[01]$/);
  });

  it('never give a variant of weight 0', () => {
    const compiled = compileRouting(
      link(
        [],
        [
          { url: 'https://a.example/', weight: 0 },
          { url: 'https://b.example/', weight: 100 },
        ],
      ),
      tracedTraits().traits,
    )!;
    for (const v of visitors.slice(0, 500)) expect(compiled(click(v)).route).toBe('variant:1');
  });
});

describe('visitor facts', () => {
  it.each([
    ['ko-KR,ko;q=0.9,en;q=0.8', 'ko'],
    [' EN-us ', 'en'],
    ['zh-Hant-TW;q=0.9', 'zh'],
    ['*', ''],
    ['', ''],
  ])('Accept-Language %j is %j', (header, language) => expect(primaryLanguage(header)).toBe(language));

  it.each([
    ['iOS', 'ios'],
    ['Android', 'android'],
    ['Windows', 'windows'],
    ['Mac OS', 'macos'],
    ['Ubuntu', 'linux'],
    ['Linux', 'linux'],
    ['Chromium OS', ''],
    ['Unknown', ''],
  ])('the OS %j is %j to a rule', (name, os) => expect(ruleOsOf(name)).toBe(os));
});
