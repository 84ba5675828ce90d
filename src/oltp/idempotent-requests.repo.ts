// The first answer to a request sent with an Idempotency-Key, kept 24 hours per organization and
// operation. A row without an answer is a request under way.
import type { Sql } from './postgres.js';

export interface StoredAnswer {
  requestHash: string;
  /** null while the first request is under way. */
  statusCode: number | null;
  response: unknown;
}

const KEEP = '24 hours';

export function createIdempotentRequestsRepo({ sql }: { sql: Sql }) {
  return {
    /** Claims the key for a new request; the stored answer (or the one under way) when it is taken. */
    async claim(
      organizationId: number,
      operation: string,
      key: string,
      requestHash: string,
    ): Promise<StoredAnswer | undefined> {
      // Keys past their day are forgotten first, so the key is free again.
      await sql`
        delete from idempotent_requests
        where organization_id = ${organizationId} and created_at < now() - ${KEEP}::interval`;
      const claimed = await sql`
        insert into idempotent_requests ${sql({ organization_id: organizationId, operation, key, request_hash: requestHash })}
        on conflict do nothing returning key`;
      if (claimed.length > 0) return undefined;
      const [row] = await sql<{ request_hash: string; status_code: number | null; response: unknown }[]>`
        select request_hash, status_code, response from idempotent_requests
        where organization_id = ${organizationId} and operation = ${operation} and key = ${key}`;
      // Gone between the two statements (its request failed): the caller tries as new.
      return row && { requestHash: row.request_hash, statusCode: row.status_code, response: row.response };
    },

    async answer(organizationId: number, operation: string, key: string, statusCode: number, response: unknown) {
      await sql`
        update idempotent_requests set status_code = ${statusCode}, response = ${sql.json(response as never)}
        where organization_id = ${organizationId} and operation = ${operation} and key = ${key}`;
    },

    /** Frees the key of a request that failed, so a retry runs it again. */
    async release(organizationId: number, operation: string, key: string) {
      await sql`
        delete from idempotent_requests
        where organization_id = ${organizationId} and operation = ${operation} and key = ${key} and status_code is null`;
    },
  };
}

export type IdempotentRequestsRepo = ReturnType<typeof createIdempotentRequestsRepo>;
