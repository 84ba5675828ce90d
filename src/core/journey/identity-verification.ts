// Identity verification of the keyless identify and opt-in calls. The public app id sits in every
// web page, so without it anyone could write any member's record and consents. An app owner turns
// it on and receives an identity secret; the partner's server signs each member id with it
// (userHash = hex HMAC-SHA256(secret, externalUserId)) and hands the hash to its page, which sends
// it along. Callers with the app key (mobile) are not asked: the key already proves the app.
// The members are the organization's, not the app's: once any app of the organization requires
// verification, a keyless call through an app without a secret would bypass it, so it is refused.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { forbidden, unauthenticated } from '../../shared/errors.js';
import type { MobileAppsRepo } from '../../oltp/mobile-apps.repo.js';
import type { JourneyCallerInfo } from './journey-caller.js';

/** Wrong hashes count against the caller: check refuses one that failed too often, fail counts one. */
export interface HashAttempts {
  check(): void;
  fail(): void;
}

/** The hash a partner's server computes for a member id. */
function userHashOf(secret: string, externalUserId: string): Buffer {
  return createHmac('sha256', secret).update(externalUserId, 'utf8').digest();
}

/**
 * Refuses a keyless caller that does not prove the member id where the organization requires it.
 * Wrong hashes count as failed attempts of the caller, so a page cannot be used to guess a
 * member's hash. userHash, when given, is 64 hex characters.
 */
export function createIdentityVerification(mobileApps: Pick<MobileAppsRepo, 'identityVerifiers'>) {
  return async function requireVerifiedIdentity(
    caller: JourneyCallerInfo,
    externalUserId: string,
    userHash: string | undefined,
    attempts: HashAttempts,
  ): Promise<void> {
    if (caller.channel !== 'browser' || !caller.app) return;
    const verifiers = await mobileApps.identityVerifiers(caller.organization.id);
    if (verifiers.length === 0) return;
    const own = verifiers.find((v) => v.appId === caller.app!.id);
    if (!own) {
      throw forbidden(
        'IDENTITY_VERIFICATION_REQUIRED',
        'identity verification is on for this organization: call identify and opt-in from browsers through an app that has it on, or with the mobile app key',
      );
    }
    if (userHash === undefined) {
      throw unauthenticated(
        'USER_HASH_REQUIRED',
        'identity verification is on for this app: send userHash, the HMAC-SHA256 of externalUserId under the identity secret',
      );
    }
    attempts.check();
    // Both sides are 32 bytes (64 hex characters).
    if (!timingSafeEqual(userHashOf(own.secret, externalUserId), Buffer.from(userHash, 'hex'))) {
      attempts.fail();
      throw unauthenticated(
        'USER_HASH_INVALID',
        "userHash does not match externalUserId under this app's identity secret",
      );
    }
  };
}

export type RequireVerifiedIdentity = ReturnType<typeof createIdentityVerification>;
