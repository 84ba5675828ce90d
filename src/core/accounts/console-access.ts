// Who is calling the console: the session behind the cookie, and, inside one organization, the
// member's role. An organization the user does not belong to answers like one that does not
// exist, so ids reveal nothing.
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type { Membership, User, UsersRepo } from '../../oltp/users.repo.js';
import { notFound } from '../../shared/errors.js';
import type { Caller } from '../caller.js';
import type { AuditRecord } from '../../oltp/audit-log.repo.js';
import type { AuditTrail } from './audit-trail.js';
import { authorize, permissionsOf, type Permission } from './roles.js';
import type { ActiveSession, Sessions } from './sessions.js';

/** A console member inside one organization: the Caller every core service takes. */
export interface ConsoleCaller extends Caller {
  app: null;
  channel: 'console';
  apiKeyId: null;
  member: NonNullable<Caller['member']>;
}

export interface ConsoleOverview {
  user: User;
  memberships: (Membership & { permissions: Permission[] })[];
  csrfToken: string;
  expiresAt: Date;
}

export function createConsoleAccess(deps: { sessions: Sessions; users: UsersRepo; organizations: OrganizationsRepo; audit: AuditTrail }) {
  return {
    session: (token: string): Promise<ActiveSession | undefined> => deps.sessions.active(token),

    async callerIn(session: ActiveSession, organizationId: number): Promise<ConsoleCaller> {
      const role = await deps.users.roleIn(organizationId, session.user.id);
      const organization = role && (await deps.organizations.get(organizationId));
      if (!role || !organization) throw notFound('ORGANIZATION_NOT_FOUND', `organization ${organizationId} does not exist`);
      return { organization, app: null, channel: 'console', apiKeyId: null, member: { userId: session.user.id, role } };
    },

    /** The organization's audit log, newest first: admins and owners only. */
    auditLog(caller: ConsoleCaller, page: { limit: number; beforeId?: number | undefined }): Promise<AuditRecord[]> {
      authorize(caller, 'audit.read');
      return deps.audit.list(caller.organization.id, page);
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
