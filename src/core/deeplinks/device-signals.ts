// The device signals deferred matching compares, taken from what a click and a first launch
// carry: OS and version and the device model from a user agent, the network of an IP address,
// a normalised screen resolution and language. Pure and cheap; no user-agent library needed for
// the three facts we use.

export type OsFamily = 'IOS' | 'ANDROID';

export interface AgentSignals {
  os: OsFamily | null;
  /** Dotted, without trailing `.0` parts: `17.4`, `14`. */
  osVersion: string | null;
  /** Android's model (`Pixel 8`, `SM-S918N`); null on iOS and on reduced user agents (`K`). */
  deviceModel: string | null;
}

const IOS_VERSION = /\b(?:iPhone|iPad|iPod)\b.*?\bOS (\d+(?:[._]\d+){0,2})\b/;
const ANDROID = /\bAndroid(?: (\d+(?:\.\d+){0,2}))?(?:;([^;)]*))?/;

/** `17_4_0` → `17.4`, `17.0.0` → `17`: the same version however a client spells it. */
export function normalizeOsVersion(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const parts = raw
    .trim()
    .replace(/_/g, '.')
    .split('.')
    .filter((p) => /^\d+$/.test(p))
    .map(Number);
  if (parts.length === 0) return null;
  while (parts.length > 1 && parts[parts.length - 1] === 0) parts.pop();
  return parts.slice(0, 3).join('.');
}

const majorOf = (version: string | null): string | null => (version ? version.split('.')[0]! : null);

/**
 * How far apart two normalised versions are: the missing parts of a version are zeros, so `17`,
 * `17.0` and `17.0.0` are the same release (iOS reports x.0 as `17.0`, a user agent as `17_0`).
 */
export function versionDistance(a: string, b: string): 'same' | 'patch' | 'minor' | 'major' {
  const parts = (v: string) => [...v.split('.').map(Number), 0, 0].slice(0, 3) as [number, number, number];
  const [x, y] = [parts(a), parts(b)];
  if (x[0] !== y[0]) return 'major';
  if (x[1] !== y[1]) return 'minor';
  return x[2] === y[2] ? 'same' : 'patch';
}

function androidModel(segment: string | undefined): string | null {
  if (!segment) return null;
  const model = segment
    .replace(/\s+Build\/.*$/i, '')
    .replace(/\bwv\b/, '')
    .trim();
  // Chrome's reduced user agent says `Android 10; K` for every phone: no model at all.
  if (!model || model === 'K' || /^[a-z]{2}[-_][a-z]{2}$/i.test(model) || /^(Linux|U|Mobile)$/i.test(model))
    return null;
  return model.slice(0, 100);
}

export function agentSignals(userAgent: string | null | undefined): AgentSignals {
  if (!userAgent) return { os: null, osVersion: null, deviceModel: null };
  const ios = IOS_VERSION.exec(userAgent);
  if (ios) {
    let osVersion = normalizeOsVersion(ios[1]);
    // Safari 26 freezes the OS in its user agent at 18_6 (18_7 from iOS 26.2); its own version
    // follows the iOS release (Version/26.1 on iOS 26.1), so it stands in for the OS then.
    const safari = /\bVersion\/(\d+(?:\.\d+){0,2})/.exec(userAgent);
    if (majorOf(osVersion) === '18' && safari && Number(majorOf(safari[1]!)) >= 26)
      osVersion = normalizeOsVersion(safari[1]);
    return { os: 'IOS', osVersion, deviceModel: null };
  }
  if (/\b(iPhone|iPad|iPod)\b/.test(userAgent)) return { os: 'IOS', osVersion: null, deviceModel: null };
  const android = ANDROID.exec(userAgent);
  if (android) {
    // `Linux; U; Android 4.4; ko-kr; SHV-E300S Build/…`: the model follows the locale in old agents.
    const afterVersion = userAgent
      .slice(android.index)
      .split(';')
      .slice(1)
      .map((s) => s.replace(/\).*$/, ''));
    const model = afterVersion.map((s) => androidModel(s)).find((m) => m !== null) ?? null;
    // Chrome's reduced user agent (`Android 10; K`) reports 10 whatever the phone runs.
    const reduced = model === null && afterVersion[0]?.trim() === 'K';
    return { os: 'ANDROID', osVersion: reduced ? null : normalizeOsVersion(android[1]), deviceModel: model };
  }
  return { os: null, osVersion: null, deviceModel: null };
}

/**
 * What Chromium's user-agent client hints say of an Android phone: the model and the full OS
 * version that its reduced user agent (`Android 10; K`) no longer carries. From the request headers
 * (`Sec-CH-UA-Model`, `Sec-CH-UA-Platform-Version`, sent once the origin asked for them with
 * Accept-CH) or from the page (`navigator.userAgentData.getHighEntropyValues`).
 */
export interface ClientHints {
  model?: string | string[] | null | undefined;
  platformVersion?: string | string[] | null | undefined;
}

/** The hints a response asks Chromium for: the browser sends them on its next requests to the origin. */
export const ASKED_CLIENT_HINTS = 'Sec-CH-UA-Model, Sec-CH-UA-Platform-Version';

/** A client hint header is a structured-field string (`"SM-S928N"`); the page's value is bare. Empty is none. */
export function clientHintValue(raw: string | string[] | null | undefined): string | null {
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return null;
  const bare = /^"(.*)"$/.exec(value)?.[1]?.replace(/\\(["\\])/g, '$1') ?? value;
  return bare.trim().slice(0, 100) || null;
}

/**
 * The agent's facts completed by client hints, on Android only (iOS browsers send none): a hint
 * fills what the user agent did not say and never overrides what it did.
 */
export function withClientHints(agent: AgentSignals, hints: ClientHints): AgentSignals {
  if (agent.os !== 'ANDROID') return agent;
  const model = androidModel(clientHintValue(hints.model) ?? undefined);
  return {
    os: agent.os,
    osVersion: agent.osVersion ?? normalizeOsVersion(clientHintValue(hints.platformVersion)),
    deviceModel: agent.deviceModel ?? model,
  };
}

/**
 * The network an address belongs to: IPv4 /24, IPv6 /64 (`::ffff:` mapped addresses as IPv4). A
 * /64 is one household or one phone's mobile connection; its phones rotate their addresses in it.
 */
export function ipPrefix(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (ip.includes(':')) {
    const [head = ''] = ip.toLowerCase().split('::');
    const groups = head.split(':').filter(Boolean);
    while (groups.length < 4) groups.push('0');
    return `${groups.slice(0, 4).join(':')}::/64`;
  }
  return ip;
}

/** `1170x2532` and `2532x1170` are the same screen turned: stored portrait, narrow side first. */
export function normalizeResolution(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const m = /^\s*(\d{2,5})\s*[xX×*,]\s*(\d{2,5})\s*$/.exec(raw);
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return `${Math.min(a, b)}x${Math.max(a, b)}`;
}

/** The first tag of an Accept-Language list or a language setting, lowercase: `ko-kr`. */
export function normalizeLanguage(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const first = raw.split(',')[0]!.split(';')[0]!.trim().replace(/_/g, '-').toLowerCase();
  return /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/.test(first) ? first.slice(0, 35) : null;
}

export const primaryLanguage = (tag: string | null): string | null => (tag ? tag.split('-')[0]! : null);
