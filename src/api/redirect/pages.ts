// The HTML the redirect answers with when it does not simply redirect: not found (404), expired
// (410), the ad interstitial, the share preview for link unfurlers, and a temporary failure (503).
// Small, self-contained, readable on a phone; every interpolated value is escaped. Each page's
// inline <style> and <script> carry the nonce of its Content-Security-Policy (security-headers.ts).

import { escapeHtml } from '../../shared/html.js';

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR",sans-serif;
  color:#1f2328;background:#f6f8fa;display:flex;min-height:100vh;align-items:center;justify-content:center;padding:24px}
  main{max-width:28rem;width:100%;background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:28px;text-align:center}
  h1{font-size:1.25rem;margin:0 0 8px}p{margin:0 0 16px;color:#57606a}
  a.button{display:inline-block;padding:12px 20px;border-radius:8px;background:#0969da;color:#fff;text-decoration:none;font-weight:600}
  .slot{margin:16px 0;min-height:60px}.muted{font-size:.875rem;color:#6e7781}`;

function page(nonce: string, title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>${head}<style nonce="${nonce}">${STYLE}</style></head>` +
    `<body><main>${body}</main></body></html>`;
}

export function notFoundPage(nonce: string): string {
  return page(nonce, 'Link not found', '<h1>Link not found</h1><p>This link does not exist or has been removed.</p>');
}

export function expiredPage(nonce: string): string {
  return page(nonce, 'Link expired', '<h1>This link has expired</h1><p>The owner set it to stop working after a date that has passed.</p>');
}

export function unavailablePage(nonce: string): string {
  return page(nonce, 'Try again shortly', '<h1>Try again in a moment</h1><p>We could not look this link up just now.</p>');
}

/** The operator's ad HTML with the page's nonce on its scripts: AD_PAGE_HTML is trusted operator content. */
const withNonce = (html: string, nonce: string) => html.replace(/<script\b/gi, `<script nonce="${nonce}"`);

/** Shown instead of a direct redirect for links with showAdPage; continues on its own or on a tap. */
export function adInterstitialPage(options: { destination: string; seconds: number; adSlotHtml: string; title: string | null; nonce: string }): string {
  const target = escapeHtml(options.destination);
  const js = JSON.stringify(options.destination).replace(/</g, '\\u003c');
  return page(
    options.nonce,
    options.title ?? 'Continue',
    `<h1>${escapeHtml(options.title ?? 'You are being redirected')}</h1>` +
      `<div class="slot" aria-label="advertisement">${withNonce(options.adSlotHtml, options.nonce)}</div>` +
      `<p><a class="button" id="continue" href="${target}" rel="noopener">Continue</a></p>` +
      `<p class="muted" aria-live="polite">Continuing in <span id="s">${options.seconds}</span> s…</p>` +
      `<script nonce="${options.nonce}">(function(){var n=${options.seconds},e=document.getElementById('s');var t=setInterval(function(){n--;if(e)e.textContent=String(Math.max(n,0));` +
      `if(n<=0){clearInterval(t);location.replace(${js});}},1000);})();</script>`,
    `<noscript><meta http-equiv="refresh" content="${options.seconds};url=${target}"></noscript>`,
  );
}

/** What a messenger or social network turns into a preview card. */
export function sharePreviewPage(options: { url: string; destination: string; title: string; description: string | null; imageUrl: string | null; nonce: string }): string {
  const t = escapeHtml(options.title);
  const meta = [
    `<meta property="og:type" content="website">`,
    `<meta property="og:url" content="${escapeHtml(options.url)}">`,
    `<meta property="og:title" content="${t}">`,
    `<meta property="og:description" content="${escapeHtml(options.description ?? '')}">`,
    options.imageUrl ? `<meta property="og:image" content="${escapeHtml(options.imageUrl)}">` : `<meta property="og:image" content="">`,
    `<meta name="twitter:card" content="${options.imageUrl ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${t}">`,
    `<meta name="twitter:description" content="${escapeHtml(options.description ?? '')}">`,
    options.imageUrl ? `<meta name="twitter:image" content="${escapeHtml(options.imageUrl)}">` : '',
    `<link rel="canonical" href="${escapeHtml(options.url)}">`,
  ].join('');
  return page(options.nonce, options.title, `<h1>${t}</h1><p>${escapeHtml(options.description ?? '')}</p><p><a class="button" href="${escapeHtml(options.destination)}">Open</a></p>`, meta);
}
