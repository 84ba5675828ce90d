// Notices to an organization: things it must be told that happened without its request (its
// webhook endpoint disabled after repeated failures, for one). Read through the operator API now,
// the console later.
import type { Sql } from './postgres.js';

export interface Notice {
  id: number;
  organizationId: number;
  code: string;
  message: string;
  createdAt: Date;
}

export function createNoticesRepo({ sql }: { sql: Sql }) {
  return {
    async add(organizationId: number, code: string, message: string): Promise<void> {
      await sql`insert into organization_notices (organization_id, code, message) values (${organizationId}, ${code}, ${message})`;
    },

    /** The newest first. */
    async list(organizationId: number, limit = 100): Promise<Notice[]> {
      const rows = await sql<
        { id: number; organization_id: number; code: string; message: string; created_at: Date }[]
      >`
        select id, organization_id, code, message, created_at from organization_notices
        where organization_id = ${organizationId} order by id desc limit ${limit}`;
      return rows.map((r) => ({
        id: r.id,
        organizationId: r.organization_id,
        code: r.code,
        message: r.message,
        createdAt: r.created_at,
      }));
    },
  };
}

export type NoticesRepo = ReturnType<typeof createNoticesRepo>;
