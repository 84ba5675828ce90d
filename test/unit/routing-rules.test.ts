// The routing engine (src/core/routing): every condition alone, all of a rule together, the first
// matching rule winning, the original when nothing matches, UTM parameters on every destination,
// the country (region, city) looked up only for a rule that names them, and variants sticky per
// visitor and split by weight.
import { describe, expect, it } from 'vitest';
import {
  compileRouting,
  type RoutingRule,
  type Variant,
  type VisitorTraits,
} from '../../src/core/routing/routing-rules.js';
import { primaryLanguage } from '../../src/core/routing/routing-rules.js';
import { browserFamilyOf, ruleOsOf } from '../../src/core/routing/visitor-traits.js';

const COUNTRY_OF: Record<string, string> = { '211.234.10.1': 'KR', '133.242.0.1': 'JP', '8.8.8.8': 'US' };
const PLACE_OF: Record<string, { region: string; city: string }> = {
  '211.234.10.1': { region: 'KR-11', city: 'Seoul' },
  '8.8.8.8': { region: 'US-CA', city: 'Mountain View' },
};
const AGENT_OF: Record<string, ReturnType<VisitorTraits['agent']>> = {
  iphone: { deviceType: 'mobile', os: 'ios', browser: 'safari' },
  ipad: { deviceType: 'tablet', os: 'ios', browser: 'safari' },
  pixel: { deviceType: 'mobile', os: 'android', browser: 'chrome' },
  galaxy: { deviceType: 'mobile', os: 'android', browser: 'samsung internet' },
  windows: { deviceType: 'desktop', os: 'windows', browser: 'edge' },
  mac: { deviceType: 'desktop', os: 'macos', browser: 'safari' },
  ubuntu: { deviceType: 'desktop', os: 'linux', browser: 'firefox' },
};

function tracedTraits() {
  const calls = { country: 0, place: 0, agent: 0 };
  const traits: VisitorTraits = {
    country(ip) {
      calls.country++;
      return COUNTRY_OF[ip] ?? '';
    },
    place(ip) {
      calls.place++;
      return PLACE_OF[ip] ?? { region: '', city: '' };
    },
    agent(ua) {
      calls.agent++;
      return AGENT_OF[ua] ?? { deviceType: 'desktop', os: '', browser: '' };
    },
  };
  return { traits, calls };
}

const NOW = Date.parse('2026-06-01T12:00:00Z');
const click = (over: Partial<Parameters<NonNullable<ReturnType<typeof compileRouting>>>[0]> = {}) => ({
  ip: '8.8.8.8',
  userAgent: 'windows',
  acceptLanguage: 'en-US,en;q=0.9',
  referrer: undefined as string | undefined,
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

describe('the conditions of browsers, referrers, regions and cities', () => {
  type Over = Partial<ReturnType<typeof click>>;
  /** One condition against clicks that meet it and clicks that do not. */
  const each = (conditions: RoutingRule['conditions'], clicks: { meet: Over[]; miss: Over[] }) =>
    it.each([...clicks.meet.map((c) => [c, true] as const), ...clicks.miss.map((c) => [c, false] as const)])(
      `${JSON.stringify(conditions)}, click %j: meets it %s`,
      (over, meets) => {
        expect(route([{ conditions, url: 'https://shop.example/rule' }], click(over)).route).toBe(
          meets ? 'rule:0' : 'original',
        );
      },
    );

  // KR-11 and Seoul, US-CA and Mountain View; the Japanese address has neither region nor city.
  each(
    { regions: ['KR-11', 'us-ca'] },
    { meet: [{ ip: '211.234.10.1' }, { ip: '8.8.8.8' }], miss: [{ ip: '133.242.0.1' }, { ip: '' }] },
  );
  each(
    { cities: ['seoul'] },
    { meet: [{ ip: '211.234.10.1' }], miss: [{ ip: '8.8.8.8' }, { ip: '133.242.0.1' }, { ip: '' }] },
  );
  // Families in any case, two-word ones too; an agent of no known family meets none.
  each(
    { browsers: ['Chrome', 'samsung internet'] },
    { meet: [{ userAgent: 'pixel' }, { userAgent: 'galaxy' }], miss: [{ userAgent: 'iphone' }, { userAgent: 'curl' }] },
  );
  // The host itself or a subdomain, whatever the case of the Referer; never the path, a look-alike or the parent.
  each(
    { referrers: ['t.co', 'm.facebook.com'] },
    {
      meet: ['https://t.co/abc', 'https://l.m.facebook.com/x', 'HTTPS://M.FACEBOOK.COM/'].map((referrer) => ({
        referrer,
      })),
      miss: [
        'https://xm.facebook.com/',
        'https://facebook.com/',
        'https://x.example/t.co',
        'https://at.co/',
        't.co',
        undefined,
      ].map((referrer) => ({ referrer })),
    },
  );
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

  it('go in order over the new conditions too: the first that matches wins, later ones are not read', () => {
    const rules: RoutingRule[] = [
      { conditions: { referrers: ['t.co'] }, url: 'https://twitter.example/' },
      { conditions: { regions: ['KR-11'], browsers: ['Safari'] }, url: 'https://seoul-safari.example/' },
      { conditions: { cities: ['Seoul'] }, url: 'https://seoul.example/' },
      { conditions: { browsers: ['Chrome', 'Samsung Internet'] }, url: 'https://chrome.example/' },
    ];
    const cases: Array<[Partial<ReturnType<typeof click>>, string]> = [
      [{ referrer: 'https://t.co/x', ip: '211.234.10.1', userAgent: 'iphone' }, 'rule:0'],
      [{ ip: '211.234.10.1', userAgent: 'iphone' }, 'rule:1'],
      [{ ip: '211.234.10.1', userAgent: 'pixel' }, 'rule:2'],
      [{ ip: '8.8.8.8', userAgent: 'galaxy' }, 'rule:3'],
      [{ ip: '8.8.8.8', userAgent: 'ubuntu', referrer: 'https://news.example/' }, 'original'],
    ];
    for (const [over, expected] of cases) expect(route(rules, click(over)).route, JSON.stringify(over)).toBe(expected);

    const { traits, calls } = tracedTraits();
    compileRouting(link(rules), traits)!(click({ referrer: 'https://t.co/x' }));
    expect(calls).toEqual({ country: 0, place: 0, agent: 0 });
  });

  it('look the region and city up only for a rule that names them, once per click for both', () => {
    const { traits, calls } = tracedTraits();
    compileRouting(
      link([
        { conditions: { countries: ['US'], browsers: ['Chrome'] }, url: 'https://a.example/' },
        { conditions: { regions: ['KR-11'] }, url: 'https://b.example/' },
        { conditions: { cities: ['Busan'] }, url: 'https://c.example/' },
      ]),
      traits,
    )!(click({ ip: '211.234.10.1' }));
    expect(calls).toEqual({ country: 1, place: 1, agent: 0 });
    compileRouting(link([{ conditions: { countries: ['KR'] }, url: 'https://a.example/' }]), traits)!(click());
    expect(calls.place).toBe(1);
  });

  it('look the country up only for a rule that names countries, and once per click', () => {
    const { traits, calls } = tracedTraits();
    compileRouting(link([{ conditions: { languages: ['ko'] }, url: 'https://a.example/' }]), traits)!(click());
    expect(calls).toEqual({ country: 0, place: 0, agent: 0 });
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

  it.each([
    ['Chrome', 'chrome'],
    ['Chrome Headless', 'chrome'],
    ['Chrome WebView', 'chrome webview'],
    ['Mobile Safari', 'safari'],
    ['Safari', 'safari'],
    ['Mobile Firefox', 'firefox'],
    ['Samsung Internet', 'samsung internet'],
    ['Opera Mini', 'opera'],
    ['Edge', 'edge'],
    ['KAKAOTALK', 'kakaotalk'],
    ['Unknown', ''],
  ])('the browser %j is %j to a rule', (name, family) => expect(browserFamilyOf(name)).toBe(family));
});
