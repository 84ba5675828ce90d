// Click ids for conversion tracking (a link's `conversionTracking`): the redirect appends one to
// the destination as `signpost_token` and records it on the click (clicks.deep_link_token), so a
// web SDK session opened on that page ties its goals to the click and the variant it was sent to,
// as a deep-link token does on a phone. The redirect must not wait on any store, so the id is made
// in memory: the organization, the link and a random part, signed with the deployment's own key
// (derived from the blind-index key kept sealed in PostgreSQL, the same on every instance). The
// resolve endpoint verifies it without a look-up; a tampered or made-up id verifies as nothing.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomBase64url } from '../../shared/ids.js';

/** Marks the format; deep-link tokens (24 base62 characters) never contain a dot. */
const VERSION = 'w1';
/** 72 random bits: unique per click of a link for all practical purposes. */
const RANDOM_BYTES = 9;
/** A 128-bit HMAC-SHA256 prefix. */
const MAC_BYTES = 16;
const RANDOM_CHARS = Math.ceil((RANDOM_BYTES * 4) / 3);
const MAC_CHARS = Math.ceil((MAC_BYTES * 4) / 3);
const SHAPE = new RegExp(
  `^${VERSION}\\.([0-9a-z]{1,13})\\.([uc])([0-9a-z]{1,13})\\.([A-Za-z0-9_-]{${RANDOM_CHARS}})\\.([A-Za-z0-9_-]{${MAC_CHARS}})$`,
);

/** What a verified click id says. */
export interface ClickTokenClaims {
  organizationId: number;
  linkType: 'url' | 'campaign';
  linkId: number;
}

export interface ClickTokens {
  /** A fresh id for a click on the link: no I/O. */
  make(link: { kind: 'url' | 'campaign'; id: number; organizationId: number }): string;
  /** The claims of an id this deployment made; undefined for anything else (tampered, made up, another shape). */
  verify(token: string): ClickTokenClaims | undefined;
}

/** Whether `token` has the shape of a click id (the redirect's), not of a phone's deep-link token. */
export const isClickTokenShaped = (token: string): boolean => token.startsWith(`${VERSION}.`);

export function createClickTokens(key: Buffer): ClickTokens {
  const mac = (signed: string) => createHmac('sha256', key).update(signed).digest().subarray(0, MAC_BYTES);
  return {
    make(link) {
      const signed = `${VERSION}.${link.organizationId.toString(36)}.${link.kind === 'url' ? 'u' : 'c'}${link.id.toString(36)}.${randomBase64url(RANDOM_BYTES)}`;
      return `${signed}.${mac(signed).toString('base64url')}`;
    },
    verify(token) {
      const m = SHAPE.exec(token);
      if (!m) return undefined;
      const signed = token.slice(0, token.length - MAC_CHARS - 1);
      // Compared as text: base64url decoding ignores the last character's spare bits, so a
      // changed character there must not pass as the same signature.
      const given = Buffer.from(m[5]!);
      const expected = Buffer.from(mac(signed).toString('base64url'));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const organizationId = Number.parseInt(m[1]!, 36);
      const linkId = Number.parseInt(m[3]!, 36);
      if (!Number.isSafeInteger(organizationId) || !Number.isSafeInteger(linkId)) return undefined;
      return { organizationId, linkType: m[2] === 'u' ? 'url' : 'campaign', linkId };
    },
  };
}
