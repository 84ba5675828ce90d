// The audit trail of security-relevant actions: who did what to which organization, when and
// from where. The client address is sealed like other PII.
import type { AuditLogQuery, AuditLogRepo, AuditRecord } from '../../oltp/audit-log.repo.js';
import type { SecretBox } from '../../shared/secret-box.js';

/** Who acted: the operator (operator API, CLI), a signed-in user, a partner's sign-in, or the service. */
export type Actor =
  | { type: 'operator'; ip?: string | undefined }
  | { type: 'user'; userId: number; ip?: string | undefined }
  | { type: 'partner'; partnerId: number; ip?: string | undefined }
  /** A Service API key of the organization: the key's id goes into the entry's details. */
  | { type: 'api_key'; apiKeyId: number; ip?: string | undefined }
  | { type: 'system' };

/** Every action the trail records; the console filters its log by one of them. */
export const AUDIT_ACTIONS = [
  'sign_in',
  'sign_out',
  'sign_out.everywhere',
  'session.ended',
  'member.sessions_ended',
  'login_link.issued',
  'sso.linked',
  'sso.signup',
  'member.added',
  'member.removed',
  'member.role_changed',
  'api_key.issued',
  'api_key.regenerated',
  'api_key.deleted',
  'ip_allowlist.changed',
  'webhook.changed',
  'webhook.secret_rotated',
  'webhook.removed',
  'partner.registered',
  'partner.updated',
  'partner.deleted',
  'partner.secret_rotated',
  'goal_type.added',
  'goal_type.removed',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditFacts {
  organizationId?: number | null | undefined;
  target?: string | undefined;
  details?: Record<string, unknown> | undefined;
}

/** The entry's details, with the partner or key that acted when the actor is one. */
function actorDetails(actor: Actor, details: Record<string, unknown> = {}): Record<string, unknown> {
  if (actor.type === 'partner') return { partnerId: actor.partnerId, ...details };
  if (actor.type === 'api_key') return { apiKeyId: actor.apiKeyId, ...details };
  return details;
}

export function createAuditTrail(deps: { repo: AuditLogRepo; secretBox: SecretBox; clock: () => Date }) {
  return {
    async record(actor: Actor, action: AuditAction, facts: AuditFacts = {}): Promise<void> {
      const ip = actor.type === 'system' ? undefined : actor.ip;
      await deps.repo.append(
        {
          organizationId: facts.organizationId ?? null,
          actorType: actor.type,
          actorUserId: actor.type === 'user' ? actor.userId : null,
          action,
          target: facts.target ?? null,
          details: actorDetails(actor, facts.details),
          ipSealed: ip ? deps.secretBox.seal(ip) : null,
        },
        deps.clock(),
      );
    },

    /** Newest first, narrowed by the query's filters and paged by id. */
    list(organizationId: number, query: AuditLogQuery & { action?: AuditAction | undefined }): Promise<AuditRecord[]> {
      return deps.repo.list(organizationId, query);
    },
  };
}

export type AuditTrail = ReturnType<typeof createAuditTrail>;
