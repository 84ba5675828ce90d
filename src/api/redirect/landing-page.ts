// The deep-link landing page: what a phone gets for a link with an app for its platform. The
// server decides every address (app, intent, store, fallback); the page carries them as JSON and
// the web SDK (src/web-sdk) runs the sequence: fingerprint, app attempt, store or fallback.
import { escapeHtml } from './pages.js';

export type InAppBrowser = 'kakaotalk' | 'line' | 'naver' | 'instagram' | 'facebook' | 'tiktok';

export interface LandingPageInput {
  token: string;
  platform: 'IOS' | 'ANDROID';
  linkType: 'url' | 'campaign';
  appId: number;
  appName: string;
  appIconUrl: string | null;
  /** The link's title (or share title), shown under the app name. */
  title: string | null;
  /** `{scheme}{deepLinkPath}` with `signpost_token` added; null when the app has no scheme. */
  appUrl: string | null;
  /** Android only: `intent://…#Intent;scheme=…;package=…;S.browser_fallback_url=…;end`. */
  intentUrl: string | null;
  /** iOS universal link on an associated domain, when there is one. */
  universalLinkUrl: string | null;
  /** The store page; Android's carries `referrer=signpost_token%3DTOKEN`. */
  storeUrl: string | null;
  /** mobileTargetUrl, else originalUrl: where the visitor goes when there is no store to go to. */
  fallbackUrl: string;
  /** The in-app browser the visitor is in, when it is one the page escapes from. */
  inAppBrowser: InAppBrowser | null;
  goalType: string | null;
  /** Origin the SDK calls (PUBLIC_BASE_URL). */
  apiBase: string;
  /** Where the page loads the web SDK from. */
  sdkUrl: string;
}

/** JSON inside a <script> element: `<` escaped so no string can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export function landingPage(input: LandingPageInput): string {
  const name = escapeHtml(input.appName);
  const icon = input.appIconUrl ? `<img src="${escapeHtml(input.appIconUrl)}" alt="" width="72" height="72">` : '';
  return `<!doctype html><html lang="ko"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">` +
    `<meta name="signpost:deeplink-token" content="${escapeHtml(input.token)}">` +
    `<title>${name}</title></head><body><main>${icon}<h1>${name}</h1>` +
    (input.title ? `<p>${escapeHtml(input.title)}</p>` : '') +
    `<p><a id="signpost-continue" href="${escapeHtml(input.fallbackUrl)}">Continue</a></p></main>` +
    `<script type="application/json" id="signpost-landing">${scriptJson(input)}</script>` +
    `<script src="${escapeHtml(input.sdkUrl)}" defer></script></body></html>`;
}
