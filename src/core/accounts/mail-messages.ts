// The mail the console sends, in Korean and English: plain text plus simple HTML with one button.
// Every message carries exactly one link, valid for the time it says.
import type { MailMessage } from '../../mail/mailer.js';
import { escapeHtml } from '../../shared/html.js';
import type { Language } from '../../shared/roles.js';

interface Wording {
  subject: string;
  intro: string;
  button: string;
  validity: string;
  ignore: string;
}

export type MessageKind = 'sign_in' | 'sso_link' | 'sso_signup' | 'invitation';

/** How long a link lasts, in words: minutes, or whole days for an invitation's longer life. */
function lifetime(minutes: number, language: Language): string {
  const days = minutes / 1440;
  if (Number.isInteger(days)) return language === 'en' ? `${days} day${days === 1 ? '' : 's'}` : `${days}일`;
  return language === 'en' ? `${minutes} minutes` : `${minutes}분`;
}

/** `serviceName` names the partner of an SSO message, the organization of an invitation; `inviter` who invited. */
function wording(
  kind: MessageKind,
  language: Language,
  minutes: number,
  serviceName: string,
  inviter: string,
): Wording {
  if (language === 'en') {
    const validity = `The link works once, for ${lifetime(minutes, language)}.`;
    const ignore = 'If you did not ask for this, ignore this message: nothing happens without the link.';
    switch (kind) {
      case 'sign_in':
        return {
          subject: 'Your Signpost sign-in link',
          intro: 'Use the button below to sign in to the Signpost console.',
          button: 'Sign in',
          validity,
          ignore,
        };
      case 'sso_link':
        return {
          subject: `Link your ${serviceName} account to Signpost`,
          intro: `Someone signed in through ${serviceName} with this address. Confirm to link that account to your Signpost account and sign in.`,
          button: 'Link and sign in',
          validity,
          ignore,
        };
      case 'sso_signup':
        return {
          subject: 'Confirm your address to finish signing up for Signpost',
          intro: `You are signing up for Signpost through ${serviceName}. Confirm this address to create your account.`,
          button: 'Confirm and create my account',
          validity,
          ignore,
        };
      case 'invitation':
        return {
          subject: `${inviter} invited you to ${serviceName} on Signpost`,
          intro: `${inviter} added you to the organization ${serviceName} in the Signpost console. Use the button below to sign in; later, sign in at the console with this address.`,
          button: 'Open the console',
          validity,
          ignore: 'If you did not expect this, ignore this message: nothing happens without the link.',
        };
    }
  }
  const validity = `이 링크는 ${lifetime(minutes, language)} 동안 한 번만 사용할 수 있습니다.`;
  const ignore = '직접 요청하지 않았다면 이 메일을 무시하세요. 링크를 열지 않으면 아무 일도 일어나지 않습니다.';
  switch (kind) {
    case 'sign_in':
      return {
        subject: 'Signpost 로그인 링크',
        intro: '아래 버튼을 눌러 Signpost 콘솔에 로그인하세요.',
        button: '로그인',
        validity,
        ignore,
      };
    case 'sso_link':
      return {
        subject: `${serviceName} 계정을 Signpost 계정에 연결하기`,
        intro: `이 주소로 ${serviceName}을(를) 통해 로그인한 기록이 있습니다. 확인하면 해당 계정이 Signpost 계정에 연결되고 로그인됩니다.`,
        button: '연결하고 로그인',
        validity,
        ignore,
      };
    case 'sso_signup':
      return {
        subject: 'Signpost 가입을 마치려면 이메일 주소를 확인하세요',
        intro: `${serviceName}을(를) 통해 Signpost에 가입하고 있습니다. 이 주소를 확인하면 계정이 만들어집니다.`,
        button: '확인하고 계정 만들기',
        validity,
        ignore,
      };
    case 'invitation':
      return {
        subject: `${inviter} 님이 Signpost의 ${serviceName} 조직에 초대했습니다`,
        intro: `${inviter} 님이 Signpost 콘솔의 ${serviceName} 조직에 회원님을 추가했습니다. 아래 버튼을 눌러 로그인하세요. 다음부터는 이 주소로 콘솔에 로그인하면 됩니다.`,
        button: '콘솔 열기',
        validity,
        ignore: '예상하지 못한 메일이라면 무시하세요. 링크를 열지 않으면 아무 일도 일어나지 않습니다.',
      };
  }
}

/** Plain text and the simple HTML every console mail shares: the intro, one button, the fine print. */
function render(to: string, language: Language, w: Wording, link: string): MailMessage {
  const text = `${w.intro}\n\n${link}\n\n${w.validity}\n${w.ignore}\n\n— Signpost\n`;
  const html =
    `<!doctype html><html lang="${language}"><body style="font-family:system-ui,sans-serif;color:#1f2328;line-height:1.5">` +
    `<p>${escapeHtml(w.intro)}</p>` +
    `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:#0969da;color:#fff;text-decoration:none;font-weight:600">${escapeHtml(w.button)}</a></p>` +
    `<p style="color:#57606a;font-size:14px">${escapeHtml(w.validity)}<br>${escapeHtml(w.ignore)}</p>` +
    `<p style="color:#57606a;font-size:12px;word-break:break-all">${escapeHtml(link)}</p></body></html>`;
  return { to, subject: w.subject, text, html, link };
}

export function mailFor(
  kind: MessageKind,
  options: { to: string; link: string; language: Language; minutes: number; serviceName?: string; inviter?: string },
): MailMessage {
  const w = wording(kind, options.language, options.minutes, options.serviceName ?? '', options.inviter ?? '');
  return render(options.to, options.language, w, options.link);
}

/**
 * The warning that a Service API key stops working soon, to the member who issued it or the
 * organization's owners; the link opens the console's API keys screen. The expiry is given in UTC,
 * the zone every recipient can read unambiguously.
 */
export function apiKeyExpiryMail(options: {
  to: string;
  language: Language;
  link: string;
  organizationName: string;
  keyLabel: string;
  expiresAt: Date;
}): MailMessage {
  const { organizationName: org, keyLabel: key } = options;
  const when = `${options.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const w: Wording =
    options.language === 'en'
      ? {
          subject: `Your Signpost API key ${key} expires on ${when.slice(0, 10)}`,
          intro: `The Service API key ${key} of the organization ${org} stops working at ${when}. Issue a new key and switch your integration to it before then.`,
          button: 'Open API keys',
          validity: 'After that time every call with this key is refused (401).',
          ignore: 'You get this message once per key.',
        }
      : {
          subject: `Signpost API 키 ${key}이(가) ${when.slice(0, 10)}에 만료됩니다`,
          intro: `${org} 조직의 서비스 API 키 ${key}은(는) ${when}에 만료됩니다. 그 전에 새 키를 발급해 연동을 옮기세요.`,
          button: 'API 키 열기',
          validity: '만료 후에는 이 키로 보낸 모든 요청이 거부됩니다(401).',
          ignore: '이 안내는 키마다 한 번만 보내 드립니다.',
        };
  return render(options.to, options.language, w, options.link);
}
