// The deep-link landing page's sequence: post the fingerprint, leave an in-app
// browser when the visitor is in one, else try the app and, when the page is still in front after
// a moment (the app did not open), count the store visit with a beacon and go to the store, or to
// the web address when there is no store. With an iOS clipboard match the store waits for the
// visitor's tap on the store button, which copies the click's code first.
import type { LandingConfig } from './sdk-config.js';
import { beacon, request } from './http.js';

/** How long the page waits for the app to take over before it goes to the store. */
const APP_WAIT_MS = 2000;
/** The fingerprint must be recorded before the app asks for it; waiting longer than this delays the visitor. */
const FINGERPRINT_WAIT_MS = 1000;
/** Chromium answers getHighEntropyValues at once; a browser that dawdles is not waited for longer. */
const HINTS_WAIT_MS = 300;
/** How long the clipboard's confirmation stays in view before the store opens. */
const COPIED_VIEW_MS = 800;

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

/** A clipboard match is on: the store button copies the click's code, so only a tap leaves for the store. */
const copiesOnTap = (config: LandingConfig) => !!(config.clipboardToken && config.storeUrl);

function toStoreOrWeb(config: LandingConfig): void {
  if (leftForStore) return;
  if (copiesOnTap(config)) {
    // A copy needs the visitor's tap: point at the button instead of leaving on our own.
    status(byId('signpost-clipboard')?.dataset.tap);
    byId('signpost-store')?.focus();
    return;
  }
  leftForStore = true;
  if (config.storeUrl) {
    storeVisit(config);
    go(config.storeUrl);
  } else {
    location.replace(config.fallbackUrl);
  }
}

/**
 * Copies from the tap's handler. Without the Clipboard API (older in-app web views) a selected
 * field and execCommand copy at once, inside the tap; a refused writeText tries the same after.
 */
function copyText(text: string): Promise<boolean> {
  const byHand = () => {
    const field = document.createElement('input');
    field.value = text;
    field.readOnly = true;
    field.setAttribute('aria-hidden', 'true');
    // 12pt: iOS zooms into a focused field with smaller text.
    field.style.cssText = 'position:fixed;top:0;left:0;opacity:0;font-size:12pt';
    document.body.appendChild(field);
    field.select();
    field.setSelectionRange(0, text.length);
    let copied = false;
    try {
      copied = document.execCommand('copy');
    } catch {
      /* neither way is allowed here */
    }
    field.remove();
    return copied;
  };
  if (!navigator.clipboard?.writeText) return Promise.resolve(byHand());
  return navigator.clipboard.writeText(text).then(
    () => true,
    () => byHand(),
  );
}

/** The store button of a clipboard match: copy the code, say so, then go to the store as without it. */
function copyThenStore(config: LandingConfig, event: MouseEvent): void {
  event.preventDefault();
  if (leftForStore) return;
  leftForStore = true;
  const note = byId('signpost-clipboard');
  void copyText(config.clipboardToken!).then((copied) => {
    status(copied ? note?.dataset.copied : note?.dataset.failed);
    storeVisit(config);
    setTimeout(() => go(config.storeUrl!), COPIED_VIEW_MS);
  });
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
        go(
          `intent://${url.host}${url.pathname}${url.search}#Intent;scheme=https;action=android.intent.action.VIEW;end`,
        );
      }
      // iOS: nothing can open Safari from here; the page shows the "open in Safari" step.
      return true;
  }
}

function wireButtons(config: LandingConfig): void {
  const store = byId<HTMLAnchorElement>('signpost-store');
  if (copiesOnTap(config)) store?.addEventListener('click', (event) => copyThenStore(config, event));
  else store?.addEventListener('click', () => storeVisit(config));
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

/** Chromium's user-agent client hints (not in every browser, nor in TypeScript's DOM types). */
interface UserAgentData {
  getHighEntropyValues?: (hints: string[]) => Promise<{ model?: string; platformVersion?: string }>;
}

/**
 * The Android model and full OS version, which Chrome's reduced user agent (`Android 10; K`) no
 * longer says: deferred matching compares them with what the app reports at its first launch.
 */
async function androidHints(config: LandingConfig): Promise<{ deviceModel?: string; platformVersion?: string }> {
  const data = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  if (config.platform !== 'ANDROID' || !data?.getHighEntropyValues) return {};
  try {
    const values = await Promise.race([
      data.getHighEntropyValues(['model', 'platformVersion']),
      new Promise<undefined>((resolve) => setTimeout(resolve, HINTS_WAIT_MS)),
    ]);
    return { deviceModel: values?.model || undefined, platformVersion: values?.platformVersion || undefined };
  } catch {
    return {};
  }
}

export async function runLanding(config: LandingConfig): Promise<void> {
  const base = config.apiBase.replace(/\/+$/, '');
  wireButtons(config);
  const path = config.linkType === 'campaign' ? 'campaign-deep-link' : 'deeplink';
  const hints = await androidHints(config);
  const fingerprint = request('POST', `${base}/api/v1/sdk/web/${path}/update-fingerprint`, {
    ...hints,
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
