// The deep-link landing page's sequence: post the fingerprint, leave an in-app
// browser when the visitor is in one, else try the app and, when the page is still in front after
// a moment (the app did not open), count the store visit with a beacon and go to the store, or to
// the web address when there is no store.
import type { LandingConfig } from './config.js';
import { beacon, request } from './http.js';

/** How long the page waits for the app to take over before it goes to the store. */
const APP_WAIT_MS = 2000;
/** The fingerprint must be recorded before the app asks for it; waiting longer than this delays the visitor. */
const FINGERPRINT_WAIT_MS = 1000;

const go = (url: string) => {
  location.href = url;
};

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T | null;

function status(text: string | undefined): void {
  const el = byId('signpost-status');
  if (el && text) el.textContent = text;
}

/** The address that opens the app on this platform, if any. */
function appTarget(config: LandingConfig): string | null {
  return config.platform === 'IOS' ? config.universalLinkUrl || config.appUrl : config.intentUrl || config.appUrl;
}

const STORE_FRAGMENT = 'signpost-store';

/**
 * Chrome follows an intent's S.browser_fallback_url itself when the app is missing, and the page
 * would never learn of it (no store-visit beacon). Pointed at this very page with a fragment, the
 * fallback is a same-document navigation the page sees (hashchange) and answers with the beacon and
 * the store, as the timer would.
 */
function withFallbackToThisPage(intentUrl: string): string {
  if (!/;S\.browser_fallback_url=/.test(intentUrl)) return intentUrl;
  const here = `${location.href.split('#')[0]}#${STORE_FRAGMENT}`;
  return intentUrl.replace(/;S\.browser_fallback_url=[^;]*/, `;S.browser_fallback_url=${encodeURIComponent(here)}`);
}

function storeVisit(config: LandingConfig): void {
  beacon(`${config.apiBase.replace(/\/+$/, '')}/api/v1/sdk/web/deeplink/track-store-visit`, {
    token: config.token,
    isCampaign: config.linkType === 'campaign',
  });
}

let leftForStore = false;

function toStoreOrWeb(config: LandingConfig): void {
  if (leftForStore) return;
  leftForStore = true;
  if (config.storeUrl) {
    storeVisit(config);
    go(config.storeUrl);
  } else {
    location.replace(config.fallbackUrl);
  }
}

/** Leaves an in-app browser for the real one; true when the page should do nothing else. */
function escapeInAppBrowser(config: LandingConfig): boolean {
  const here = location.href;
  switch (config.inAppBrowser) {
    case null:
    case undefined:
      return false;
    case 'kakaotalk':
      go(`kakaotalk://web/openExternal?url=${encodeURIComponent(here)}`);
      return true;
    case 'line': {
      // LINE opens a page in the default browser when asked to by this parameter.
      const url = new URL(here);
      url.searchParams.set('openExternalBrowser', '1');
      go(url.toString());
      return true;
    }
    default:
      if (config.platform === 'ANDROID') {
        const url = new URL(here);
        go(`intent://${url.host}${url.pathname}${url.search}#Intent;scheme=https;action=android.intent.action.VIEW;end`);
      }
      // iOS: nothing can open Safari from here; the page shows the "open in Safari" step.
      return true;
  }
}

function wireButtons(config: LandingConfig): void {
  const store = byId<HTMLAnchorElement>('signpost-store');
  store?.addEventListener('click', () => storeVisit(config));
  const copy = byId<HTMLButtonElement>('signpost-copy');
  const field = byId<HTMLInputElement>('signpost-link');
  if (field && !field.value) field.value = location.href;
  copy?.addEventListener('click', () => {
    const url = field?.value || location.href;
    const done = () => status(copy.dataset.copied);
    const byHand = () => {
      field?.select();
      try {
        if (document.execCommand('copy')) done();
      } catch {
        /* the selected field lets the visitor copy it */
      }
    };
    if (navigator.clipboard) navigator.clipboard.writeText(url).then(done, byHand);
    else byHand();
  });
}

/** Android intent debugging data for the operator (the page's config turns it on). */
function postDebug(config: LandingConfig, base: string): void {
  const appUrl = config.appUrl ?? '';
  const intentUrl = config.intentUrl ?? '';
  const end = appUrl.indexOf('://');
  void request('POST', `${base}/api/v1/sdk/web/deeplink/debug-scheme`, {
    appUrl,
    schemeEnd: String(end),
    pathPart: end >= 0 ? appUrl.slice(end + 3) : '',
    androidPackage: /;package=([^;]+)/.exec(intentUrl)?.[1] ?? '',
    appScheme: end >= 0 ? appUrl.slice(0, end) : '',
    intentUrl,
  });
}

export async function runLanding(config: LandingConfig): Promise<void> {
  const base = config.apiBase.replace(/\/+$/, '');
  wireButtons(config);
  const path = config.linkType === 'campaign' ? 'campaign-deep-link' : 'deeplink';
  const fingerprint = request('POST', `${base}/api/v1/sdk/web/${path}/update-fingerprint`, {
    token: config.token,
    resolution: `${screen.width}x${screen.height}`,
    appId: config.appId,
    userAgent: navigator.userAgent,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    language: navigator.language,
    pixelRatio: devicePixelRatio,
  });
  if (config.debug && config.platform === 'ANDROID') postDebug(config, base);
  await Promise.race([fingerprint, new Promise((resolve) => setTimeout(resolve, FINGERPRINT_WAIT_MS))]);

  if (escapeInAppBrowser(config)) return;
  const target = appTarget(config);
  if (!target) return toStoreOrWeb(config);

  // The app took over when the page was hidden or unloaded. A dialog in front of the page (iOS's
  // "Open in app?" sheet, or its "address is invalid" alert when the app is missing) only blurs it:
  // then the decision waits until the page has the focus back and is still visible.
  let left = false;
  let blurred = false;
  const decide = () => {
    if (left || document.hidden) return;
    if (blurred) {
      addEventListener('focus', () => setTimeout(decide, 300), { once: true });
      return;
    }
    toStoreOrWeb(config);
  };
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) left = true;
  });
  addEventListener('pagehide', () => {
    left = true;
  });
  addEventListener('blur', () => {
    blurred = true;
  });
  addEventListener('focus', () => {
    blurred = false;
  });
  let attempt = target;
  if (config.platform === 'ANDROID' && config.storeUrl && target === config.intentUrl) {
    attempt = withFallbackToThisPage(target);
    addEventListener('hashchange', () => {
      if (location.hash === `#${STORE_FRAGMENT}`) toStoreOrWeb(config);
    });
  }
  status(byId('signpost-status')?.dataset.opening);
  go(attempt);
  setTimeout(decide, APP_WAIT_MS);
}
