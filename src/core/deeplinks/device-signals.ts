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

/** `17_4_0` → `17.4`: the same version however a client spells it. */
export function normalizeOsVersion(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const parts = raw.trim().replace(/_/g, '.').split('.').filter((p) => /^\d+$/.test(p)).map(Number);
  if (parts.length === 0) return null;
  while (parts.length > 1 && parts[parts.length - 1] === 0) parts.pop();
  return parts.slice(0, 3).join('.');
}

export const majorOf = (version: string | null): string | null => (version ? version.split('.')[0]! : null);

function androidModel(segment: string | undefined): string | null {
  if (!segment) return null;
  const model = segment.replace(/\s+Build\/.*$/i, '').replace(/\bwv\b/, '').trim();
  // Chrome's reduced user agent says `Android 10; K` for every phone: no model at all.
  if (!model || model === 'K' || /^[a-z]{2}[-_][a-z]{2}$/i.test(model) || /^(Linux|U|Mobile)$/i.test(model)) return null;
  return model.slice(0, 100);
}

export function agentSignals(userAgent: string | null | undefined): AgentSignals {
  if (!userAgent) return { os: null, osVersion: null, deviceModel: null };
  const ios = IOS_VERSION.exec(userAgent);
  if (ios) {
    let osVersion = normalizeOsVersion(ios[1]);
    // Safari 26 freezes the OS in its user agent at 18_6; its own version is the iOS major then.
    const safari = /\bVersion\/(\d+)/.exec(userAgent);
    if (osVersion === '18.6' && safari && Number(safari[1]) >= 26) osVersion = safari[1]!;
    return { os: 'IOS', osVersion, deviceModel: null };
  }
  if (/\b(iPhone|iPad|iPod)\b/.test(userAgent)) return { os: 'IOS', osVersion: null, deviceModel: null };
  const android = ANDROID.exec(userAgent);
  if (android) {
    // `Linux; U; Android 4.4; ko-kr; SHV-E300S Build/…`: the model follows the locale in old agents.
    const afterVersion = userAgent.slice(android.index).split(';').slice(1).map((s) => s.replace(/\).*$/, ''));
    const model = afterVersion.map((s) => androidModel(s)).find((m) => m !== null) ?? null;
    // Chrome's reduced user agent (`Android 10; K`) reports 10 whatever the phone runs.
    const reduced = model === null && afterVersion[0]?.trim() === 'K';
    return { os: 'ANDROID', osVersion: reduced ? null : normalizeOsVersion(android[1]), deviceModel: model };
  }
  return { os: null, osVersion: null, deviceModel: null };
}

/** The network an address belongs to: IPv4 /24, IPv6 /48 (`::ffff:` mapped addresses as IPv4). */
export function ipPrefix(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (ip.includes(':')) {
    const [head = ''] = ip.toLowerCase().split('::');
    const groups = head.split(':').filter(Boolean);
    while (groups.length < 3) groups.push('0');
    return `${groups.slice(0, 3).join(':')}::/48`;
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
