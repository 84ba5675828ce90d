// When each Service API key of an organization was last used, from the api_requests table.
import type { ClickHouseClient } from './clickhouse.js';

export function createApiKeyUsage(client: ClickHouseClient) {
  return {
    async lastUsed(organizationId: number): Promise<Map<number, Date>> {
      const result = await client.query({
        query: `SELECT api_key_id, toUnixTimestamp64Milli(max(ts)) AS last FROM api_requests
                WHERE organization_id = {organizationId:UInt64} GROUP BY api_key_id`,
        query_params: { organizationId },
        format: 'JSONEachRow',
      });
      const rows = await result.json<{ api_key_id: string | number; last: string | number }>();
      return new Map(rows.map((r) => [Number(r.api_key_id), new Date(Number(r.last))]));
    },
  };
}

export type ApiKeyUsage = ReturnType<typeof createApiKeyUsage>;
