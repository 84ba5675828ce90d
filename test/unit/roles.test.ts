// The role table: what each console role may do. Owners may do everything, each role below
// strictly less; analysts only read; only owners manage the organization itself.
import { describe, expect, it } from 'vitest';
import { authorize, permissionsOf, type Permission } from '../../src/core/accounts/permissions.js';
import { ROLES } from '../../src/shared/roles.js';

const allowed = (role: (typeof ROLES)[number], permission: Permission) => {
  try {
    authorize({ member: { userId: 1, role } }, permission);
    return true;
  } catch {
    return false;
  }
};

describe('console roles', () => {
  it('grants each role a strict superset of the next', () => {
    const [owner, admin, developer, analyst] = ROLES.map((r) => new Set(permissionsOf(r)));
    for (const [bigger, smaller] of [
      [owner!, admin!],
      [admin!, developer!],
      [developer!, analyst!],
    ] as const) {
      expect([...smaller].every((p) => bigger.has(p))).toBe(true);
      expect(bigger.size).toBeGreaterThan(smaller.size);
    }
  });

  it('matches the documented table', () => {
    const table: [Permission, string][] = [
      ['statistics.read', 'owner admin developer analyst'],
      ['links.read', 'owner admin developer analyst'],
      ['links.write', 'owner admin developer'],
      ['apps.write', 'owner admin developer'],
      ['keys.manage', 'owner admin developer'],
      ['webhooks.manage', 'owner admin developer'],
      ['members.manage', 'owner admin'],
      ['audit.read', 'owner admin'],
      ['organization.manage', 'owner'],
    ];
    for (const [permission, roles] of table) {
      expect({ permission, roles: ROLES.filter((r) => allowed(r, permission)).join(' ') }).toEqual({
        permission,
        roles,
      });
    }
  });

  it('lets callers without a member (Service API keys, the operator) through', () => {
    expect(() => authorize({}, 'organization.manage')).not.toThrow();
  });
});
