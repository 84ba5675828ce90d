// What the SDK knows about where it runs: the app, the API origin, the link that brought the
// visitor. The landing page's JSON config (src/api/redirect/landing-page.ts) is one source of it.
import type { LandingPageInput } from '../api/redirect/landing-page.js';

export type LandingConfig = LandingPageInput;

export interface InitOptions {
  appId: number | string;
  /** Origin of the Signpost service; defaults to the origin the SDK script was loaded from. */
  apiBase?: string;
  /** The goal type trackGoal(null, …) falls back to when the link carries none. */
  goalType?: string | null;
}

export interface State {
  appId: string;
  apiBase: string;
  goalType: string | null;
  /** The landing page's config, when the SDK runs on one. */
  landing: LandingConfig | null;
}

/** Read once at load: `document.currentScript` is only set while the script first runs. */
const script = document.currentScript as HTMLScriptElement | null;

export const scriptAppId = (): string | null => script?.dataset.appId || null;

export function defaultApiBase(): string {
  try {
    if (script?.src) return new URL(script.src).origin;
  } catch {
    /* a data: or blob: script has no usable origin */
  }
  return location.origin;
}

export function readLandingConfig(): LandingConfig | null {
  const el = document.getElementById('signpost-landing');
  if (!el?.textContent) return null;
  try {
    return JSON.parse(el.textContent) as LandingConfig;
  } catch {
    return null;
  }
}

export const trimBase = (base: string) => base.replace(/\/+$/, '');
