// User identities of identify for the organization's own systems, decrypted (the only place phone
// and email leave the server in plaintext), and their consent history, which Korean law requires a
// business to be able to show: every flag change with its time, call and kind of caller.
import { notFound } from '../../shared/errors.js';
import type { ConsentChange, JourneyUser, JourneyUsersRepo } from '../../oltp/journey-users.repo.js';
import { invalidField } from '../field-error.js';
import { emailIndexForm, normalizeEmail, normalizePhone } from './contact-fields.js';

export type { JourneyUser };

export interface UsersCaller {
  organization: { id: number };
}

export function createJourneyUsersService(deps: {
  users: Pick<JourneyUsersRepo, 'get' | 'findByContact' | 'consentHistory'>;
}) {
  const { users } = deps;

  async function userOrThrow(caller: UsersCaller, externalUserId: string): Promise<JourneyUser> {
    const user = await users.get(caller.organization.id, externalUserId);
    if (!user) throw notFound('USER_NOT_FOUND', `no user ${externalUserId}`);
    return user;
  }

  return {
    /** Exactly one of phone or email; matched through a keyed hash, never by decrypting every record. */
    async findByContact(
      caller: UsersCaller,
      by: { phone?: string | undefined; email?: string | undefined },
    ): Promise<JourneyUser[]> {
      const { phone, email } = by;
      if ((phone === undefined) === (email === undefined)) throw invalidField('', 'send exactly one of phone or email');
      if (phone !== undefined) {
        const normal = normalizePhone(phone);
        if (!normal) throw invalidField('phone', 'must be a Korean mobile number or an E.164 number');
        return users.findByContact(caller.organization.id, { phone: normal });
      }
      const normal = normalizeEmail(email!);
      if (!normal) throw invalidField('email', 'must be an email address');
      return users.findByContact(caller.organization.id, { email: emailIndexForm(normal) });
    },

    /** The user with the latest 100 consent changes, newest first. */
    async getWithHistory(
      caller: UsersCaller,
      externalUserId: string,
    ): Promise<{ user: JourneyUser; history: ConsentChange[] }> {
      const user = await userOrThrow(caller, externalUserId);
      const history = await users.consentHistory(user.id, { page: 0, size: 100 });
      return { user, history: history.items };
    },

    /** One page of the user's consent history, newest first. */
    async consentHistory(
      caller: UsersCaller,
      externalUserId: string,
      page: { page: number; size: number },
    ): Promise<{ items: ConsentChange[]; total: number }> {
      const user = await userOrThrow(caller, externalUserId);
      return users.consentHistory(user.id, page);
    },
  };
}

export type JourneyUsersService = ReturnType<typeof createJourneyUsersService>;
