// Deferred deep-link matching, the probabilistic part: how well a first launch of the app fits a
// click made before the install. Pure: the server feeds it candidates from PostgreSQL, the
// benchmark (bench/match.ts) feeds it synthetic users, the unit tests feed it edge cases.
//
// Score 0..100: the sum of the points of each comparison outcome (WEIGHTS below), ten times the
// natural log of how much likelier that outcome is for the launch's own click than for someone
// else's among the candidates (learnt from bench:match --learn; docs/matching.md). The same
// address (or IPv6 /64) counts most, the Android model next; a contradiction (another screen,
// language, zone or OS minor) costs 40 whatever the simulation says, since real devices are less
// tidy than simulated ones; another OS family or model can never match. A launch matches the best
// candidate scoring at least MATCH_THRESHOLD; equal scores go to the newest click; a click alone
// at the launch's address or /64 is judged without its age (chooseMatch).
import { primaryLanguage, versionDistance, type OsFamily } from './device-signals.js';

/**
 * The lowest score that is a match. On bench:match's synthetic day (2 h window) 70 gives 99.5 %
 * precision at 74.4 % recall, where 75 % is the ceiling (the rest opened the app from another
 * network); 50 gives 98.0 % at 74.5 %, 90 gives 99.6 % at 72.5 %. Without the same address or
 * IPv6 /64 nothing reaches it, not even an Android phone whose model, version, language and zone
 * agree (53).
 */
export const MATCH_THRESHOLD = 70;

/**
 * Points per comparison outcome: what each outcome says about "this launch is that click", learnt
 * from the simulation (bench:match --learn, derivation in docs/matching.md). An outcome one side
 * cannot give (a signal it lacks) counts nothing.
 */
export const WEIGHTS = {
  ip: { same: 73, prefix64: 73, network: -18, other: -25 },
  os: { same: 1 },
  osVersion: { same: 17, patch: 9, minor: -40, major: -40 },
  deviceModel: { same: 47 },
  resolution: { same: 0, differs: -40 },
  language: { tag: 5, primary: 0, differs: -40 },
  timeZone: { same: 2, differs: -40 },
  age: { fresh: 6, hours: -32, old: -32 },
} as const;

type Weights = typeof WEIGHTS;
/** How each signal compared for one click and one launch; absent when a side lacks it. */
export type Comparison = { -readonly [K in keyof Weights]?: keyof Weights[K] };

/** What a click (its token) remembers. */
export interface ClickSignals {
  token: string;
  /** Unix ms. */
  createdAt: number;
  ip: string;
  ipPrefix: string;
  os: OsFamily | null;
  osVersion: string | null;
  deviceModel: string | null;
  /** Narrow side first (`390x844`), as the landing page posted it. */
  resolution: string | null;
  /** window.devicePixelRatio posted with it: the same screen in device pixels. */
  pixelRatio: number | null;
  timeZone: string | null;
  /** Lowercase tag: the page's navigator.language, else the click's Accept-Language. */
  language: string | null;
}

/** What the app sends on its first launch. */
export interface LaunchSignals {
  /** The address the app reports and the one its request came from. */
  ips: string[];
  ipPrefixes: string[];
  os: OsFamily | null;
  osVersion: string | null;
  deviceModel: string | null;
  resolution: string | null;
  timeZone: string | null;
  language: string | null;
  /** Unix ms of the launch; clicks long before it are less likely its cause. Now when absent. */
  launchedAt?: number;
}

export type Disqualification = 'os_mismatch' | 'device_mismatch';

/** A signal both sides carried and that agreed (the OS version to the patch, the language to its primary tag). */
export type MatchSignal =
  | 'ip'
  | 'ipNetwork'
  | 'os'
  | 'osVersion'
  | 'deviceModel'
  | 'resolution'
  | 'language'
  | 'timeZone';

export interface Scored {
  candidate: ClickSignals;
  score: number;
  disqualified: Disqualification | null;
  /** What agreed, in this order: address or network, OS, version, model, screen, language, zone. */
  signals: MatchSignal[];
  /** The click came from the launch's own address or IPv6 /64. */
  atAddress: boolean;
  /** The score without the points of the click's age. */
  ageless: number;
}

const HOUR_MS = 3_600_000;

const dimensions = (resolution: string) => resolution.split('x').map(Number) as [number, number];

/** Within 1.5 % (at least 2 px): CSS pixels times a fractional ratio (2.625) round either way. */
const close = (a: number, b: number) => Math.abs(a - b) <= Math.max(2, 0.015 * Math.max(a, b));

/**
 * Whether the app's screen is the click's: the page posts CSS pixels (and the pixel ratio), apps
 * report points (iOS) or device pixels; either fits.
 */
function sameScreen(click: string, pixelRatio: number | null, launch: string): boolean {
  const [lw, lh] = dimensions(launch);
  const [cw, ch] = dimensions(click);
  if (close(cw, lw) && close(ch, lh)) return true;
  return pixelRatio !== null && pixelRatio > 1 && close(cw * pixelRatio, lw) && close(ch * pixelRatio, lh);
}

/** How each signal of a click compares with a launch's, or what rules the click out (another OS or model). */
export function compareSignals(click: ClickSignals, launch: LaunchSignals): Comparison | Disqualification {
  if (click.os && launch.os && click.os !== launch.os) return 'os_mismatch';
  if (click.deviceModel && launch.deviceModel && click.deviceModel.toLowerCase() !== launch.deviceModel.toLowerCase())
    return 'device_mismatch';
  const c: Comparison = {};
  if (launch.ips.includes(click.ip)) c.ip = 'same';
  else if (launch.ipPrefixes.includes(click.ipPrefix)) c.ip = click.ipPrefix.endsWith('/64') ? 'prefix64' : 'network';
  else c.ip = 'other';
  if (click.os && launch.os) c.os = 'same';
  if (click.osVersion && launch.osVersion) c.osVersion = versionDistance(click.osVersion, launch.osVersion);
  if (click.deviceModel && launch.deviceModel) c.deviceModel = 'same';
  if (click.resolution && launch.resolution)
    c.resolution = sameScreen(click.resolution, click.pixelRatio, launch.resolution) ? 'same' : 'differs';
  if (click.language && launch.language) {
    c.language =
      click.language === launch.language
        ? 'tag'
        : primaryLanguage(click.language) === primaryLanguage(launch.language)
          ? 'primary'
          : 'differs';
  }
  if (click.timeZone && launch.timeZone) c.timeZone = click.timeZone === launch.timeZone ? 'same' : 'differs';
  const age = (launch.launchedAt ?? Date.now()) - click.createdAt;
  c.age = age > 6 * HOUR_MS ? 'old' : age > HOUR_MS ? 'hours' : 'fresh';
  return c;
}

/** The signal a comparison's agreement is reported as. */
const AGREEING: Record<Exclude<keyof Weights, 'age'>, (outcome: string) => MatchSignal | null> = {
  ip: (o) => (o === 'same' ? 'ip' : o === 'prefix64' || o === 'network' ? 'ipNetwork' : null),
  os: () => 'os',
  osVersion: (o) => (o === 'same' || o === 'patch' ? 'osVersion' : null),
  deviceModel: () => 'deviceModel',
  resolution: (o) => (o === 'same' ? 'resolution' : null),
  language: (o) => (o === 'differs' ? null : 'language'),
  timeZone: (o) => (o === 'same' ? 'timeZone' : null),
};

export function scoreMatch(click: ClickSignals, launch: LaunchSignals): Scored {
  const compared = compareSignals(click, launch);
  if (typeof compared === 'string')
    return { candidate: click, score: 0, disqualified: compared, signals: [], atAddress: false, ageless: 0 };
  let score = 0;
  const signals: MatchSignal[] = [];
  for (const [signal, outcome] of Object.entries(compared) as [keyof Weights, string][]) {
    score += (WEIGHTS[signal] as Record<string, number>)[outcome]!;
    const agreeing = signal === 'age' ? null : AGREEING[signal](outcome);
    if (agreeing) signals.push(agreeing);
  }
  const atAddress = compared.ip === 'same' || compared.ip === 'prefix64';
  const clamp = (n: number) => Math.max(0, Math.min(100, n));
  const ageless = clamp(score - (compared.age ? WEIGHTS.age[compared.age] : 0));
  return { candidate: click, score: clamp(score), disqualified: null, signals, atAddress, ageless };
}

/** Every candidate scored, best first; equal scores newest click first. */
export function rankCandidates(launch: LaunchSignals, candidates: readonly ClickSignals[]): Scored[] {
  return candidates
    .map((c) => scoreMatch(c, launch))
    .sort((x, y) => y.score - x.score || y.candidate.createdAt - x.candidate.createdAt);
}

export type MatchChoice =
  | {
      matched: true;
      best: Scored /** Others above the threshold, best first: tried when the best is taken meanwhile. */;
      runnersUp: Scored[];
    }
  | { matched: false; reason: 'no_candidate' | 'below_threshold' | Disqualification; bestScore: number };

/**
 * The best candidate at or above the threshold. Else uniqueness as a signal: the one click from the
 * launch's own address or IPv6 /64 (of this OS and model; clicks ruled out do not count) is judged
 * without its age. The age's points weigh a late click against fresher ones from the same place;
 * with none there to compete, an hour or more between the tap and the launch (a long download, a
 * store sign-in) is no reason to refuse it. A contradiction (another screen, language, zone or OS
 * release) still keeps it under the threshold.
 */
export function chooseMatch(ranked: readonly Scored[], threshold = MATCH_THRESHOLD): MatchChoice {
  const eligible = ranked.filter((s) => !s.disqualified && s.score >= threshold);
  if (eligible.length > 0) return { matched: true, best: eligible[0]!, runnersUp: eligible.slice(1) };
  const atAddress = ranked.filter((s) => !s.disqualified && s.atAddress);
  if (atAddress.length === 1 && atAddress[0]!.ageless >= threshold)
    return { matched: true, best: atAddress[0]!, runnersUp: [] };
  if (ranked.length === 0) return { matched: false, reason: 'no_candidate', bestScore: 0 };
  const qualified = ranked.filter((s) => !s.disqualified);
  if (qualified.length === 0) return { matched: false, reason: ranked[0]!.disqualified!, bestScore: 0 };
  return { matched: false, reason: 'below_threshold', bestScore: qualified[0]!.score };
}
