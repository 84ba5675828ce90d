// identify (upsert of the user identity record by externalUserId) and opt-in (consent flags only).
// Phone and email are sealed at rest and never shown in plaintext to SDK callers (they get a
// masked form). A browser names the app by its public id alone, which anyone can copy: it hears
// back only what it sent itself, never a stored value, and once identity verification is on it
// must prove the member id (identity-verification.ts).
import { notFound } from '../../shared/errors.js';
import {
  CONSENT_FLAGS,
  type ConsentChange,
  type ConsentFlag,
  type JourneyUser,
  type JourneyUsersRepo,
} from '../../oltp/journey-users.repo.js';
import { invalidField } from '../field-error.js';
import { emailIndexForm, maskEmail, maskPhone } from './contact-fields.js';
import type { HashAttempts, RequireVerifiedIdentity } from './identity-verification.js';
import type { JourneyCallerInfo } from './journey-caller.js';

export { CONSENT_FLAGS };
export type { ConsentChange, ConsentFlag };

export type ConsentInput = Partial<Record<ConsentFlag, boolean | null | undefined>>;

/** identify's fields: undefined keeps the stored value; phone and email come normalised. */
export interface IdentifyInput extends ConsentInput {
  externalUserId: string;
  name?: string | undefined;
  phone?: string | undefined;
  email?: string | undefined;
  pushIdentify?: string | undefined;
  userHash?: string | undefined;
}

export interface OptInInput extends ConsentInput {
  externalUserId: string;
  userHash?: string | undefined;
}

/** How the call reached us: its request id (for the consent history) and its hash attempts. */
export interface IdentityCall {
  requestId: string;
  hashAttempts: HashAttempts;
}

/** The record as the caller may see it: phone and email masked; a browser's timestamps are null. */
export interface IdentityView extends Record<ConsentFlag, boolean | null> {
  externalUserId: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  pushIdentify: string | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  /** The consent flags this call changed; empty for browsers. */
  consentChanges: ConsentChange[];
}

interface SentFields {
  name?: string | undefined;
  phone?: string | undefined;
  email?: string | undefined;
  pushIdentify?: string | undefined;
  consents: Partial<Record<ConsentFlag, boolean>>;
}

function consentsOf(input: ConsentInput): Partial<Record<ConsentFlag, boolean>> {
  const out: Partial<Record<ConsentFlag, boolean>> = {};
  for (const f of CONSENT_FLAGS) {
    const v = input[f];
    if (typeof v === 'boolean') out[f] = v;
  }
  return out;
}

/** The record and the changes for a caller with the app key; for a browser, only what it sent. */
function viewFor(
  caller: JourneyCallerInfo,
  user: JourneyUser,
  changes: ConsentChange[],
  sent: SentFields,
): IdentityView {
  if (caller.channel === 'browser') {
    return {
      externalUserId: user.externalUserId,
      name: sent.name ?? null,
      phone: sent.phone === undefined ? null : maskPhone(sent.phone),
      email: sent.email === undefined ? null : maskEmail(sent.email),
      pushIdentify: sent.pushIdentify ?? null,
      ...(Object.fromEntries(CONSENT_FLAGS.map((f) => [f, sent.consents[f] ?? null])) as Record<
        ConsentFlag,
        boolean | null
      >),
      createdAt: null,
      updatedAt: null,
      consentChanges: [],
    };
  }
  return {
    externalUserId: user.externalUserId,
    name: user.name,
    phone: user.phone === null ? null : maskPhone(user.phone),
    email: user.email === null ? null : maskEmail(user.email),
    pushIdentify: user.pushIdentify,
    ...user.consents,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    consentChanges: changes,
  };
}

export function createJourneyIdentityService(deps: {
  users: Pick<JourneyUsersRepo, 'upsert' | 'setConsents'>;
  requireVerifiedIdentity: RequireVerifiedIdentity;
}) {
  const audit = (caller: JourneyCallerInfo, source: 'identify' | 'opt-in', call: IdentityCall) => ({
    source,
    channel: caller.channel,
    appId: caller.app?.id ?? null,
    requestId: call.requestId,
  });

  return {
    /** Creates the record on the first call for an externalUserId; later calls update only the fields sent. */
    async identify(
      caller: JourneyCallerInfo,
      input: IdentifyInput,
      call: IdentityCall,
    ): Promise<{ action: 'created' | 'updated'; view: IdentityView }> {
      await deps.requireVerifiedIdentity(caller, input.externalUserId, input.userHash, call.hashAttempts);
      const sent: SentFields = {
        name: input.name,
        phone: input.phone,
        email: input.email,
        pushIdentify: input.pushIdentify,
        consents: consentsOf(input),
      };
      const result = await deps.users.upsert(
        caller.organization.id,
        input.externalUserId,
        { ...sent, emailIndexForm: input.email === undefined ? undefined : emailIndexForm(input.email) },
        audit(caller, 'identify', call),
      );
      return { action: result.action, view: viewFor(caller, result.user, result.changes, sent) };
    },

    /** Changes only the consent flags sent (at least one); the user must have been identified. */
    async optIn(caller: JourneyCallerInfo, input: OptInInput, call: IdentityCall): Promise<IdentityView> {
      const consents = consentsOf(input);
      if (Object.keys(consents).length === 0) {
        throw invalidField('', `send at least one consent flag (${CONSENT_FLAGS.join(', ')}) as true or false`);
      }
      await deps.requireVerifiedIdentity(caller, input.externalUserId, input.userHash, call.hashAttempts);
      const result = await deps.users.setConsents(
        caller.organization.id,
        input.externalUserId,
        consents,
        audit(caller, 'opt-in', call),
      );
      if (!result) throw notFound('USER_NOT_FOUND', `no user ${input.externalUserId}: call identify first`);
      return viewFor(caller, result.user, result.changes, { consents });
    },
  };
}

export type JourneyIdentityService = ReturnType<typeof createJourneyIdentityService>;
