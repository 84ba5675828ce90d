// The audit log: security-relevant actions, appended by the core layer and read by the console.
import type { Sql } from './postgres.js';

export type ActorType = 'operator' | 'user' | 'partner' | 'api_key' | 'system';

export interface AuditEntry {
  organizationId: number | null;
  actorType: ActorType;
  actorUserId: number | null;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
  ipSealed: string | null;
}

/** A page of the log: newest first, below `beforeId`; every filter given must hold. */
export interface AuditLogQuery {
  limit: number;
  beforeId?: number | undefined;
  /** The exact action. */
  action?: string | undefined;
  actorUserId?: number | undefined;
  /** From this moment, inclusive. */
  from?: Date | undefined;
  /** Up to this moment, exclusive. */
  to?: Date | undefined;
}

export interface AuditRecord extends Omit<AuditEntry, 'ipSealed'> {
  id: number;
  createdAt: Date;
}

interface Row {
  id: number;
  organization_id: number | null;
  actor_type: ActorType;
  actor_user_id: number | null;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
  created_at: Date;
}

const toRecord = (r: Row): AuditRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  actorType: r.actor_type,
  actorUserId: r.actor_user_id,
  action: r.action,
  target: r.target,
  details: r.details,
  createdAt: r.created_at,
});

export function createAuditLogRepo({ sql }: { sql: Sql }) {
  return {
    async append(entry: AuditEntry, at: Date): Promise<void> {
      await sql`
        insert into audit_log (organization_id, actor_type, actor_user_id, action, target, details, ip_sealed, created_at)
        values (${entry.organizationId}, ${entry.actorType}, ${entry.actorUserId}, ${entry.action}, ${entry.target},
                ${JSON.stringify(entry.details)}::text::jsonb, ${entry.ipSealed}, ${at})`;
    },

    /** Newest first; `beforeId` pages on, the filters narrow in SQL. */
    async list(organizationId: number, q: AuditLogQuery): Promise<AuditRecord[]> {
      const rows = await sql<Row[]>`
        select id, organization_id, actor_type, actor_user_id, action, target, details, created_at from audit_log
        where organization_id = ${organizationId}
          ${q.beforeId === undefined ? sql`` : sql`and id < ${q.beforeId}`}
          ${q.action === undefined ? sql`` : sql`and action = ${q.action}`}
          ${q.actorUserId === undefined ? sql`` : sql`and actor_user_id = ${q.actorUserId}`}
          ${q.from === undefined ? sql`` : sql`and created_at >= ${q.from}`}
          ${q.to === undefined ? sql`` : sql`and created_at < ${q.to}`}
        order by id desc limit ${q.limit}`;
      return rows.map(toRecord);
    },
  };
}

export type AuditLogRepo = ReturnType<typeof createAuditLogRepo>;
