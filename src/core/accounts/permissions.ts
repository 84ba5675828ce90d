// What each member role may do in its organization. Every console action names one permission,
// and the core service refuses it here, whatever page or client asked. Service API keys and the
// operator act for the whole organization and carry no role.
import { forbidden } from '../../shared/errors.js';
import type { Role } from '../../shared/roles.js';
import type { Caller } from '../caller.js';

export type Permission =
  | 'statistics.read' // every statistic and dashboard
  | 'links.read'
  | 'links.write' // short URLs, campaigns, QR codes
  | 'apps.write' // mobile apps, deep-link settings
  | 'domains.write'
  | 'keys.manage' // Service API keys and the IP allow-list
  | 'webhooks.manage'
  | 'members.read'
  | 'members.manage' // add, remove, change roles (owners only by owners)
  | 'audit.read'
  | 'sessions.manage' // end a member's console sessions
  | 'organization.manage'; // name, ownership

const ANALYST: Permission[] = ['statistics.read', 'links.read', 'members.read'];
const DEVELOPER: Permission[] = [
  ...ANALYST,
  'links.write',
  'apps.write',
  'domains.write',
  'keys.manage',
  'webhooks.manage',
];
const ADMIN: Permission[] = [...DEVELOPER, 'members.manage', 'audit.read'];
const OWNER: Permission[] = [...ADMIN, 'organization.manage', 'sessions.manage'];

const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set(OWNER),
  admin: new Set(ADMIN),
  developer: new Set(DEVELOPER),
  analyst: new Set(ANALYST),
};

const can = (role: Role, permission: Permission): boolean => GRANTS[role].has(permission);

/** The permissions of a role, for the console to show what it may offer (the server still checks). */
export const permissionsOf = (role: Role): Permission[] => [...GRANTS[role]];

/** Refuses a console member whose role lacks the permission; other channels pass. */
export function authorize(caller: Pick<Caller, 'member'>, permission: Permission): void {
  const member = caller.member;
  if (member && !can(member.role, permission)) {
    throw forbidden('ROLE_FORBIDDEN', `the ${member.role} role may not do this (${permission} is needed)`);
  }
}
