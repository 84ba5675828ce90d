// Members of an organization, as the operator and the console manage them. A console member acts
// within their role: admins manage members but not owners, only owners make or unmake owners,
// and the last owner can neither leave nor be demoted, so no organization is left ownerless.
// Someone a member adds in the console is told by mail, with a link that signs them in.
import type { Member, User, UsersRepo } from '../../oltp/users.repo.js';
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import { conflict, forbidden, notFound } from '../../shared/errors.js';
import { refusedField } from '../field-error.js';
import type { Role } from '../../shared/roles.js';
import { normalizeEmail } from '../journey/contact-fields.js';
import { existingOrganization } from '../organizations/existing-organization.js';
import type { Actor, AuditTrail } from './audit-trail.js';
import { authorize } from './permissions.js';

export type { Member };

/** Who manages members: the operator (no role, full power) or a console member with a role. */
export interface MemberManager {
  actor: Actor;
  /** The acting member's role in this organization; null for the operator. */
  role: Role | null;
}

export function createMembersService(deps: {
  users: UsersRepo;
  organizations: OrganizationsRepo;
  audit: AuditTrail;
  /** Mails a member added in the console: who added them, to which organization, and a sign-in link. */
  invite(member: User, organizationName: string, inviter: string): Promise<void>;
}) {
  const { users, audit } = deps;

  async function check(organizationId: number, by: MemberManager, permission: 'members.read' | 'members.manage') {
    const organization = existingOrganization(await deps.organizations.get(organizationId), organizationId);
    if (by.role !== null && by.actor.type === 'user')
      authorize({ member: { userId: by.actor.userId, role: by.role } }, permission);
    return organization;
  }

  /** Only owners hand out or take away ownership. */
  function mayTouchOwnership(by: MemberManager, ...roles: (Role | null | undefined)[]): void {
    if (by.role !== null && by.role !== 'owner' && roles.includes('owner')) {
      throw forbidden('OWNER_ROLE_RESERVED', 'only an owner can make, change or remove an owner');
    }
  }

  async function memberOf(organizationId: number, userId: number): Promise<Role> {
    const role = await users.roleIn(organizationId, userId);
    if (!role) throw notFound('MEMBER_NOT_FOUND', `user ${userId} is not a member of organization ${organizationId}`);
    return role;
  }

  async function keepAnOwner(organizationId: number, currentRole: Role, nextRole: Role | null): Promise<void> {
    if (currentRole === 'owner' && nextRole !== 'owner' && (await users.ownerCount(organizationId)) <= 1) {
      throw conflict('LAST_OWNER', 'an organization needs an owner: make someone else owner first');
    }
  }

  return {
    async list(organizationId: number, by: MemberManager): Promise<Member[]> {
      await check(organizationId, by, 'members.read');
      return users.members(organizationId);
    },

    /** Adds the member (making the account when the address has none), or sets the role of an existing one. */
    async add(
      organizationId: number,
      input: { email: string; role: Role; name?: string | undefined },
      by: MemberManager,
    ): Promise<{ member: Member; created: boolean }> {
      const organization = await check(organizationId, by, 'members.manage');
      const email = normalizeEmail(input.email);
      if (!email) throw refusedField('EMAIL_INVALID', 'email: not a valid address', 'email', 'not a valid address');
      const { user } = await users.ensure({ email, name: input.name });
      const current = await users.roleIn(organizationId, user.id);
      mayTouchOwnership(by, input.role, current);
      if (current) await keepAnOwner(organizationId, current, input.role);
      const { created, previousRole } = await users.setMembership(organizationId, user.id, input.role);
      const target = `user:${user.id}`;
      if (created) {
        await audit.record(by.actor, 'member.added', { organizationId, target, details: { role: input.role } });
        // The operator hands out login links itself; a member's colleague hears of it by mail.
        if (by.actor.type === 'user') {
          const inviter = await users.get(by.actor.userId);
          await deps.invite(user, organization.name, inviter?.name ?? inviter?.email ?? organization.name);
        }
      } else if (previousRole !== input.role) {
        await audit.record(by.actor, 'member.role_changed', {
          organizationId,
          target,
          details: { from: previousRole, to: input.role },
        });
      }
      const member = (await users.members(organizationId)).find((m) => m.id === user.id)!;
      return { member, created };
    },

    async changeRole(organizationId: number, userId: number, role: Role, by: MemberManager): Promise<void> {
      await check(organizationId, by, 'members.manage');
      const current = await memberOf(organizationId, userId);
      mayTouchOwnership(by, role, current);
      await keepAnOwner(organizationId, current, role);
      await users.setMembership(organizationId, userId, role);
      if (current !== role) {
        await audit.record(by.actor, 'member.role_changed', {
          organizationId,
          target: `user:${userId}`,
          details: { from: current, to: role },
        });
      }
    },

    async remove(organizationId: number, userId: number, by: MemberManager): Promise<void> {
      await check(organizationId, by, 'members.manage');
      const current = await memberOf(organizationId, userId);
      mayTouchOwnership(by, current);
      await keepAnOwner(organizationId, current, null);
      await users.removeMembership(organizationId, userId);
      await audit.record(by.actor, 'member.removed', {
        organizationId,
        target: `user:${userId}`,
        details: { role: current },
      });
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
