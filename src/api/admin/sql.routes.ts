// One read-only ClickHouse query for the operator, streamed back as JSONEachRow, CSV (with a
// header row) or Parquet: the way into the embedded engine's data, which no client can reach.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SQL_FORMATS, type ReadOnlySql, type SqlFormat } from '../../core/data-access/read-only-sql.js';
import { errorBodySchema } from '../schemas/common.js';

const OUTPUTS: Record<SqlFormat, { type: string; extension: string }> = {
  JSONEachRow: { type: 'application/x-ndjson; charset=utf-8', extension: 'ndjson' },
  CSV: { type: 'text/csv; charset=utf-8', extension: 'csv' },
  Parquet: { type: 'application/vnd.apache.parquet', extension: 'parquet' },
};

export const adminSqlRoutes: FastifyPluginAsyncZod<{ readOnlySql: ReadOnlySql }> = async (app, { readOnlySql }) => {
  app.post(
    '/sql',
    {
      schema: {
        summary: 'Run one read-only ClickHouse query',
        description:
          'One statement that only reads (SELECT, WITH, SHOW, DESCRIBE, EXPLAIN, EXISTS), run with readonly = 1, at most 30 s, ' +
          '1,000,000 result rows and 2 GB of memory. With organizationId, every table and view with an organization_id column shows only ' +
          "that organization's rows. The answer streams in the format asked for (CSV with a header row). Anything else, and any refusal " +
          'by ClickHouse (writes, DDL, table functions, limits, syntax), is 400 with the error body. See docs/clickhouse.md for the tables.',
        body: z.object({
          query: z
            .string()
            .min(1)
            .max(100_000)
            .describe('one SQL statement; no SETTINGS, FORMAT or INTO OUTFILE clause'),
          format: z.enum(SQL_FORMATS).default('JSONEachRow'),
          organizationId: z.number().int().positive().optional().describe("only this organization's rows"),
        }),
        produces: ['application/x-ndjson', 'text/csv', 'application/vnd.apache.parquet'],
        // A stream is sent as it comes, never through a serialiser.
        response: {
          200: z.any().describe('the rows, in the format asked for'),
          400: errorBodySchema,
          401: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const { query, format, organizationId } = request.body;
      const rows = await readOnlySql.run({
        query,
        format,
        ...(organizationId === undefined ? {} : { organizationId }),
      });
      return reply
        .header('content-type', OUTPUTS[format].type)
        .header('content-disposition', `inline; filename="signpost-query.${OUTPUTS[format].extension}"`)
        .header('cache-control', 'no-store')
        .send(rows);
    },
  );
};
