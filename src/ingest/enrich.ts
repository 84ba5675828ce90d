// Turns a raw click (user agent, IP, referrer as the edge saw them) into the dimensions statistics
// group by. Runs in the consumer, never on the redirect path.
import UAParser from 'ua-parser-js';
import { classifyAgent } from '../shared/user-agents.js';
import type { GeoLookup } from './geo.js';

export type DeviceType = 'Mobile' | 'Desktop' | 'Tablet';

export interface ClickDimensions {
  deviceType: DeviceType;
  os: string;
  osVersion: string;
  browser: string;
  country: string;
  /** ISO 3166-2 region and English city, with a GeoIP database that has them; '' otherwise. */
  region: string;
  city: string;
  referrerHost: string;
  isBot: boolean;
}

/** Parsing the same user agent thousands of times a second is wasted work: remember the last few. */
const MAX_CACHED_AGENTS = 5_000;

/** The device, OS, browser and bot flag of a user agent, the last few thousand remembered. */
export function createAgentParser() {
  const agents = new Map<string, Pick<ClickDimensions, 'deviceType' | 'os' | 'osVersion' | 'browser' | 'isBot'>>();

  return function parseAgent(userAgent: string) {
    const cached = agents.get(userAgent);
    if (cached) return cached;
    const r = new UAParser(userAgent).getResult();
    const deviceType: DeviceType =
      r.device.type === 'tablet'
        ? 'Tablet'
        : r.device.type === 'mobile' || r.device.type === 'wearable'
          ? 'Mobile'
          : 'Desktop';
    const parsed = {
      deviceType,
      os: r.os.name ?? 'Unknown',
      osVersion: r.os.version ?? '',
      browser: r.browser.name ?? 'Unknown',
      isBot: classifyAgent(userAgent) !== 'person',
    };
    if (agents.size >= MAX_CACHED_AGENTS) agents.delete(agents.keys().next().value as string);
    agents.set(userAgent, parsed);
    return parsed;
  };
}

export type AgentParser = ReturnType<typeof createAgentParser>;

/** The geo database as the enricher reads it: a country-only one may leave out `place`. */
type ClickGeo = Pick<GeoLookup, 'country'> & Partial<Pick<GeoLookup, 'place' | 'fields'>>;

export function createClickEnricher(geo: ClickGeo) {
  const parseAgent = createAgentParser();
  // A country-only database answers '' for every place: no second lookup per click then.
  const place = geo.place && geo.fields?.cities ? geo.place : undefined;

  return function enrich(click: { userAgent: string; ip: string; referrer: string }): ClickDimensions {
    // Listed field by field: a spread followed by more properties is slow on Node 20 (row-values.ts).
    const agent = parseAgent(click.userAgent);
    const where = click.ip && place ? place(click.ip) : undefined;
    return {
      deviceType: agent.deviceType,
      os: agent.os,
      osVersion: agent.osVersion,
      browser: agent.browser,
      isBot: agent.isBot,
      country: click.ip ? geo.country(click.ip) : '',
      region: where ? where.region : '',
      city: where ? where.city : '',
      referrerHost: referrerHost(click.referrer),
    };
  };
}

export type ClickEnricher = ReturnType<typeof createClickEnricher>;

/** `https://m.facebook.com/story?x` → `m.facebook.com`; no or unparsable referrer → '' (direct). Routing rules read it too. */
export function referrerHost(referrer: string | undefined): string {
  if (!referrer) return '';
  try {
    return new URL(referrer).hostname.toLowerCase();
  } catch {
    return '';
  }
}
