// The HTML the redirect answers with when it does not simply redirect: not found (404), expired
// (410), the ad interstitial, the share preview for link unfurlers, and a temporary failure (503).
// Small, self-contained, readable on a phone; every interpolated value is escaped. Each page's
// inline <style> and <script> carry the nonce of its Content-Security-Policy (security-headers.ts).
// The visitor's language (Korean, English or Japanese), its `lang` attribute set to match.

import { escapeHtml } from '../../shared/html.js';
import type { PageLanguage } from '../../shared/language.js';

const TEXT = {
  ko: {
    notFoundTitle: '링크를 찾을 수 없습니다',
    notFound: '이 링크는 없거나 삭제되었습니다.',
    expiredTitle: '만료된 링크입니다',
    expired: '링크 소유자가 정한 사용 기한이 지났습니다.',
    unavailableTitle: '잠시 후 다시 시도해 주세요',
    unavailable: '지금은 이 링크를 확인할 수 없습니다.',
    redirecting: '이동하는 중입니다',
    continue: '계속하기',
    continuingIn: (seconds: string) => `${seconds}초 후 이동합니다…`,
    advertisement: '광고',
    open: '열기',
    limitTitle: '더 이상 열 수 없는 링크입니다',
    limit: '링크 소유자가 정한 클릭 수에 도달했습니다.',
    protectedTitle: '비밀번호로 보호된 링크입니다',
    protectedLine: '계속하려면 링크 소유자에게 받은 비밀번호를 입력하세요.',
    password: '비밀번호',
    wrongPassword: '비밀번호가 맞지 않습니다. 다시 입력해 주세요.',
    tooManyAttempts: '잘못된 시도가 너무 많습니다. 잠시 후 다시 시도해 주세요.',
    unlock: '열기',
  },
  en: {
    notFoundTitle: 'Link not found',
    notFound: 'This link does not exist or has been removed.',
    expiredTitle: 'This link has expired',
    expired: 'The owner set it to stop working after a date that has passed.',
    unavailableTitle: 'Try again in a moment',
    unavailable: 'We could not look this link up just now.',
    redirecting: 'You are being redirected',
    continue: 'Continue',
    continuingIn: (seconds: string) => `Continuing in ${seconds} s…`,
    advertisement: 'advertisement',
    open: 'Open',
    limitTitle: 'This link is no longer available',
    limit: 'It has reached the number of clicks its owner allowed.',
    protectedTitle: 'This link is password protected',
    protectedLine: 'Enter the password you were given to continue.',
    password: 'Password',
    wrongPassword: 'That password is not right. Please try again.',
    tooManyAttempts: 'Too many wrong attempts. Please try again later.',
    unlock: 'Continue',
  },
  ja: {
    notFoundTitle: 'リンクが見つかりません',
    notFound: 'このリンクは存在しないか、削除されました。',
    expiredTitle: 'このリンクは有効期限が切れています',
    expired: 'リンクの所有者が設定した有効期限を過ぎています。',
    unavailableTitle: 'しばらくしてからもう一度お試しください',
    unavailable: '現在、このリンクを確認できません。',
    redirecting: 'まもなく移動します',
    continue: '続ける',
    continuingIn: (seconds: string) => `あと${seconds}秒で移動します…`,
    advertisement: '広告',
    open: '開く',
    limitTitle: 'このリンクは利用できなくなりました',
    limit: 'リンクの所有者が設定したクリック数に達しました。',
    protectedTitle: 'このリンクはパスワードで保護されています',
    protectedLine: '続けるには、受け取ったパスワードを入力してください。',
    password: 'パスワード',
    wrongPassword: 'パスワードが正しくありません。もう一度入力してください。',
    tooManyAttempts: '誤った試行が多すぎます。しばらくしてからもう一度お試しください。',
    unlock: '続ける',
  },
} as const satisfies Record<PageLanguage, unknown>;

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR",sans-serif;
  color:#1f2328;background:#f6f8fa;display:flex;min-height:100vh;align-items:center;justify-content:center;padding:24px}
  main{max-width:28rem;width:100%;background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:28px;text-align:center}
  h1{font-size:1.25rem;margin:0 0 8px}p{margin:0 0 16px;color:#57606a}
  form{display:flex;flex-direction:column;gap:12px;text-align:left}label{font-weight:600}
  input{font:inherit;padding:10px 12px;border:1px solid #8c959f;border-radius:8px}
  button,a.button{font:inherit;border:0;cursor:pointer}.error{color:#cf222e;margin:0}
  button,a.button{display:inline-block;padding:12px 20px;border-radius:8px;background:#0969da;color:#fff;text-decoration:none;font-weight:600}
  .slot{margin:16px 0;min-height:60px}.muted{font-size:.875rem;color:#6e7781}`;

function page(nonce: string, language: PageLanguage, title: string, body: string, head = ''): string {
  return (
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>${head}<style nonce="${nonce}">${STYLE}</style></head>` +
    `<body><main>${body}</main></body></html>`
  );
}

/** A page of a heading and one line, in the visitor's language. */
function notice(nonce: string, language: PageLanguage, title: string, line: string): string {
  return page(nonce, language, title, `<h1>${title}</h1><p>${line}</p>`);
}

export function notFoundPage(nonce: string, language: PageLanguage): string {
  const t = TEXT[language];
  return notice(nonce, language, t.notFoundTitle, t.notFound);
}

export function expiredPage(nonce: string, language: PageLanguage): string {
  const t = TEXT[language];
  return notice(nonce, language, t.expiredTitle, t.expired);
}

export function limitReachedPage(nonce: string, language: PageLanguage): string {
  const t = TEXT[language];
  return notice(nonce, language, t.limitTitle, t.limit);
}

/**
 * The password form of a protected link: posts back to the link's own address. `problem` is what
 * went wrong with the last attempt. The link's title names it; nothing tells where it goes.
 */
export function passwordPage(options: {
  title: string | null;
  problem: 'wrong' | 'too-many' | undefined;
  nonce: string;
  language: PageLanguage;
}): string {
  const t = TEXT[options.language];
  const problem =
    options.problem === undefined
      ? ''
      : `<p class="error" id="problem" role="alert">${options.problem === 'wrong' ? t.wrongPassword : t.tooManyAttempts}</p>`;
  const described = options.problem === undefined ? '' : ' aria-describedby="problem" aria-invalid="true"';
  return page(
    options.nonce,
    options.language,
    options.title ?? t.protectedTitle,
    `<h1>${escapeHtml(options.title ?? t.protectedTitle)}</h1><p>${t.protectedLine}</p>` +
      `<form method="post">${problem}<label for="password">${t.password}</label>` +
      `<input id="password" name="password" type="password" required minlength="1" maxlength="128" autocomplete="current-password" autofocus${described}>` +
      `<button class="button" type="submit">${t.unlock}</button></form>`,
  );
}

export function unavailablePage(nonce: string, language: PageLanguage): string {
  const t = TEXT[language];
  return notice(nonce, language, t.unavailableTitle, t.unavailable);
}

/** The operator's ad HTML with the page's nonce on its scripts: AD_PAGE_HTML is trusted operator content. */
const withNonce = (html: string, nonce: string) => html.replace(/<script\b/gi, `<script nonce="${nonce}"`);

/** Shown instead of a direct redirect for links with showAdPage; continues on its own or on a tap. */
export function adInterstitialPage(options: {
  destination: string;
  seconds: number;
  adSlotHtml: string;
  title: string | null;
  nonce: string;
  language: PageLanguage;
}): string {
  const t = TEXT[options.language];
  const target = escapeHtml(options.destination);
  const js = JSON.stringify(options.destination).replace(/</g, '\\u003c');
  return page(
    options.nonce,
    options.language,
    options.title ?? t.continue,
    `<h1>${escapeHtml(options.title ?? t.redirecting)}</h1>` +
      `<div class="slot" aria-label="${t.advertisement}">${withNonce(options.adSlotHtml, options.nonce)}</div>` +
      `<p><a class="button" id="continue" href="${target}" rel="noopener">${t.continue}</a></p>` +
      `<p class="muted" aria-live="polite">${t.continuingIn(`<span id="s">${options.seconds}</span>`)}</p>` +
      `<script nonce="${options.nonce}">(function(){var n=${options.seconds},e=document.getElementById('s');var t=setInterval(function(){n--;if(e)e.textContent=String(Math.max(n,0));` +
      `if(n<=0){clearInterval(t);location.replace(${js});}},1000);})();</script>`,
    `<noscript><meta http-equiv="refresh" content="${options.seconds};url=${target}"></noscript>`,
  );
}

/** What a messenger or social network turns into a preview card. */
export function sharePreviewPage(options: {
  url: string;
  destination: string;
  title: string;
  description: string | null;
  imageUrl: string | null;
  nonce: string;
  language: PageLanguage;
}): string {
  const t = escapeHtml(options.title);
  const meta = [
    `<meta property="og:type" content="website">`,
    `<meta property="og:url" content="${escapeHtml(options.url)}">`,
    `<meta property="og:title" content="${t}">`,
    `<meta property="og:description" content="${escapeHtml(options.description ?? '')}">`,
    options.imageUrl
      ? `<meta property="og:image" content="${escapeHtml(options.imageUrl)}">`
      : `<meta property="og:image" content="">`,
    `<meta name="twitter:card" content="${options.imageUrl ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${t}">`,
    `<meta name="twitter:description" content="${escapeHtml(options.description ?? '')}">`,
    options.imageUrl ? `<meta name="twitter:image" content="${escapeHtml(options.imageUrl)}">` : '',
    `<link rel="canonical" href="${escapeHtml(options.url)}">`,
  ].join('');
  const text = TEXT[options.language];
  return page(
    options.nonce,
    options.language,
    options.title,
    `<h1>${t}</h1><p>${escapeHtml(options.description ?? '')}</p><p><a class="button" href="${escapeHtml(options.destination)}">${text.open}</a></p>`,
    meta,
  );
}
