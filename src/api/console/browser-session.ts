// The browser side of console sessions: the cookie (HttpOnly, SameSite=Lax, Secure except for a
// loopback development address), the language a page answers in, the rules a state-changing
// browser request must pass (same origin), and the per-address limit on sign-in attempts.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../shared/config.js';
import { isLocalName, isLoopbackAddress } from '../../shared/public-address.js';
import { negotiateLanguage } from '../../shared/language.js';
import type { Language } from '../../shared/roles.js';

export const SESSION_COOKIE = 'sp_session';
/** The pending terms consent of a partner's new user (path /sso only). */
export const CONSENT_COOKIE = 'sp_sso_consent';

/** http://localhost, 127.0.0.1 or [::1]: development, where cookies cannot be Secure and HTTPS is not required. */
export function isLoopbackDevelopment(publicBaseUrl: string): boolean {
  const url = new URL(publicBaseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return url.protocol === 'http:' && (host === 'localhost' || isLocalName(host) || isLoopbackAddress(host));
}

export function cookiesOf(request: FastifyRequest): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    if (!cookies.has(name)) cookies.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return cookies;
}

export interface CookieJar {
  set(reply: FastifyReply, name: string, value: string, options: { path: string; expires?: Date }): void;
  clear(reply: FastifyReply, name: string, path: string): void;
}

export function cookieJar(config: Pick<Config, 'server'>): CookieJar {
  const secure = isLoopbackDevelopment(config.server.publicBaseUrl) ? '' : '; Secure';
  const add = (reply: FastifyReply, cookie: string) => {
    const existing = reply.getHeader('set-cookie');
    const all = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
    reply.header('set-cookie', [...all, cookie]);
  };
  return {
    set(reply, name, value, options) {
      const expires = options.expires ? `; Expires=${options.expires.toUTCString()}` : '';
      add(
        reply,
        `${name}=${encodeURIComponent(value)}; Path=${options.path}; HttpOnly; SameSite=Lax${secure}${expires}`,
      );
    },
    clear(reply, name, path) {
      add(reply, `${name}=; Path=${path}; HttpOnly; SameSite=Lax${secure}; Max-Age=0`);
    },
  };
}

const CONSOLE_LANGUAGES = ['ko', 'en'] as const;

/** ?lang=en|ko, else the first of Accept-Language we speak, else Korean. */
export function languageOf(request: FastifyRequest): Language {
  const query = request.query as Record<string, unknown> | undefined;
  const asked = typeof query?.lang === 'string' ? query.lang.toLowerCase() : undefined;
  if (asked === 'en' || asked === 'ko') return asked;
  return negotiateLanguage(request.headers['accept-language'], CONSOLE_LANGUAGES) ?? 'ko';
}
/** The origin of the request's Origin header, or of its Referer; undefined when it sent neither. */
export function requestOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '') return origin;
  const referer = request.headers.referer;
  if (typeof referer !== 'string' || referer === '') return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

/** Whether the client would rather have JSON than a page: it accepts JSON and not HTML. */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /application\/json/i.test(accept) && !/text\/html|\*\/\*/i.test(accept);
}
