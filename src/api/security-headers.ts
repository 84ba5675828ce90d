// Security headers on every answer (what @fastify/helmet would set, without the dependency):
// - X-Content-Type-Options: nosniff, always;
// - Strict-Transport-Security when the request came over https (TLS or a trusted proxy's
//   X-Forwarded-Proto) to a host that is not loopback: a development http://localhost stays usable;
// - Referrer-Policy, X-Frame-Options: DENY and a Content-Security-Policy on every answer but a
//   redirect. A redirect carries no Referrer-Policy on purpose: the referring page's own policy
//   then decides what the destination's analytics see, exactly as without the short link. Pages
//   set their own policy (pagePolicy); everything else gets one that allows nothing.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { isLocalName, isLoopbackAddress } from '../shared/public-address.js';
import type { ClientAddress } from './client-address.js';

// No includeSubDomains: PUBLIC_BASE_URL may be an apex whose other subdomains are not ours to pin.
const HSTS = 'max-age=31536000';
const REFERRER_POLICY = 'strict-origin-when-cross-origin';
/** JSON, text and any HTML without a policy of its own: nothing loads, nothing frames it. */
const LOCKED_DOWN_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A fresh CSP nonce for one page. */
export const newNonce = () => randomBytes(16).toString('base64');

/** Whether this answer may pin https: over https, and not to this machine. */
function wantsHsts(protocol: string | undefined, hostname: string): boolean {
  if (protocol !== 'https') return false;
  const host = hostname.replace(/^\[|\]$/g, '');
  return !isLocalName(host) && !isLoopbackAddress(host);
}

export interface PagePolicyOptions {
  nonce: string;
  /** Origins the page's scripts call (the landing page's web SDK calls PUBLIC_BASE_URL). */
  connect?: string[];
  /** Images from any https origin (the app icon on the landing page). */
  httpsImages?: boolean;
  /**
   * The ad interstitial with the operator's AD_PAGE_HTML: that HTML is trusted operator content.
   * Its scripts carry the page's nonce and may load further scripts ('strict-dynamic'), and it may
   * load images, frames, styles (inline too), fonts and connections from any https origin. It
   * still gets no plugins, no <base>, no form posts, and no one may frame the page.
   */
  operatorAd?: boolean;
  /** The page's forms post to this origin (sign-in pages). */
  forms?: boolean;
  /**
   * The post may be answered with a redirect to any https origin: the password form of a
   * protected link, which sends the visitor on to the destination. Chromium checks form-action on
   * every redirect of the post, so 'self' alone would stop the visitor on the link's address.
   */
  formRedirects?: boolean;
}

/** The Content-Security-Policy of one HTML page: its own inline script and style by nonce only. */
export function pagePolicy(options: PagePolicyOptions): string {
  const nonce = `'nonce-${options.nonce}'`;
  const connect = options.connect?.length ? options.connect.join(' ') : "'none'";
  const directives = options.operatorAd
    ? [
        "default-src 'none'",
        `script-src ${nonce} 'strict-dynamic' https:`,
        "style-src 'unsafe-inline' https:",
        'img-src https: data:',
        'frame-src https:',
        'font-src https: data:',
        'connect-src https:',
      ]
    : [
        "default-src 'none'",
        `script-src ${nonce}`,
        `style-src ${nonce}`,
        options.httpsImages ? "img-src 'self' https: data:" : "img-src 'self' data:",
        `connect-src ${connect}`,
      ];
  const formAction = options.forms
    ? `form-action 'self'${options.formRedirects ? ' https:' : ''}`
    : "form-action 'none'";
  return [...directives, "object-src 'none'", "base-uri 'none'", formAction, "frame-ancestors 'none'"].join('; ');
}

/**
 * /docs (Swagger UI): its scripts are files of its own and its "try it out" calls this origin. It
 * injects one inline <style> at run time, so styles (never scripts) may be inline there.
 */
export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/** Adds the headers to every answer Fastify sends. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  // Callback style, not async: this runs on every answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    if (wantsHsts(request.protocol, request.hostname)) reply.header('strict-transport-security', HSTS);
    const status = reply.statusCode;
    if (status < 300 || status >= 400) {
      reply.header('referrer-policy', REFERRER_POLICY);
      reply.header('x-frame-options', 'DENY');
      if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', LOCKED_DOWN_CSP);
    }
    done(null, payload);
  });
}

/** The same headers for a redirect answered in front of Fastify (redirect.routes.ts). */
export function redirectSecurityHeaders(
  address: ClientAddress,
): (req: IncomingMessage, hostname: string) => Record<string, string> {
  const plain = { 'x-content-type-options': 'nosniff' };
  const pinned = { ...plain, 'strict-transport-security': HSTS };
  return (req, hostname) => (wantsHsts(address.protocol(req), hostname) ? pinned : plain);
}
