// Who is calling the console: the session behind the cookie, and, inside one organization, the
// member's role. An organization the user does not belong to answers like one that does not
// exist, so ids reveal nothing.
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type { Membership, User, UsersRepo } from '../../oltp/users.repo.js';
import { notFound } from '../../shared/errors.js';
import type { Caller } from '../caller.js';
import type { AuditLogQuery, AuditRecord } from '../../oltp/audit-log.repo.js';
import type { AuditAction, AuditTrail } from './audit-trail.js';
import { authorize, permissionsOf, type Permission } from './permissions.js';
import type { ActiveSession, Sessions } from './console-sessions.service.js';

/** A console member inside one organization: the Caller every core service takes. */
export interface ConsoleCaller extends Caller {
  app: null;
  channel: 'console';
  apiKeyId: null;
  member: NonNullable<Caller['member']>;
}

/** An audit entry with the acting user as the console shows them (null: no user acted, or the account is gone). */
export interface AuditView extends AuditRecord {
  actor: { email: string; name: string | null } | null;
}

export interface ConsoleOverview {
  user: User;
  memberships: (Membership & { permissions: Permission[] })[];
  csrfToken: string;
  expiresAt: Date;
}

export function createConsoleAccess(deps: {
  sessions: Sessions;
  users: UsersRepo;
  organizations: OrganizationsRepo;
  audit: AuditTrail;
}) {
  return {
    session: (token: string): Promise<ActiveSession | undefined> => deps.sessions.active(token),

    async callerIn(session: ActiveSession, organizationId: number): Promise<ConsoleCaller> {
      const role = await deps.users.roleIn(organizationId, session.user.id);
      const organization = role && (await deps.organizations.get(organizationId));
      if (!role || !organization)
        throw notFound('ORGANIZATION_NOT_FOUND', `organization ${organizationId} does not exist`);
      return { organization, app: null, channel: 'console', apiKeyId: null, member: { userId: session.user.id, role } };
    },

    /** The organization's audit log, newest first, filtered and paged: admins and owners only. */
    async auditLog(
      caller: ConsoleCaller,
      query: AuditLogQuery & { action?: AuditAction | undefined },
    ): Promise<AuditView[]> {
      authorize(caller, 'audit.read');
      const entries = await deps.audit.list(caller.organization.id, query);
      const ids = [...new Set(entries.flatMap((e) => (e.actorUserId === null ? [] : [e.actorUserId])))];
      const users = new Map((await deps.users.getMany(ids)).map((u) => [u.id, u]));
      return entries.map((e) => {
        const user = e.actorUserId === null ? undefined : users.get(e.actorUserId);
        return { ...e, actor: user ? { email: user.email, name: user.name } : null };
      });
    },

    async overview(session: ActiveSession): Promise<ConsoleOverview> {
      const memberships = await deps.users.membershipsOf(session.user.id);
      return {
        user: session.user,
        memberships: memberships.map((m) => ({ ...m, permissions: permissionsOf(m.role) })),
        csrfToken: session.csrfToken,
        expiresAt: session.expiresAt,
      };
    },
  };
}

export type ConsoleAccess = ReturnType<typeof createConsoleAccess>;
