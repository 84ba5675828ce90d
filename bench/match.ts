// npm run bench:match [-- --users 20000] [--carrier-ips 3000] [--seed 7] [--clipboard 0.6]
//                      [--no-client-hints] [--quick [--uniqueness]] [--learn]
//
// Deferred deep-link matching on a synthetic day: people tap links on their phones (most on
// carrier networks, whose NAT addresses many of them share; the rest on home Wi-Fi; 40 % over
// IPv6, rotating temporary addresses inside a /64), some landing pages never post their
// fingerprint, Chrome's reduced user agent hides Android's version and model (the landing page
// reads them back from the client hints when it posts the fingerprint), 65 % install and
// open the app minutes to hours later, often from another network, and people who never tapped
// anything open the app too (organic installs, which must stay unmatched).
// Launches are matched with the service's own scoring (src/core/deeplinks/match-score.ts) over the
// candidates its SQL would fetch (same address, same network, or same screen; open tokens of the
// window). Precision = right matches / matches; recall = right matches / launches that came from a
// tap. The Install Referrer path is deterministic and not part of this. With --clipboard SHARE the
// iOS app has the clipboard match on and that share of its installs from taps paste the tap's code
// at first launch (the person tapped the store button and allowed the paste); those launches take
// the deterministic path first, as the service does (expired once the token is), and the rest of
// the launches are fingerprinted over the clicks left open. Drawn from a separate random stream,
// so the population is the same with or without it.
import { parseArgs } from 'node:util';
import {
  ipPrefix,
  normalizeOsVersion,
  normalizeResolution,
  type OsFamily,
} from '../src/core/deeplinks/device-signals.js';
import {
  chooseMatch,
  compareSignals,
  MATCH_THRESHOLD,
  rankCandidates,
  type ClickSignals,
  type LaunchSignals,
} from '../src/core/deeplinks/match-score.js';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '7' },
    'carrier-ips': { type: 'string', default: '3000' },
    // Share of iOS installs from taps whose first launch pastes the landing page's code.
    clipboard: { type: 'string', default: '0' },
    // Print what each comparison outcome says (log-likelihood ratios), the weights' derivation.
    learn: { type: 'boolean', default: false },
    // The landing page as before client hints: a reduced Chrome user agent's click has no model or version.
    'no-client-hints': { type: 'boolean', default: false },
    // Only the default window and threshold: the breakdown and the misses, without the sweep.
    quick: { type: 'boolean', default: false },
    // With --quick: what matching the one agreeing click of a time window would add beyond the address.
    uniqueness: { type: 'boolean', default: false },
  },
});
const USERS = Number(args.users);
const CLIPBOARD_SHARE = Number(args.clipboard);
const CLIENT_HINTS = !args['no-client-hints'];

/** mulberry32: the same population for the same seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(Number(args.seed));
const pick = <T>(items: readonly (readonly [T, number])[]): T => {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let r = random() * total;
  for (const [item, w] of items) if ((r -= w) < 0) return item;
  return items[items.length - 1]![0];
};
/** Log-normal minutes: median `median`, spread `sigma`. */
const logNormal = (median: number, sigma: number) => {
  const u = 1 - random();
  const v = random();
  return median * Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
};

interface Device {
  os: OsFamily;
  model: string | null;
  css: [number, number];
  ratio: number;
  versions: readonly (readonly [string, number])[];
}

// Popular phones in a Korean-leaning market: CSS viewport, pixel ratio, OS versions in use, the
// weeks after a major release (iOS 26 and Android 16, whose first releases are x.0: 26.0, 26.0.1, 16).
const IOS_VERSIONS = [
  ['26.0', 15],
  ['26.0.1', 12],
  ['26.1', 13],
  ['18.6.2', 30],
  ['18.7', 10],
  ['17.7', 10],
  ['16.7.10', 10],
] as const;
const ANDROID_VERSIONS = [
  ['16', 15],
  ['15', 40],
  ['14', 30],
  ['13', 15],
] as const;
const DEVICES: readonly (readonly [Device, number])[] = [
  [{ os: 'IOS', model: null, css: [390, 844], ratio: 3, versions: IOS_VERSIONS }, 18],
  [{ os: 'IOS', model: null, css: [393, 852], ratio: 3, versions: IOS_VERSIONS }, 16],
  [{ os: 'IOS', model: null, css: [430, 932], ratio: 3, versions: IOS_VERSIONS }, 10],
  [{ os: 'IOS', model: null, css: [375, 812], ratio: 3, versions: IOS_VERSIONS }, 6],
  [{ os: 'IOS', model: null, css: [414, 896], ratio: 2, versions: IOS_VERSIONS }, 5],
  [{ os: 'ANDROID', model: 'SM-S928N', css: [384, 832], ratio: 3.75, versions: ANDROID_VERSIONS }, 9],
  [{ os: 'ANDROID', model: 'SM-S921N', css: [360, 780], ratio: 3, versions: ANDROID_VERSIONS }, 9],
  [{ os: 'ANDROID', model: 'SM-A356N', css: [384, 854], ratio: 2.8125, versions: ANDROID_VERSIONS }, 8],
  [{ os: 'ANDROID', model: 'SM-F741N', css: [360, 880], ratio: 3, versions: ANDROID_VERSIONS }, 6],
  [{ os: 'ANDROID', model: 'SM-A155N', css: [360, 800], ratio: 3, versions: ANDROID_VERSIONS }, 5],
  [{ os: 'ANDROID', model: 'Pixel 8', css: [412, 915], ratio: 2.625, versions: ANDROID_VERSIONS }, 4],
  [{ os: 'ANDROID', model: 'SM-S911N', css: [360, 780], ratio: 3, versions: ANDROID_VERSIONS }, 4],
];
const LOCALES: readonly (readonly [readonly [string, string], number])[] = [
  [['ko-kr', 'Asia/Seoul'], 80],
  [['en-us', 'Asia/Seoul'], 8],
  [['en-us', 'America/Los_Angeles'], 4],
  [['ja-jp', 'Asia/Tokyo'], 4],
  [['zh-cn', 'Asia/Shanghai'], 4],
] as const;

// Carrier-grade NAT: every phone on cellular shares one of its carrier's public addresses, in
// /24 blocks. The fewer addresses, the more strangers share one (see --carrier-ips).
const BLOCKS = Math.max(1, Math.round(Number(args['carrier-ips']) / 3 / 64));
const CARRIER_POOLS = Array.from({ length: 3 }, (_, c) =>
  Array.from(
    { length: BLOCKS * 64 },
    (_, i) => `10${c}.${16 + Math.floor(i / 64 / 250)}.${Math.floor(i / 64) % 250}.${1 + (i % 64) * 3}`,
  ),
);
const carrierIp = (carrier: number) => CARRIER_POOLS[carrier]![Math.floor(random() * CARRIER_POOLS[carrier]!.length)]!;
let homes = 0;
const homeIp = () =>
  `${160 + (homes % 60)}.${(homes >> 6) & 255}.${(homes++ >> 14) & 255}.${2 + Math.floor(random() * 250)}`;

interface Person {
  id: number;
  device: Device;
  osVersion: string;
  language: string;
  timeZone: string;
  carrier: number;
  home: string | null;
  /** Dual stack: the phone's requests go out over IPv6, at home in the household's /64. */
  ipv6: string | null;
}

const hex16 = () => Math.floor(random() * 0x10000).toString(16);
/** A privacy (temporary) interface id: phones rotate it, so one phone shows several in its /64. */
const interfaceId = () => [hex16(), hex16(), hex16(), hex16()].join(':');

function person(id: number): Person {
  const device = pick(DEVICES);
  const [language, timeZone] = pick(LOCALES);
  const home = random() < 0.45 ? homeIp() : null;
  const ipv6 = random() < 0.4 ? `2001:db8:${hex16()}:${hex16()}` : null;
  return {
    id,
    device,
    osVersion: pick(device.versions),
    language,
    timeZone,
    carrier: Math.floor(random() * 3),
    home,
    ipv6,
  };
}

/**
 * Where a person is online right now: home Wi-Fi when at home, else the carrier. IPv4 goes out
 * through the home's address or a carrier NAT address; IPv6 from a fresh temporary address in the
 * home's /64, or in the /64 the carrier gives each new connection.
 */
function addressOf(p: Person, atHome: boolean): string {
  if (atHome && p.home) return p.ipv6 ? `${p.ipv6}:${interfaceId()}` : p.home;
  return p.ipv6 ? `2406:${p.carrier}:${hex16()}:${hex16()}:${interfaceId()}` : carrierIp(p.carrier);
}

interface Tap {
  token: string;
  person: Person;
  at: number;
  atHome: boolean;
  click: ClickSignals;
}

interface Launch {
  at: number;
  person: Person;
  /** The tap it comes from; null for an organic install. */
  from: Tap | null;
  signals: LaunchSignals;
  /** home: tapped (if at all) and opened on home Wi-Fi; cellular: both on the carrier; switched: one each. */
  network: 'home Wi-Fi' | 'cellular' | 'switched';
  /** The first launch pastes its tap's clipboard code (iOS, clipboard match on). */
  pastes: boolean;
}

const DAY_MIN = 16 * 60;

function makeTap(p: Person, n: number): Tap {
  const at = random() * DAY_MIN;
  const atHome = random() < 0.6 && p.home !== null;
  const ip = addressOf(p, atHome);
  const d = p.device;
  // Chrome's reduced user agent hides Android's version and model for most Android taps.
  const reduced = d.os === 'ANDROID' && random() < 0.6;
  const posted = random() < 0.9;
  // The landing page reads them back from Chrome's client hints (getHighEntropyValues) and posts
  // them with the fingerprint, so a page that posts recovers them. The Sec-CH-UA-Model header of a
  // browser that saw the Accept-CH before would recover more; not counted.
  const hidden = reduced && !(CLIENT_HINTS && posted);
  // Safari's user agent carries the full iOS version up to 18; from 26 the OS is frozen at 18_6
  // and Safari's own major.minor (Version/26.0) is read instead, without the patch.
  const uaVersion =
    d.os === 'IOS'
      ? p.osVersion.startsWith('26')
        ? p.osVersion.split('.').slice(0, 2).join('.')
        : p.osVersion
      : hidden
        ? null
        : p.osVersion;
  return {
    token: `t${n}`,
    person: p,
    at,
    atHome,
    click: {
      token: `t${n}`,
      createdAt: at * 60_000,
      ip,
      ipPrefix: ipPrefix(ip),
      os: d.os,
      osVersion: normalizeOsVersion(uaVersion),
      deviceModel: hidden ? null : d.model,
      resolution: posted ? normalizeResolution(`${d.css[0]}x${d.css[1]}`) : null,
      pixelRatio: posted ? d.ratio : null,
      timeZone: posted ? p.timeZone : null,
      language: p.language,
    },
  };
}

function launchSignalsOf(p: Person, atHome: boolean): LaunchSignals {
  const d = p.device;
  const ip = addressOf(p, atHome);
  // Apps report points (iOS) or device pixels (Android), the full screen.
  const [w, h] =
    d.os === 'IOS' && random() < 0.5 ? d.css : [Math.round(d.css[0] * d.ratio), Math.round(d.css[1] * d.ratio)];
  return {
    ips: [ip],
    ipPrefixes: [ipPrefix(ip)],
    os: d.os,
    // The app reports the full version (UIDevice.systemVersion: `26.0`, Build.VERSION.RELEASE: `16`).
    osVersion: normalizeOsVersion(p.osVersion),
    deviceModel: d.model,
    resolution: normalizeResolution(`${w}x${h}`),
    timeZone: p.timeZone,
    language: p.language,
  };
}

function population() {
  const pasting = prng(Number(args.seed) + 1);
  const people = Array.from({ length: USERS }, (_, i) => person(i));
  const taps = people.map((p, i) => makeTap(p, i));
  const launches: Launch[] = [];
  for (const tap of taps) {
    if (random() >= 0.65) continue;
    // Store, download, first open: minutes mostly, sometimes hours.
    const delay = Math.min(48 * 60, Math.max(0.5, logNormal(4, 1.3)));
    // Same network as the tap most of the time; Wi-Fi ↔ cellular switches are common.
    const tappedAtHome = tap.atHome;
    const atHome = (random() < 0.75 ? tappedAtHome : !tappedAtHome) && tap.person.home !== null;
    let signals = launchSignalsOf(tap.person, atHome);
    const keep = () => ({ ...signals, ips: [tap.click.ip], ipPrefixes: [tap.click.ipPrefix] });
    // Carrier NAT keeps a phone's public address while its connection lasts (paired pooling), and
    // hands out another of the pool after a reconnect; the carrier's IPv6 /64 lasts as long.
    if (!atHome && !tappedAtHome && random() < 0.8) signals = keep();
    // At home over IPv6 the temporary address often still is the tap's; else another in the /64.
    else if (atHome && tappedAtHome && tap.person.ipv6 && random() < 0.6) signals = keep();
    const network = atHome !== tappedAtHome ? 'switched' : atHome ? 'home Wi-Fi' : 'cellular';
    const pastes = tap.person.device.os === 'IOS' && pasting() < CLIPBOARD_SHARE;
    launches.push({ at: tap.at + delay, person: tap.person, from: tap, signals, network, pastes });
  }
  // Organic installs: people who tapped nothing open the app during the same day.
  for (let i = 0; i < Math.round(USERS * 0.3); i++) {
    const p = person(USERS + i);
    const atHome = random() < 0.5 && p.home !== null;
    launches.push({
      at: random() * DAY_MIN,
      person: p,
      from: null,
      signals: launchSignalsOf(p, atHome),
      network: atHome ? 'home Wi-Fi' : 'cellular',
      pastes: false,
    });
  }
  return { taps, launches };
}

interface Outcome {
  launch: Launch;
  /** The tap it was matched to; null when unmatched. */
  taken: Tap | null;
  /** Why a launch from a tap was not matched to its own click; null otherwise. */
  miss?: MissCause | null;
}

/**
 * Where a launch's own click was when the launch went unmatched or was matched to another: taken
 * by another launch, expired, never fetched (no shared address, network or screen), or fetched
 * and scored under the threshold (ranked first, or behind a stranger's click).
 */
type MissCause =
  | 'taken by another launch'
  | 'expired'
  | 'not fetched'
  | 'under threshold, ranked first'
  | 'under threshold, outranked'
  | 'outranked by a match';

interface Result {
  window: number;
  threshold: number;
  precision: number;
  recall: number;
  organicMatched: number;
  outcomes: Outcome[];
}

/** Precision and recall over some of the launches. */
function measure(outcomes: readonly Outcome[]) {
  const matched = outcomes.filter((o) => o.taken);
  const right = matched.filter((o) => o.launch.from === o.taken).length;
  const fromTaps = outcomes.filter((o) => o.launch.from).length;
  return {
    precision: matched.length ? right / matched.length : 1,
    recall: fromTaps ? right / fromTaps : 0,
    launches: outcomes.length,
    fromTaps,
  };
}

function simulate(
  taps: Tap[],
  launches: Launch[],
  windowMin: number,
  threshold: number,
  observe?: (launch: Launch, candidates: Tap[]) => void,
  /** Each unmatched launch with every click still open in the window, fetched or not. */
  unmatched?: (launch: Launch, open: Tap[]) => void,
): Result {
  type Event = { at: number; tap: Tap; launch?: undefined } | { at: number; tap?: undefined; launch: Launch };
  const events: Event[] = [
    ...taps.map((t) => ({ at: t.at, tap: t })),
    ...launches.map((l) => ({ at: l.at, launch: l })),
  ].sort((a, b) => a.at - b.at);
  const open = new Map<string, Tap>();
  const byKey = new Map<string, Set<Tap>>();
  const index = (key: string, t: Tap) => {
    let s = byKey.get(key);
    if (!s) byKey.set(key, (s = new Set()));
    s.add(t);
  };
  const unindex = (t: Tap) => {
    for (const key of keysOf(t)) byKey.get(key)?.delete(t);
  };
  const keysOf = (t: Tap) => [
    `ip:${t.click.ip}`,
    `net:${t.click.ipPrefix}`,
    ...(t.click.resolution ? [`res:${t.click.resolution}`] : []),
  ];
  const outcomes: Outcome[] = [];
  for (const e of events) {
    if (e.tap) {
      open.set(e.tap.token, e.tap);
      for (const key of keysOf(e.tap)) index(key, e.tap);
      continue;
    }
    const launch = e.launch;
    if (launch.pastes && launch.from) {
      // The code names its click: taken while its token lives, an expired miss after (no fingerprinting).
      const live = open.has(launch.from.token) && launch.at - launch.from.at <= windowMin;
      if (live) {
        open.delete(launch.from.token);
        unindex(launch.from);
      }
      outcomes.push({ launch, taken: live ? launch.from : null });
      continue;
    }
    const s = launch.signals;
    const keys = [
      ...s.ips.map((ip) => `ip:${ip}`),
      ...s.ipPrefixes.map((n) => `net:${n}`),
      ...(s.resolution ? [`res:${s.resolution}`] : []),
    ];
    const found = new Set<Tap>();
    for (const key of keys) for (const t of byKey.get(key) ?? []) if (launch.at - t.at <= windowMin) found.add(t);
    // The SQL takes the 200 newest.
    const candidates = [...found].sort((a, b) => b.at - a.at).slice(0, 200);
    observe?.(launch, candidates);
    const ranked = rankCandidates(
      { ...s, launchedAt: launch.at * 60_000 },
      candidates.map((t) => t.click),
    );
    const choice = chooseMatch(ranked, threshold);
    const missCause = (): MissCause | null => {
      const own = launch.from;
      if (!own || (choice.matched && choice.best.candidate.token === own.token)) return null;
      if (launch.at - own.at > windowMin) return 'expired';
      if (!open.has(own.token)) return 'taken by another launch';
      const rank = ranked.findIndex((r) => r.candidate.token === own.token);
      if (rank < 0) return 'not fetched';
      if (choice.matched) return 'outranked by a match';
      return rank === 0 ? 'under threshold, ranked first' : 'under threshold, outranked';
    };
    const miss = missCause();
    if (!choice.matched) {
      unmatched?.(
        launch,
        [...open.values()].filter((t) => launch.at - t.at <= windowMin),
      );
      outcomes.push({ launch, taken: null, miss });
      continue;
    }
    const taken = open.get(choice.best.candidate.token)!;
    open.delete(taken.token);
    unindex(taken);
    outcomes.push({ launch, taken, miss });
  }
  const all = measure(outcomes);
  const organicMatched = outcomes.filter((o) => o.taken && !o.launch.from).length;
  return { window: windowMin, threshold, precision: all.precision, recall: all.recall, organicMatched, outcomes };
}

/** An OS release's age on the simulated day: the new major's first release (x.0, x.0.y), its later ones, earlier majors. */
function releaseAge(p: Person): string {
  const [major, minor = '0'] = p.osVersion.split('.');
  const newest = p.device.os === 'IOS' ? '26' : '16';
  if (major !== newest) return 'earlier majors';
  return minor === '0' ? 'new major, x.0' : 'new major, later';
}

/** Precision and recall at the default settings by platform, OS release age and network. */
function breakdown(outcomes: readonly Outcome[]): void {
  const groups: [string, (o: Outcome) => string][] = [
    ['platform', (o) => (o.launch.person.device.os === 'IOS' ? 'iOS' : 'Android')],
    ['OS release', (o) => releaseAge(o.launch.person)],
    ['network', (o) => o.launch.network],
    ['path', (o) => (o.launch.pastes ? 'clipboard' : 'fingerprint')],
  ];
  console.log(
    `\n${'by'.padEnd(12)} ${'group'.padEnd(18)} ${'installs'.padStart(9)} ${'precision'.padStart(10)} ${'recall'.padStart(8)}`,
  );
  const row = (by: string, group: string, some: readonly Outcome[]) => {
    const m = measure(some);
    console.log(
      `${by.padEnd(12)} ${group.padEnd(18)} ${String(m.fromTaps).padStart(9)} ${(m.precision * 100).toFixed(1).padStart(9)}% ${(m.recall * 100).toFixed(1).padStart(7)}%`,
    );
  };
  row('all', '', outcomes);
  for (const [by, key] of groups) {
    const split = new Map<string, Outcome[]>();
    for (const o of outcomes) {
      const k = key(o);
      split.set(k, split.get(k) ?? []);
      split.get(k)!.push(o);
    }
    for (const [group, some] of [...split].sort(([a], [b]) => a.localeCompare(b))) row(by, group, some);
  }
}

/** The launches from taps that did not get their own click, by network and cause. */
function misses(outcomes: readonly Outcome[]): void {
  const missed = outcomes.filter((o) => o.launch.from && o.miss);
  const networks = ['home Wi-Fi', 'cellular', 'switched'] as const;
  const causes = [...new Set(missed.map((o) => o.miss!))].sort();
  const fromTaps = outcomes.filter((o) => o.launch.from).length;
  console.log(
    `\nmisses (launches from taps without their own click: ${missed.length}, ${((missed.length / fromTaps) * 100).toFixed(1)} % of ${fromTaps})`,
  );
  console.log(`${'cause'.padEnd(32)} ${networks.map((n) => n.padStart(11)).join(' ')} ${'all'.padStart(7)}`);
  for (const cause of causes) {
    const some = missed.filter((o) => o.miss === cause);
    console.log(
      `${cause.padEnd(32)} ${networks.map((n) => String(some.filter((o) => o.launch.network === n).length).padStart(11)).join(' ')} ${String(some.length).padStart(7)}`,
    );
  }
}

/**
 * What uniqueness could add beyond the address: for each launch left unmatched, the open clicks of
 * the window (fetched or not: the screen compared in either unit) that contradict it in nothing
 * (same OS, model where both know it, release to the patch, screen, language, zone, each where both
 * sides have it). A rule "match the one such click tapped within the last τ minutes" would be right
 * when that click is the launch's own and wrong when it is a stranger's (for an organic launch,
 * always). Printed per τ, and for Android with the model known on both sides.
 */
function uniqueness(taps: Tap[], launches: Launch[]): void {
  const windows = [5, 10, 30, 120];
  const count = () => ({ right: 0, wrong: 0 });
  const rows = new Map<string, { right: number; wrong: number }>();
  const add = (key: string, right: boolean) => {
    const r = rows.get(key) ?? count();
    rows.set(key, r);
    if (right) r.right++;
    else r.wrong++;
  };
  simulate(taps, launches, 120, MATCH_THRESHOLD, undefined, (launch, open) => {
    const at = { ...launch.signals, launchedAt: launch.at * 60_000 };
    const agreeing = open.filter((t) => {
      const c = compareSignals(t.click, at);
      if (typeof c === 'string' || c.resolution !== 'same') return false;
      return c.osVersion !== 'minor' && c.osVersion !== 'major' && c.language !== 'differs' && c.timeZone !== 'differs';
    });
    for (const tau of windows) {
      const recent = agreeing.filter((t) => launch.at - t.at <= tau);
      if (recent.length !== 1) continue;
      const right = recent[0] === launch.from;
      add(`all, τ ${tau} min`, right);
      if (recent[0]!.click.deviceModel && launch.signals.deviceModel) add(`model known, τ ${tau} min`, right);
    }
  });
  console.log("\nunmatched launches with exactly one agreeing open click tapped within τ (right: the launch's own)");
  console.log(`${'rule'.padEnd(24)} ${'right'.padStart(7)} ${'wrong'.padStart(7)}`);
  for (const scope of ['all', 'model known']) {
    for (const tau of windows) {
      const key = `${scope}, τ ${tau} min`;
      const r = rows.get(key) ?? count();
      console.log(`${key.padEnd(24)} ${String(r.right).padStart(7)} ${String(r.wrong).padStart(7)}`);
    }
  }
}

/**
 * What each comparison outcome says, over the candidates the service would fetch at the default
 * window: ln(P(outcome | the launch's own click) / P(outcome | someone else's)), add-one smoothed.
 */
function learn(taps: Tap[], launches: Launch[]): void {
  const own = new Map<string, number>();
  const other = new Map<string, number>();
  let ownPairs = 0;
  let otherPairs = 0;
  simulate(taps, launches, 120, MATCH_THRESHOLD, (launch, candidates) => {
    for (const t of candidates) {
      const compared = compareSignals(t.click, { ...launch.signals, launchedAt: launch.at * 60_000 });
      const mine = launch.from === t;
      if (mine) ownPairs++;
      else otherPairs++;
      const outcomes =
        typeof compared === 'string'
          ? [`ruled out:${compared}`]
          : Object.entries(compared).map(([k, v]) => `${k}:${v}`);
      for (const key of outcomes) (mine ? own : other).set(key, ((mine ? own : other).get(key) ?? 0) + 1);
    }
  });
  console.log(`${ownPairs} own and ${otherPairs} other candidate pairs at the 2 h window\n`);
  console.log(`${'outcome'.padEnd(24)} ${'own'.padStart(8)} ${'other'.padStart(9)} ${'ln LR'.padStart(7)}`);
  for (const key of [...new Set([...own.keys(), ...other.keys()])].sort()) {
    const a = own.get(key) ?? 0;
    const b = other.get(key) ?? 0;
    const lr = Math.log((a + 1) / (ownPairs + 1) / ((b + 1) / (otherPairs + 1)));
    console.log(`${key.padEnd(24)} ${String(a).padStart(8)} ${String(b).padStart(9)} ${lr.toFixed(2).padStart(7)}`);
  }
}

function main(): void {
  const started = Date.now();
  const { taps, launches } = population();
  if (args.learn) {
    learn(taps, launches);
    return;
  }
  const attributed = launches.filter((l) => l.from).length;
  const sameAddress = launches.filter((l) => l.from && l.signals.ips.includes(l.from.click.ip)).length;
  const sameV6Prefix = launches.filter(
    (l) =>
      l.from &&
      !l.signals.ips.includes(l.from.click.ip) &&
      l.from.click.ipPrefix.endsWith('/64') &&
      l.signals.ipPrefixes.includes(l.from.click.ipPrefix),
  ).length;
  const share = (n: number) => `${((n / attributed) * 100).toFixed(0)} %`;
  console.log(
    `deferred matching: ${USERS} taps in 16 h, ${attributed} installs from taps (${share(sameAddress)} from the tap's address, ${share(sameV6Prefix)} from another in its IPv6 /64), ` +
      `${launches.length - attributed} organic installs, ${CARRIER_POOLS.length} carriers × ${CARRIER_POOLS[0]!.length} NAT addresses, threshold in use ${MATCH_THRESHOLD}\n`,
  );
  if (args.quick) {
    const r = simulate(taps, launches, 120, MATCH_THRESHOLD);
    breakdown(r.outcomes);
    misses(r.outcomes);
    if (args.uniqueness) uniqueness(taps, launches);
    console.log(`\norganic matched ${r.organicMatched}; ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return;
  }
  const windows = [15, 60, 120, 24 * 60];
  const thresholds = [50, 60, 70, 75, 80, 85, 90];
  const label = (m: number) => (m < 60 ? `${m} min` : `${m / 60} h`);
  console.log(
    `${'window'.padEnd(8)} ${'threshold'.padStart(9)} ${'precision'.padStart(10)} ${'recall'.padStart(8)} ${'organic matched'.padStart(16)}`,
  );
  for (const window of windows) {
    for (const threshold of thresholds) {
      const r = simulate(taps, launches, window, threshold);
      const mark = threshold === MATCH_THRESHOLD && window === 120 ? '  ← default (2 h tokens)' : '';
      console.log(
        `${label(window).padEnd(8)} ${String(threshold).padStart(9)} ${(r.precision * 100).toFixed(1).padStart(9)}% ${(r.recall * 100).toFixed(1).padStart(7)}% ${String(r.organicMatched).padStart(16)}${mark}`,
      );
    }
  }
  const byDefault = simulate(taps, launches, 120, MATCH_THRESHOLD).outcomes;
  breakdown(byDefault);
  misses(byDefault);
  console.log(`\n${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main();
