// The console's audit filter offers the actions the server records and accepts, no more, no fewer:
// the list the console takes from the OpenAPI document (console/src/api.ts names it AUDIT_ACTIONS).
import { describe, expect, it } from 'vitest';
import { pathsConsoleApiOrganizationsOrgIdAuditLogGetParametersQueryActionValues as CONSOLE_ACTIONS } from '../../console/generated/api-schema.js';
import { AUDIT_ACTIONS } from '../../src/core/accounts/audit-trail.js';

describe('console audit actions', () => {
  it("are the server's audit actions", () => {
    expect([...CONSOLE_ACTIONS].sort()).toEqual([...AUDIT_ACTIONS].sort());
  });
});
