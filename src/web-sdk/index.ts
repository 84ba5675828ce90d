// The web SDK's entry: `window.Signpost`. Every public method catches everything and returns a
// Promise that resolves, so a failure of ours never becomes an error on the host page.
import {
  defaultApiBase,
  readLandingConfig,
  scriptAppId,
  trimBase,
  type InitOptions,
  type State,
} from './sdk-config.js';
import { runLanding } from './landing.js';
import * as tracking from './tracking.js';
import type { TrackOptions, TrackResult } from './tracking.js';
import { WEB_SDK_VERSION } from './version.js';

let state: State | null = null;

function init(options: InitOptions): void {
  const landing = readLandingConfig();
  state = {
    appId: String(options.appId),
    apiBase: trimBase(options.apiBase || landing?.apiBase || defaultApiBase()),
    goalType: options.goalType ?? null,
    landing,
  };
}

/** Runs a tracking call with the current state, turning every failure into a resolved result. */
function safely(call: (s: State) => Promise<TrackResult>): Promise<TrackResult> {
  try {
    if (!state) return Promise.resolve({ ok: false, error: 'call Signpost.init({ appId }) first' });
    return call(state).catch((e: unknown) => ({ ok: false, error: String(e) }));
  } catch (e) {
    return Promise.resolve({ ok: false, error: String(e) });
  }
}

export interface SignpostApi {
  version: string;
  init(options: InitOptions): SignpostApi;
  trackPurchase(amount: number | string, currency: string, options?: TrackOptions): Promise<TrackResult>;
  trackGoal(
    goalType: string | null,
    goalValue: number | string,
    currency?: string | null,
    options?: TrackOptions,
  ): Promise<TrackResult>;
  trackSignup(): Promise<TrackResult>;
  trackConversion(
    eventName: string,
    value: number | string,
    currency?: string | null,
    options?: TrackOptions,
  ): Promise<TrackResult>;
  trackEvent(eventType: string, eventData?: Record<string, unknown>): Promise<TrackResult>;
}

const Signpost: SignpostApi = {
  version: WEB_SDK_VERSION,
  init(options) {
    try {
      if (options && options.appId !== undefined && options.appId !== null && options.appId !== '') init(options);
      else console.warn('Signpost.init: appId is required');
    } catch {
      /* never into the host page */
    }
    return Signpost;
  },
  trackPurchase: (amount, currency, options) => safely((s) => tracking.trackPurchase(s, amount, currency, options)),
  trackGoal: (goalType, goalValue, currency, options) =>
    safely((s) => tracking.trackGoal(s, goalType, goalValue, currency, options)),
  trackSignup: () => safely((s) => tracking.trackGoal(s, 'signup', 1)),
  // The event name is the goal type; an empty one must not fall back to the link's.
  trackConversion: (eventName, value, currency, options) =>
    safely((s) =>
      eventName
        ? tracking.trackGoal(s, eventName, value, currency, options)
        : Promise.resolve({ ok: false, error: 'eventName is required' }),
    ),
  trackEvent: (eventType, eventData) => safely((s) => tracking.trackEvent(s, eventType, eventData)),
};

declare global {
  interface Window {
    Signpost: SignpostApi;
  }
}

try {
  window.Signpost = Signpost;
  const landing = readLandingConfig();
  const appId = scriptAppId() ?? (landing ? String(landing.appId) : null);
  if (appId) init({ appId, goalType: null });
  if (landing) {
    const start = () => void runLanding(landing).catch(() => {});
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
    else start();
  }
} catch {
  /* never into the host page */
}
