// npm run bench:match [-- --users 20000] [--carrier-ips 3000] [--seed 7]
//
// Deferred deep-link matching on a synthetic day: people tap links on their phones (most on
// carrier networks, whose NAT addresses many of them share; the rest on home Wi-Fi), some landing
// pages never post their fingerprint, Chrome's reduced user agent hides Android's version and
// model, 65 % install and open the app minutes to hours later, often from another network, and
// people who never tapped anything open the app too (organic installs, which must stay unmatched).
// Launches are matched with the service's own scoring (src/core/deeplinks/match-score.ts) over the
// candidates its SQL would fetch (same address, same network, or same screen; open tokens of the
// window). Precision = right matches / matches; recall = right matches / launches that came from a
// tap. The Install Referrer path is deterministic and not part of this.
import { parseArgs } from 'node:util';
import { ipPrefix, normalizeResolution, type OsFamily } from '../src/core/deeplinks/device-signals.js';
import { chooseMatch, MATCH_THRESHOLD, rankCandidates, type ClickSignals, type LaunchSignals } from '../src/core/deeplinks/match-score.js';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '7' },
    'carrier-ips': { type: 'string', default: '3000' },
  },
});
const USERS = Number(args.users);

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

// Popular phones in a Korean-leaning market: CSS viewport, pixel ratio, OS versions in use.
const IOS_VERSIONS = [['18.6', 25], ['26.0', 20], ['26.1', 25], ['17.6', 15], ['18.5', 15]] as const;
const ANDROID_VERSIONS = [['14', 40], ['15', 35], ['13', 15], ['16', 10]] as const;
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
const LOCALES: readonly (readonly [readonly [string, string], number])[] = [[['ko-kr', 'Asia/Seoul'], 80], [['en-us', 'Asia/Seoul'], 8], [['en-us', 'America/Los_Angeles'], 4], [['ja-jp', 'Asia/Tokyo'], 4], [['zh-cn', 'Asia/Shanghai'], 4]] as const;

// Carrier-grade NAT: every phone on cellular shares one of its carrier's public addresses, in
// /24 blocks. The fewer addresses, the more strangers share one (see --carrier-ips).
const BLOCKS = Math.max(1, Math.round(Number(args['carrier-ips']) / 3 / 64));
const CARRIER_POOLS = Array.from({ length: 3 }, (_, c) =>
  Array.from({ length: BLOCKS * 64 }, (_, i) => `10${c}.${16 + Math.floor(i / 64 / 250)}.${Math.floor(i / 64) % 250}.${1 + (i % 64) * 3}`));
const carrierIp = (carrier: number) => CARRIER_POOLS[carrier]![Math.floor(random() * CARRIER_POOLS[carrier]!.length)]!;
let homes = 0;
const homeIp = () => `${160 + (homes % 60)}.${(homes >> 6) & 255}.${(homes++ >> 14) & 255}.${2 + Math.floor(random() * 250)}`;

interface Person {
  id: number;
  device: Device;
  osVersion: string;
  language: string;
  timeZone: string;
  carrier: number;
  home: string | null;
}

function person(id: number): Person {
  const device = pick(DEVICES);
  const [language, timeZone] = pick(LOCALES);
  return { id, device, osVersion: pick(device.versions), language, timeZone, carrier: Math.floor(random() * 3), home: random() < 0.45 ? homeIp() : null };
}

/** Where a person is online right now: home Wi-Fi when at home, else a carrier NAT address. */
const addressOf = (p: Person, atHome: boolean) => (atHome && p.home ? p.home : carrierIp(p.carrier));

interface Tap {
  token: string;
  person: Person;
  at: number;
  click: ClickSignals;
}

interface Launch {
  at: number;
  person: Person;
  /** The tap it comes from; null for an organic install. */
  from: Tap | null;
  signals: LaunchSignals;
}

const DAY_MIN = 16 * 60;

function makeTap(p: Person, n: number): Tap {
  const at = random() * DAY_MIN;
  const ip = addressOf(p, random() < 0.6);
  const d = p.device;
  // Chrome's reduced user agent hides Android's version and model for most Android taps.
  const reduced = d.os === 'ANDROID' && random() < 0.6;
  // Safari's user agent carries major.minor only (and 18.6 frozen with Safari 26, read back as the major).
  const uaVersion = d.os === 'IOS' ? (p.osVersion.startsWith('26') ? '26' : p.osVersion) : reduced ? null : p.osVersion;
  const posted = random() < 0.9;
  return {
    token: `t${n}`,
    person: p,
    at,
    click: {
      token: `t${n}`,
      createdAt: at * 60_000,
      ip,
      ipPrefix: ipPrefix(ip),
      os: d.os,
      osVersion: uaVersion,
      deviceModel: reduced ? null : d.model,
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
  const [w, h] = d.os === 'IOS' && random() < 0.5 ? d.css : [Math.round(d.css[0] * d.ratio), Math.round(d.css[1] * d.ratio)];
  return {
    ips: [ip],
    ipPrefixes: [ipPrefix(ip)],
    os: d.os,
    osVersion: p.osVersion,
    deviceModel: d.model,
    resolution: normalizeResolution(`${w}x${h}`),
    timeZone: p.timeZone,
    language: p.language,
  };
}

function population() {
  const people = Array.from({ length: USERS }, (_, i) => person(i));
  const taps = people.map((p, i) => makeTap(p, i));
  const launches: Launch[] = [];
  for (const tap of taps) {
    if (random() >= 0.65) continue;
    // Store, download, first open: minutes mostly, sometimes hours.
    const delay = Math.min(48 * 60, Math.max(0.5, logNormal(4, 1.3)));
    // Same network as the tap most of the time; Wi-Fi ↔ cellular switches are common.
    const tappedAtHome = tap.click.ip === tap.person.home;
    const atHome = random() < 0.75 ? tappedAtHome : !tappedAtHome;
    let signals = launchSignalsOf(tap.person, atHome);
    // Carrier NAT keeps a phone's public address while its connection lasts (paired pooling), and
    // hands out another of the pool after a reconnect.
    if (!atHome && !tappedAtHome && random() < 0.8) signals = { ...signals, ips: [tap.click.ip], ipPrefixes: [tap.click.ipPrefix] };
    launches.push({ at: tap.at + delay, person: tap.person, from: tap, signals });
  }
  // Organic installs: people who tapped nothing open the app during the same day.
  for (let i = 0; i < Math.round(USERS * 0.3); i++) {
    const p = person(USERS + i);
    launches.push({ at: random() * DAY_MIN, person: p, from: null, signals: launchSignalsOf(p, random() < 0.5) });
  }
  return { taps, launches };
}

interface Result {
  window: number;
  threshold: number;
  precision: number;
  recall: number;
  organicMatched: number;
}

function simulate(taps: Tap[], launches: Launch[], windowMin: number, threshold: number): Result {
  type Event = { at: number; tap: Tap; launch?: undefined } | { at: number; tap?: undefined; launch: Launch };
  const events: Event[] = [...taps.map((t) => ({ at: t.at, tap: t })), ...launches.map((l) => ({ at: l.at, launch: l }))].sort((a, b) => a.at - b.at);
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
  const keysOf = (t: Tap) => [`ip:${t.click.ip}`, `net:${t.click.ipPrefix}`, ...(t.click.resolution ? [`res:${t.click.resolution}`] : [])];
  let matches = 0;
  let right = 0;
  let organicMatched = 0;
  const fromTaps = launches.filter((l) => l.from).length;
  for (const e of events) {
    if (e.tap) {
      open.set(e.tap.token, e.tap);
      for (const key of keysOf(e.tap)) index(key, e.tap);
      continue;
    }
    const launch = e.launch;
    const s = launch.signals;
    const keys = [...s.ips.map((ip) => `ip:${ip}`), ...s.ipPrefixes.map((n) => `net:${n}`), ...(s.resolution ? [`res:${s.resolution}`] : [])];
    const found = new Set<Tap>();
    for (const key of keys) for (const t of byKey.get(key) ?? []) if (launch.at - t.at <= windowMin) found.add(t);
    // The SQL takes the 200 newest.
    const candidates = [...found].sort((a, b) => b.at - a.at).slice(0, 200);
    const choice = chooseMatch(rankCandidates({ ...s, launchedAt: launch.at * 60_000 }, candidates.map((t) => t.click)), threshold);
    if (!choice.matched) continue;
    const taken = open.get(choice.best.candidate.token)!;
    open.delete(taken.token);
    unindex(taken);
    matches++;
    if (launch.from === taken) right++;
    if (!launch.from) organicMatched++;
  }
  return { window: windowMin, threshold, precision: matches ? right / matches : 1, recall: fromTaps ? right / fromTaps : 0, organicMatched };
}

function main(): void {
  const started = Date.now();
  const { taps, launches } = population();
  const attributed = launches.filter((l) => l.from).length;
  const sameAddress = launches.filter((l) => l.from && l.signals.ips.includes(l.from.click.ip)).length;
  console.log(`deferred matching: ${USERS} taps in 16 h, ${attributed} installs from taps (${((sameAddress / attributed) * 100).toFixed(0)} % from the tap's address), ` +
    `${launches.length - attributed} organic installs, ${CARRIER_POOLS.length} carriers × ${CARRIER_POOLS[0]!.length} NAT addresses, threshold in use ${MATCH_THRESHOLD}\n`);
  const windows = [15, 60, 120, 24 * 60];
  const thresholds = [45, 55, 60, 65, 70, 75, 85];
  const label = (m: number) => (m < 60 ? `${m} min` : `${m / 60} h`);
  console.log(`${'window'.padEnd(8)} ${'threshold'.padStart(9)} ${'precision'.padStart(10)} ${'recall'.padStart(8)} ${'organic matched'.padStart(16)}`);
  for (const window of windows) {
    for (const threshold of thresholds) {
      const r = simulate(taps, launches, window, threshold);
      const mark = threshold === MATCH_THRESHOLD && window === 120 ? '  ← default (2 h tokens)' : '';
      console.log(
        `${label(window).padEnd(8)} ${String(threshold).padStart(9)} ${(r.precision * 100).toFixed(1).padStart(9)}% ${(r.recall * 100).toFixed(1).padStart(7)}% ${String(r.organicMatched).padStart(16)}${mark}`,
      );
    }
  }
  console.log(`\n${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main();
