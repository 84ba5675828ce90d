// The deep-link landing page: what a phone gets for a link with an app for its platform. The
// server decides every address (app, intent, store, fallback); the page carries them as JSON and
// the web SDK (src/web-sdk) runs the sequence: fingerprint, app attempt, store or fallback.
// Small and self-contained: inline CSS, no framework, every button a real link that works without
// JavaScript; in the visitor's language (Korean, English or Japanese), else the link owner's.
import type { DeepLinkLanding } from '../../core/deeplinks/landing.service.js';
import { escapeHtml } from '../../shared/html.js';
import type { PageLanguage } from '../../shared/language.js';

/** The page's data: the core's landing for the click, where the page calls and loads the SDK from, and how it reads. */
export interface LandingPageInput extends DeepLinkLanding {
  /** Origin the SDK calls (PUBLIC_BASE_URL). */
  apiBase: string;
  /** Where the page loads the web SDK from. */
  sdkUrl: string;
  /** Language of the page's text (the visitor's, else the link owner's); Korean when absent. */
  locale?: PageLanguage;
  /** Android: the SDK posts its intent details to debug-scheme (the operator's debugging switch). */
  debug?: boolean;
  /** The address of this page (the short link), offered for copying in the "open in Safari" step. */
  pageUrl?: string;
}

const TEXT = {
  ko: {
    open: '앱에서 열기',
    store: '앱 설치하기',
    web: '웹에서 계속하기',
    opening: '앱을 여는 중…',
    safariTitle: 'Safari에서 열어 주세요',
    safariWhy: '이 앱 안의 브라우저에서는 앱을 바로 열 수 없어요.',
    safariStep1: '화면의 ••• 또는 공유 메뉴를 누르세요.',
    safariStep2: '‘Safari에서 열기’(또는 ‘외부 브라우저로 열기’)를 고르세요.',
    safariCopy: '또는 링크를 복사해 Safari 주소창에 붙여 넣으세요.',
    copy: '링크 복사',
    copied: '링크를 복사했어요. Safari에 붙여 넣으세요.',
    linkLabel: '이 페이지의 링크',
    clipNote:
      '‘앱 설치하기’를 누르면 짧은 코드가 클립보드에 복사돼요. 설치한 앱이 처음 열릴 때 이 코드로 이 링크를 이어서 열어요.',
    clipCopied: '코드를 복사했어요. App Store로 이동합니다…',
    clipFailed: '코드를 복사하지 못했어요. App Store로 이동합니다…',
    clipTap: '‘앱 설치하기’를 눌러 계속하세요.',
  },
  en: {
    open: 'Open in app',
    store: 'Get the app',
    web: 'Continue on the web',
    opening: 'Opening the app…',
    safariTitle: 'Open this page in Safari',
    safariWhy: 'The app can’t be opened from this in-app browser.',
    safariStep1: 'Tap the ••• or share menu on the screen.',
    safariStep2: 'Choose “Open in Safari” (or “Open in external browser”).',
    safariCopy: 'Or copy the link and paste it into Safari’s address bar.',
    copy: 'Copy link',
    copied: 'Link copied. Paste it into Safari.',
    linkLabel: 'Link to this page',
    clipNote:
      '“Get the app” copies a short code to your clipboard. When the app first opens, it uses the code to continue to this link.',
    clipCopied: 'Code copied. Going to the App Store…',
    clipFailed: 'The code could not be copied. Going to the App Store…',
    clipTap: 'Tap “Get the app” to continue.',
  },
  ja: {
    open: 'アプリで開く',
    store: 'アプリをインストール',
    web: 'ウェブで続ける',
    opening: 'アプリを開いています…',
    safariTitle: 'Safariで開いてください',
    safariWhy: 'このアプリ内ブラウザからはアプリを直接開けません。',
    safariStep1: '画面の ••• または共有メニューをタップしてください。',
    safariStep2: '「Safariで開く」（または「外部ブラウザで開く」）を選んでください。',
    safariCopy: 'または、リンクをコピーしてSafariのアドレスバーに貼り付けてください。',
    copy: 'リンクをコピー',
    copied: 'リンクをコピーしました。Safariに貼り付けてください。',
    linkLabel: 'このページのリンク',
    clipNote:
      '「アプリをインストール」を押すと、短いコードがクリップボードにコピーされます。アプリを初めて開いたときに、このコードでこのリンクの続きを開きます。',
    clipCopied: 'コードをコピーしました。App Storeに移動します…',
    clipFailed: 'コードをコピーできませんでした。App Storeに移動します…',
    clipTap: '「アプリをインストール」をタップして続けてください。',
  },
} as const satisfies Record<PageLanguage, unknown>;

// Colours keep a contrast of at least 4.5:1 (WCAG AA): #fff on #1a56db is 6.0:1, #4b5563 on #fff 7.6:1.
const STYLE =
  '*{box-sizing:border-box}html{-webkit-text-size-adjust:100%}' +
  'body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:24px 16px;' +
  'font:16px/1.5 -apple-system,BlinkMacSystemFont,"Apple SD Gothic Neo","Noto Sans KR","Malgun Gothic",system-ui,sans-serif;' +
  'color:#111827;background:#f3f4f6;word-break:keep-all;overflow-wrap:anywhere}' +
  'main{width:100%;max-width:24rem;background:#fff;border-radius:16px;padding:32px 24px;text-align:center;box-shadow:0 1px 3px rgba(0,0,0,.12)}' +
  '.icon{width:72px;height:72px;border-radius:16px;display:block;margin:0 auto 16px;background:#e5e7eb}' +
  'h1{font-size:1.375rem;margin:0 0 4px}h2{font-size:1.125rem;margin:0 0 8px}p{margin:0 0 16px;color:#4b5563}' +
  '.btn{display:block;width:100%;min-height:48px;padding:12px 16px;margin:0 0 12px;border-radius:12px;border:0;' +
  'font:inherit;font-weight:600;text-decoration:none;cursor:pointer}' +
  '.primary{background:#1a56db;color:#fff}.secondary{background:#e5e7eb;color:#111827}' +
  '.btn:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}' +
  '.web{display:inline-block;padding:8px;color:#1a56db}' +
  '.safari{text-align:left;border:2px solid #1a56db;border-radius:12px;padding:16px;margin:0 0 16px}' +
  '.safari ol{margin:0 0 12px;padding-left:1.25rem}.safari li{margin-bottom:4px}' +
  '.safari input{width:100%;padding:10px;margin:0 0 12px;border:1px solid #6b7280;border-radius:8px;font:inherit;font-size:.875rem;color:#111827}' +
  '.status{min-height:1.5em;font-size:.875rem;margin:8px 0 0}.note{font-size:.875rem;margin:-4px 0 12px}.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}' +
  '@media (prefers-color-scheme:dark){body{background:#111827;color:#f9fafb}main{background:#1f2937}p{color:#d1d5db}' +
  '.secondary{background:#374151;color:#f9fafb}.web{color:#93c5fd}.safari input{background:#111827;color:#f9fafb}}';

/** JSON inside a <script> element: `<` escaped so no string can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The address that opens the app on this platform (same rule as the SDK's). */
const appTarget = (input: LandingPageInput) =>
  input.platform === 'IOS' ? input.universalLinkUrl || input.appUrl : input.intentUrl || input.appUrl;

/** iOS in-app browsers other than KakaoTalk's and LINE's cannot hand a page to Safari by themselves. */
const needsSafariStep = (input: LandingPageInput) =>
  input.platform === 'IOS' &&
  input.inAppBrowser !== null &&
  input.inAppBrowser !== 'kakaotalk' &&
  input.inAppBrowser !== 'line';

/** The page; `nonce` (its Content-Security-Policy's) goes on its <style> and the SDK's <script>. */
export function landingPage(input: LandingPageInput, nonce?: string): string {
  const n = nonce === undefined ? '' : ` nonce="${escapeHtml(nonce)}"`;
  const lang = input.locale ?? 'ko';
  const t = TEXT[lang];
  const name = escapeHtml(input.appName);
  const target = appTarget(input);
  const safari = needsSafariStep(input);
  const icon = input.appIconUrl
    ? `<img class="icon" src="${escapeHtml(input.appIconUrl)}" alt="" width="72" height="72" referrerpolicy="no-referrer">`
    : '';
  const link = (id: string, cls: string, href: string, text: string, attributes = '') =>
    `<a id="${id}" class="${cls}" href="${escapeHtml(href)}"${attributes}>${escapeHtml(text)}</a>`;

  const actions: string[] = [];
  if (safari) {
    actions.push(
      `<section class="safari" aria-labelledby="signpost-safari-title"><h2 id="signpost-safari-title">${t.safariTitle}</h2>` +
        `<p>${t.safariWhy}</p><ol><li>${t.safariStep1}</li><li>${t.safariStep2}</li></ol><p>${t.safariCopy}</p>` +
        `<label for="signpost-link" class="sr">${t.linkLabel}</label>` +
        `<input id="signpost-link" type="url" readonly value="${escapeHtml(input.pageUrl ?? '')}">` +
        `<button id="signpost-copy" class="btn primary" type="button" data-copied="${t.copied}">${t.copy}</button></section>`,
    );
  }
  if (target) actions.push(link('signpost-open', `btn ${safari ? 'secondary' : 'primary'}`, target, t.open));
  if (input.storeUrl) {
    // The clipboard match: the SDK copies the code when this link is tapped (a copy needs the tap),
    // and the note says so before anyone taps. Without JavaScript the link goes to the store alone.
    const clip = !!input.clipboardToken;
    const cls = `btn ${target || safari ? 'secondary' : 'primary'}`;
    actions.push(
      link('signpost-store', cls, input.storeUrl, t.store, clip ? ' aria-describedby="signpost-clipboard"' : ''),
    );
    if (clip) {
      actions.push(
        `<p id="signpost-clipboard" class="note" data-copied="${t.clipCopied}" data-failed="${t.clipFailed}" data-tap="${t.clipTap}">${t.clipNote}</p>`,
      );
    }
  }
  actions.push(link('signpost-continue', 'web', input.fallbackUrl, t.web));

  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cover">` +
    `<meta name="robots" content="noindex"><meta name="format-detection" content="telephone=no">` +
    `<meta name="signpost:deeplink-token" content="${escapeHtml(input.token)}">` +
    `<title>${name}</title><style${n}>${STYLE}</style></head>` +
    `<body><main>${icon}<h1>${name}</h1>` +
    (input.title ? `<p>${escapeHtml(input.title)}</p>` : '') +
    actions.join('') +
    `<p id="signpost-status" class="status" role="status" aria-live="polite" data-opening="${t.opening}"></p></main>` +
    `<script type="application/json" id="signpost-landing">${scriptJson(input)}</script>` +
    `<script src="${escapeHtml(input.sdkUrl)}"${n} defer></script></body></html>`
  );
}
