// Deferred deep-link matching, the probabilistic part: how well a first launch of the app fits a
// click made before the install. Pure: the server feeds it candidates from PostgreSQL, the
// benchmark (bench/match.ts) feeds it synthetic users, the unit tests feed it edge cases.
//
// Score 0..100, the sum of what agrees (and minus what contradicts):
//   connection IP   same address +40, same network (/24, /48) +15
//   OS              same family +5; a different family can never match
//   OS version      consistent to major.minor +15, major only +8, same major other minor +3, other major -20
//   device model    same +15 (Android); a different model can never match
//   resolution      same screen (either orientation, CSS or device pixels) +15, different -25
//   language        same tag +5, same language +3, different -5
//   time zone       same +5, different -10
//   age of the click  more than 1 h before the launch -5, more than 6 h -10
// A launch matches the best candidate scoring at least MATCH_THRESHOLD; equal scores go to the
// newest click. Signals one side lacks count nothing either way.
import { majorOf, primaryLanguage, type OsFamily } from './device-signals.js';

/**
 * The lowest score that is a match. On bench:match's synthetic day (2 h window) 70 gives 97.9 %
 * precision at 58.2 % recall, where 61 % is the ceiling (the rest opened the app from another
 * network); 65 gives 94.7 % at 60.3 %. Without the same address nothing reaches it.
 */
export const MATCH_THRESHOLD = 70;

const WEIGHTS = {
  ipExact: 40,
  ipNetwork: 15,
  os: 5,
  osVersionFull: 15,
  osVersionMajor: 8,
  osVersionMinorDiffers: 3,
  osVersionMajorDiffers: -20,
  deviceModel: 15,
  resolution: 15,
  resolutionDiffers: -25,
  languageTag: 5,
  languagePrimary: 3,
  languageDiffers: -5,
  timeZone: 5,
  timeZoneDiffers: -10,
  olderThanAnHour: -5,
  olderThanSixHours: -10,
} as const;

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

export interface Scored {
  candidate: ClickSignals;
  score: number;
  disqualified: Disqualification | null;
}

function osVersionPoints(click: string | null, launch: string | null): number {
  if (!click || !launch) return 0;
  if (majorOf(click) !== majorOf(launch)) return WEIGHTS.osVersionMajorDiffers;
  const a = click.split('.');
  const b = launch.split('.');
  const shorter = Math.min(a.length, b.length);
  let common = 0;
  while (common < shorter && a[common] === b[common]) common++;
  if (common < shorter) return WEIGHTS.osVersionMinorDiffers;
  return shorter >= 2 ? WEIGHTS.osVersionFull : WEIGHTS.osVersionMajor;
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

export function scoreMatch(click: ClickSignals, launch: LaunchSignals): Scored {
  const result = (score: number, disqualified: Disqualification | null = null): Scored => ({
    candidate: click,
    score: disqualified ? 0 : Math.max(0, Math.min(100, score)),
    disqualified,
  });
  if (click.os && launch.os && click.os !== launch.os) return result(0, 'os_mismatch');
  if (click.deviceModel && launch.deviceModel && click.deviceModel.toLowerCase() !== launch.deviceModel.toLowerCase()) {
    return result(0, 'device_mismatch');
  }
  let score = 0;
  if (launch.ips.includes(click.ip)) score += WEIGHTS.ipExact;
  else if (launch.ipPrefixes.includes(click.ipPrefix)) score += WEIGHTS.ipNetwork;
  if (click.os && launch.os) score += WEIGHTS.os;
  score += osVersionPoints(click.osVersion, launch.osVersion);
  if (click.deviceModel && launch.deviceModel) score += WEIGHTS.deviceModel;
  if (click.resolution && launch.resolution) {
    score += sameScreen(click.resolution, click.pixelRatio, launch.resolution) ? WEIGHTS.resolution : WEIGHTS.resolutionDiffers;
  }
  if (click.language && launch.language) {
    if (click.language === launch.language) score += WEIGHTS.languageTag;
    else if (primaryLanguage(click.language) === primaryLanguage(launch.language)) score += WEIGHTS.languagePrimary;
    else score += WEIGHTS.languageDiffers;
  }
  if (click.timeZone && launch.timeZone) score += click.timeZone === launch.timeZone ? WEIGHTS.timeZone : WEIGHTS.timeZoneDiffers;
  const age = (launch.launchedAt ?? Date.now()) - click.createdAt;
  if (age > 6 * HOUR_MS) score += WEIGHTS.olderThanSixHours;
  else if (age > HOUR_MS) score += WEIGHTS.olderThanAnHour;
  return result(score);
}

/** Every candidate scored, best first; equal scores newest click first. */
export function rankCandidates(launch: LaunchSignals, candidates: readonly ClickSignals[]): Scored[] {
  return candidates
    .map((c) => scoreMatch(c, launch))
    .sort((x, y) => y.score - x.score || y.candidate.createdAt - x.candidate.createdAt);
}

export type MatchChoice =
  | { matched: true; best: Scored; /** Others above the threshold, best first: tried when the best is taken meanwhile. */ runnersUp: Scored[] }
  | { matched: false; reason: 'no_candidate' | 'below_threshold' | Disqualification; bestScore: number };

export function chooseMatch(ranked: readonly Scored[], threshold = MATCH_THRESHOLD): MatchChoice {
  const eligible = ranked.filter((s) => !s.disqualified && s.score >= threshold);
  if (eligible.length > 0) return { matched: true, best: eligible[0]!, runnersUp: eligible.slice(1) };
  if (ranked.length === 0) return { matched: false, reason: 'no_candidate', bestScore: 0 };
  const qualified = ranked.filter((s) => !s.disqualified);
  if (qualified.length === 0) return { matched: false, reason: ranked[0]!.disqualified!, bestScore: 0 };
  return { matched: false, reason: 'below_threshold', bestScore: qualified[0]!.score };
}
