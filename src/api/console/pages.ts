// The server-rendered pages of signing in: partner sign-in errors, the terms consent of a
// partner's new user, "check your mail", the sign-in form (mailed link, or the company's OpenID
// Connect provider when one is configured), and the console's landing
// page. Korean by default, English on request; every interpolated value is escaped; inline style
// carries the page's CSP nonce and forms post only to this origin.
import type { ConsoleOverview } from '../../core/accounts/console-access.js';
import { escapeHtml as e } from '../../shared/html.js';
import type { Language } from '../../shared/roles.js';

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR",sans-serif;
  color:#1f2328;background:#f6f8fa;display:flex;min-height:100vh;align-items:center;justify-content:center;padding:24px}
  main{max-width:32rem;width:100%;background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:28px}
  h1{font-size:1.3rem;margin:0 0 12px}p{margin:0 0 16px;color:#424a53}.muted{font-size:.875rem;color:#6e7781}
  .error{color:#cf222e}a.button,button{display:inline-block;padding:11px 18px;border-radius:8px;border:0;background:#0969da;
  color:#fff;text-decoration:none;font:inherit;font-weight:600;cursor:pointer}button.secondary{background:#eaeef2;color:#1f2328}
  label{display:block;font-weight:600;margin:0 0 6px}input[type=email]{width:100%;padding:10px 12px;border:1px solid #d0d7de;
  border-radius:8px;font:inherit;margin:0 0 16px}.terms{white-space:pre-wrap;max-height:14rem;overflow:auto;border:1px solid #d0d7de;
  border-radius:8px;padding:12px;background:#f6f8fa;margin:0 0 16px;font-size:.925rem}.check{display:flex;gap:8px;align-items:flex-start;
  font-weight:400}.row{display:flex;gap:8px;flex-wrap:wrap}ul{padding-left:1.2rem}li{margin:0 0 6px}
  :focus-visible{outline:3px solid #0969da;outline-offset:2px}`;

function page(language: Language, nonce: string, title: string, body: string): string {
  return (
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${e(title)}</title><style nonce="${nonce}">${STYLE}</style></head>` +
    `<body><main>${body}</main></body></html>`
  );
}

const T = {
  ko: {
    ssoFailed: '로그인할 수 없습니다',
    backToPartner: '파트너 서비스 로그인으로 돌아가기',
    consentTitle: '서비스 이용약관 동의',
    consentIntro: (service: string) =>
      `${service} 계정으로 Signpost를 처음 사용합니다. 계속하려면 약관에 동의해 주세요.`,
    account: '가입할 주소',
    agree: '위 약관에 동의합니다.',
    accept: '동의하고 계속',
    decline: '취소',
    fullTerms: '약관 전문 보기',
    checkTitle: '메일을 확인하세요',
    checkBody: (to: string, minutes: number) =>
      `${to} 주소로 확인 링크를 보냈습니다. ${minutes}분 안에 링크를 열어 주세요.`,
    signInTitle: 'Signpost 콘솔 로그인',
    signInIntro: '이메일 주소를 입력하면 로그인 링크를 보내 드립니다. 비밀번호는 필요 없습니다.',
    email: '이메일 주소',
    send: '로그인 링크 받기',
    sentTitle: '메일을 확인하세요',
    sentBody: (minutes: number) =>
      `계정이 있는 주소라면 로그인 링크를 보냈습니다. 링크는 ${minutes}분 동안 한 번만 사용할 수 있습니다.`,
    linkInvalid: '링크를 사용할 수 없습니다',
    linkInvalidBody: '이미 사용했거나 만료된 링크입니다. 새 로그인 링크를 받으세요.',
    newLink: '새 링크 받기',
    declined: '가입을 취소했습니다. 언제든 파트너 서비스에서 다시 시작할 수 있습니다.',
    home: 'Signpost 콘솔',
    signedInAs: '로그인 계정',
    organizations: '조직',
    noOrganizations: '아직 속한 조직이 없습니다. 운영자에게 초대를 요청하세요.',
    signOut: '로그아웃',
    signOutEverywhere: '모든 기기에서 로그아웃',
    roles: { owner: '소유자', admin: '관리자', developer: '개발자', analyst: '분석가' },
    or: '또는',
    signInWith: (provider: string) => `${provider}(으)로 로그인`,
    oidcErrors: {
      OIDC_STATE_MISSING: '로그인 시간이 지났거나 다른 브라우저에서 시작했습니다. 다시 시작하세요.',
      OIDC_STATE_MISMATCH: '이 로그인 요청의 응답이 아닙니다. 다시 시작하세요.',
      OIDC_DENIED: 'ID 공급자가 로그인을 허락하지 않았습니다.',
      OIDC_CODE_REJECTED: 'ID 공급자가 로그인 코드를 거부했습니다. 다시 시작하세요.',
      OIDC_ID_TOKEN_INVALID: 'ID 공급자의 응답이 검증을 통과하지 못했습니다. 다시 시작하세요.',
      OIDC_NO_EMAIL: 'ID 공급자가 이메일 주소를 알려 주지 않았습니다.',
      OIDC_EMAIL_UNVERIFIED: 'ID 공급자에서 이메일 주소가 확인되지 않았습니다.',
      OIDC_NOT_A_MEMBER: '이 이메일 주소의 계정이 없습니다. 조직 관리자에게 추가를 요청하세요.',
      OIDC_PROVIDER_UNAVAILABLE: 'ID 공급자에 연결할 수 없습니다. 잠시 후 다시 시도하세요.',
      OIDC_JOIN_ORGANIZATION_MISSING: '가입할 조직이 없습니다. 운영자에게 문의하세요.',
    },
  },
  en: {
    ssoFailed: 'Sign-in failed',
    backToPartner: "Back to the partner's sign-in",
    consentTitle: 'Terms of service',
    consentIntro: (service: string) =>
      `You are using Signpost for the first time with your ${service} account. Accept the terms to continue.`,
    account: 'Address to sign up with',
    agree: 'I accept the terms above.',
    accept: 'Accept and continue',
    decline: 'Cancel',
    fullTerms: 'Read the full terms',
    checkTitle: 'Check your mail',
    checkBody: (to: string, minutes: number) =>
      `We sent a confirmation link to ${to}. Open it within ${minutes} minutes.`,
    signInTitle: 'Sign in to the Signpost console',
    signInIntro: 'Enter your address and we will mail you a sign-in link. No password needed.',
    email: 'Email address',
    send: 'Send me a sign-in link',
    sentTitle: 'Check your mail',
    sentBody: (minutes: number) =>
      `If the address has an account, a sign-in link is on its way. It works once, for ${minutes} minutes.`,
    linkInvalid: 'This link cannot be used',
    linkInvalidBody: 'It has been used already or has expired. Ask for a new sign-in link.',
    newLink: 'Get a new link',
    declined: 'You cancelled the sign-up. You can start again from the partner service at any time.',
    home: 'Signpost console',
    signedInAs: 'Signed in as',
    organizations: 'Organizations',
    noOrganizations: 'You do not belong to an organization yet. Ask the operator to invite you.',
    signOut: 'Sign out',
    signOutEverywhere: 'Sign out everywhere',
    roles: { owner: 'Owner', admin: 'Admin', developer: 'Developer', analyst: 'Analyst' },
    or: 'or',
    signInWith: (provider: string) => `Sign in with ${provider}`,
    oidcErrors: {
      OIDC_STATE_MISSING: 'The sign-in took too long or began in another browser. Start again.',
      OIDC_STATE_MISMATCH: 'That answer does not belong to this sign-in. Start again.',
      OIDC_DENIED: 'The identity provider did not sign you in.',
      OIDC_CODE_REJECTED: 'The identity provider refused the sign-in code. Start again.',
      OIDC_ID_TOKEN_INVALID: "The identity provider's answer failed its checks. Start again.",
      OIDC_NO_EMAIL: 'The identity provider did not tell us your email address.',
      OIDC_EMAIL_UNVERIFIED: 'The identity provider has not verified your email address.',
      OIDC_NOT_A_MEMBER: 'No account has this email address. Ask an admin of your organization to add you.',
      OIDC_PROVIDER_UNAVAILABLE: 'The identity provider cannot be reached. Try again in a moment.',
      OIDC_JOIN_ORGANIZATION_MISSING: 'The organization to join does not exist. Ask the operator.',
    },
  },
} as const;

export const DEFAULT_TERMS = {
  ko: 'Signpost 서비스 이용약관\n\n1. 회사는 단축 링크, 캠페인, 딥링크와 그 통계를 제공합니다.\n2. 이용자는 관련 법령과 이 약관을 지켜야 합니다.\n3. 회사는 서비스 제공에 필요한 최소한의 개인정보(이메일 주소, 이름)를 수집하며, 암호화하여 보관합니다.\n4. 이용자는 언제든 탈퇴를 요청할 수 있습니다.',
  en: 'Signpost terms of service\n\n1. We provide short links, campaigns, deep links and their statistics.\n2. You agree to follow applicable law and these terms.\n3. We collect the least personal data the service needs (your address and name) and keep it encrypted.\n4. You may ask to close your account at any time.',
};

export function ssoErrorPage(o: {
  language: Language;
  nonce: string;
  message: string;
  english: string | undefined;
  loginUrl: string | null;
}): string {
  const t = T[o.language];
  const english = o.english && o.language === 'en' ? `<p class="muted">${e(o.english)}</p>` : '';
  const back = o.loginUrl ? `<p><a class="button" href="${e(o.loginUrl)}">${e(t.backToPartner)}</a></p>` : '';
  return page(
    o.language,
    o.nonce,
    t.ssoFailed,
    `<h1>${e(t.ssoFailed)}</h1><p class="error" role="alert">${e(o.message)}</p>${english}${back}`,
  );
}

export function consentPage(o: {
  language: Language;
  nonce: string;
  serviceName: string;
  email: string;
  terms: string;
  termsUrl: string | undefined;
}): string {
  const t = T[o.language];
  const full = o.termsUrl
    ? `<p class="muted"><a href="${e(o.termsUrl)}" rel="noopener" target="_blank">${e(t.fullTerms)}</a></p>`
    : '';
  return page(
    o.language,
    o.nonce,
    t.consentTitle,
    `<h1>${e(t.consentTitle)}</h1><p>${e(t.consentIntro(o.serviceName))}</p>` +
      `<p class="muted">${e(t.account)}: <strong>${e(o.email)}</strong></p>` +
      `<div class="terms" tabindex="0" aria-label="${e(t.consentTitle)}">${e(o.terms)}</div>${full}` +
      `<form method="post" action="/sso/consent?lang=${o.language}"><label class="check"><input type="checkbox" name="accept" value="yes" required> ${e(t.agree)}</label>` +
      `<p class="row"><button type="submit" name="decision" value="accept">${e(t.accept)}</button>` +
      `<button type="submit" name="decision" value="decline" class="secondary" formnovalidate>${e(t.decline)}</button></p></form>`,
  );
}

export function checkMailPage(o: { language: Language; nonce: string; to: string; minutes: number }): string {
  const t = T[o.language];
  return page(
    o.language,
    o.nonce,
    t.checkTitle,
    `<h1>${e(t.checkTitle)}</h1><p role="status">${e(t.checkBody(o.to, o.minutes))}</p>`,
  );
}

export function messagePage(o: { language: Language; nonce: string; title: 'declined' | 'linkInvalid' }): string {
  const t = T[o.language];
  if (o.title === 'declined')
    return page(o.language, o.nonce, t.consentTitle, `<h1>${e(t.consentTitle)}</h1><p>${e(t.declined)}</p>`);
  return page(
    o.language,
    o.nonce,
    t.linkInvalid,
    `<h1>${e(t.linkInvalid)}</h1><p>${e(t.linkInvalidBody)}</p><p><a class="button" href="/console/sign-in?lang=${o.language}">${e(t.newLink)}</a></p>`,
  );
}

/** Why a sign-in through the OpenID Connect provider was refused, in the page's language. */
export function oidcErrorText(language: Language, code: string, fallback: string): string {
  const texts: Record<string, string> = T[language].oidcErrors;
  return texts[code] ?? fallback;
}

export function signInPage(o: {
  language: Language;
  nonce: string;
  sent?: { minutes: number };
  error?: string;
  /** The OpenID Connect provider's name for its button; undefined when none is configured. */
  oidcProvider?: string | undefined;
}): string {
  const t = T[o.language];
  if (o.sent)
    return page(
      o.language,
      o.nonce,
      t.sentTitle,
      `<h1>${e(t.sentTitle)}</h1><p role="status">${e(t.sentBody(o.sent.minutes))}</p>`,
    );
  const error = o.error ? `<p class="error" role="alert">${e(o.error)}</p>` : '';
  return page(
    o.language,
    o.nonce,
    t.signInTitle,
    `<h1>${e(t.signInTitle)}</h1><p>${e(t.signInIntro)}</p>${error}` +
      `<form method="post" action="/console/sign-in?lang=${o.language}"><label for="email">${e(t.email)}</label>` +
      `<input id="email" name="email" type="email" autocomplete="email" required maxlength="254">` +
      `<button type="submit">${e(t.send)}</button></form>` +
      (o.oidcProvider
        ? `<p class="muted">${e(t.or)}</p><p><a class="button" href="/console/auth/oidc">${e(t.signInWith(o.oidcProvider))}</a></p>`
        : ''),
  );
}

/** Where a signed-in person lands until the full console replaces it: who, where, and the way out. */
export function consoleHomePage(o: { language: Language; nonce: string; overview: ConsoleOverview }): string {
  const t = T[o.language];
  const { user, memberships, csrfToken } = o.overview;
  const orgs =
    memberships.length === 0
      ? `<p class="muted">${e(t.noOrganizations)}</p>`
      : `<ul>${memberships.map((m) => `<li><strong>${e(m.organizationName)}</strong> · ${e(t.roles[m.role])} · ${e(m.plan)}</li>`).join('')}</ul>`;
  const form = (action: string, label: string, secondary = false) =>
    `<form method="post" action="${action}"><input type="hidden" name="csrfToken" value="${e(csrfToken)}">` +
    `<button type="submit"${secondary ? ' class="secondary"' : ''}>${e(label)}</button></form>`;
  return page(
    o.language,
    o.nonce,
    t.home,
    `<h1>${e(t.home)}</h1><p>${e(t.signedInAs)}: <strong data-testid="user-email">${e(user.email)}</strong>${user.name ? ` (${e(user.name)})` : ''}</p>` +
      `<h2 class="muted">${e(t.organizations)}</h2>${orgs}` +
      `<div class="row">${form('/console/sign-out', t.signOut)}${form('/console/sign-out-everywhere', t.signOutEverywhere, true)}</div>`,
  );
}

const UNSUBSCRIBE = {
  ko: {
    title: '보고서 수신 거부',
    weekly: '주간',
    monthly: '월간',
    of: (kind: string, name: string, org: string) =>
      `${org} 조직의 ${name} ${kind} 보고서를 더 이상 받지 않으시겠습니까?`,
    organization: '전체',
    confirm: '수신 거부',
    done: '수신을 거부했습니다. 이 보고서는 더 이상 보내지 않습니다. 콘솔의 보고서 메뉴에서 언제든 다시 구독할 수 있습니다.',
    invalid:
      '이 수신 거부 링크는 유효하지 않거나 이미 사용되었습니다. 보고서 구독은 콘솔의 보고서 메뉴에서 관리할 수 있습니다.',
  },
  en: {
    title: 'Unsubscribe from a report',
    weekly: 'weekly',
    monthly: 'monthly',
    of: (kind: string, name: string, org: string) => `Stop receiving the ${kind} report of ${name} (${org})?`,
    organization: 'the whole organization',
    confirm: 'Unsubscribe',
    done: 'You are unsubscribed: this report will not be mailed again. You can subscribe again any time under Reports in the console.',
    invalid:
      'This unsubscribe link is not valid or has been used already. Report subscriptions are managed under Reports in the console.',
  },
} as const;

/**
 * The page of a report's unsubscribe link: what it ends and a button that posts the same address
 * (opening a link never unsubscribes by itself: link checkers open them); then the outcome.
 */
export function unsubscribePage(o: {
  language: Language;
  nonce: string;
  state: 'confirm' | 'done' | 'invalid';
  report?: { frequency: 'weekly' | 'monthly'; name: string; organizationName: string; scopeType: string };
  action?: string;
}): string {
  const t = UNSUBSCRIBE[o.language];
  if (o.state !== 'confirm' || !o.report || !o.action)
    return page(
      o.language,
      o.nonce,
      t.title,
      `<h1>${e(t.title)}</h1><p role="status">${e(o.state === 'done' ? t.done : t.invalid)}</p>`,
    );
  const { report } = o;
  const name = report.scopeType === 'organization' ? t.organization : report.name;
  return page(
    o.language,
    o.nonce,
    t.title,
    `<h1>${e(t.title)}</h1><p>${e(t.of(t[report.frequency], name, report.organizationName))}</p>` +
      `<form method="post" action="${e(o.action)}"><button type="submit">${e(t.confirm)}</button></form>`,
  );
}
