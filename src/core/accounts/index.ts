// Accounts: people, their memberships and roles, signing in (mail links, partner single sign-on,
// OpenID Connect), console sessions and the audit trail.
import type { AuditTrail } from './audit-trail.js';
import type { ConsoleAccess } from './console-access.js';
import type { MembersService } from './members.service.js';
import type { Sessions } from './console-sessions.service.js';
import type { OidcSignIn } from './oidc-sign-in.service.js';
import type { SignInService } from './sign-in.service.js';
import type { SsoService } from './sso.service.js';

export interface AccountServices {
  signIn: SignInService;
  sso: SsoService;
  /** Sign-in through the company's OpenID Connect provider; undefined when it is not configured. */
  oidc: OidcSignIn | undefined;
  sessions: Sessions;
  members: MembersService;
  console: ConsoleAccess;
  audit: AuditTrail;
}
