// Identity verification of the keyless identify and opt-in calls. The public app id sits in every
// web page, so without it anyone could write any member's record and consents. An app owner turns
// it on and receives an identity secret; the partner's server signs each member id with it
// (userHash = hex HMAC-SHA256(secret, externalUserId)) and hands the hash to its page, which sends
// it along. Callers with the app key (mobile) are not asked: the key already proves the app.
// The members are the organization's, not the app's: once any app of the organization requires
// verification, a keyless call through an app without a secret would bypass it, so it is refused.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { forbidden, unauthenticated } from '../../shared/errors.js';
import type { AppDeps } from '../deps.js';
import type { JourneyCaller } from './caller.js';

export const userHashSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'must be the 64 hex characters of HMAC-SHA256(identity secret, externalUserId)')
  .optional()
  .describe(
    'hex HMAC-SHA256 of externalUserId under the app\'s identity secret, computed by your server; required from browsers ' +
      '(X-App-ID only) once identity verification is on (POST /api/v1/service/mobile-apps/{id}/identity-verification)',
  );

/** The hash a partner's server computes for a member id. */
export function userHashOf(secret: string, externalUserId: string): Buffer {
  return createHmac('sha256', secret).update(externalUserId, 'utf8').digest();
}

/**
 * Throws 401/403 unless a keyless caller proves the member id where the organization requires it.
 * Wrong hashes count as failed authentications of the caller's address (429 after too many), so a
 * page cannot be used to guess a member's hash.
 */
export async function requireVerifiedIdentity(
  deps: Pick<AppDeps, 'repos' | 'authFailures'>,
  request: FastifyRequest,
  caller: JourneyCaller,
  externalUserId: string,
  userHash: string | undefined,
): Promise<void> {
  if (caller.channel !== 'browser' || !caller.app) return;
  const verifiers = await deps.repos.mobileApps.identityVerifiers(caller.organization.id);
  if (verifiers.length === 0) return;
  const own = verifiers.find((v) => v.appId === caller.app!.id);
  if (!own) {
    throw forbidden(
      'IDENTITY_VERIFICATION_REQUIRED',
      'identity verification is on for this organization: call identify and opt-in from browsers through an app that has it on, or with the mobile app key',
    );
  }
  if (userHash === undefined) {
    throw unauthenticated('USER_HASH_REQUIRED', 'identity verification is on for this app: send userHash, the HMAC-SHA256 of externalUserId under the identity secret');
  }
  deps.authFailures.identityHash.check(request);
  // Both sides are 32 bytes (the schema admits 64 hex characters only).
  if (!timingSafeEqual(userHashOf(own.secret, externalUserId), Buffer.from(userHash, 'hex'))) {
    deps.authFailures.identityHash.fail(request);
    throw unauthenticated('USER_HASH_INVALID', 'userHash does not match externalUserId under this app\'s identity secret');
  }
}
