// Operator view of the web SDK's Android intent debug reports (POST /api/v1/sdk/web/deeplink/
// debug-scheme): newest first, optionally for one app.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebSdkDataService } from '../../core/deeplinks/web-sdk.js';
import { errorBodySchema, idSchema, nullableStrings } from '../schemas/common.js';

const reportSchema = z
  .object({
    id: z.number().int(),
    organizationId: z.number().int().nullable(),
    appId: z.number().int().nullable(),
    ...nullableStrings(
      'token',
      'appUrl',
      'schemeEnd',
      'pathPart',
      'androidPackage',
      'appScheme',
      'intentUrl',
      'userAgent',
    ),
    createdAt: z.string(),
  })
  .meta({ id: 'DebugSchemeReport' });

export const adminDebugSchemeRoutes: FastifyPluginAsyncZod<{ webSdk: WebSdkDataService }> = async (app, { webSdk }) => {
  app.get(
    '/debug-scheme-reports',
    {
      schema: {
        summary: 'Android intent debug reports from the web SDK, newest first',
        querystring: z.object({
          appId: idSchema.optional(),
          limit: z.coerce.number().int().min(1).max(500).default(50),
        }),
        response: { 200: z.object({ content: z.array(reportSchema) }), 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const reports = await webSdk.debugSchemeReports({ appId: request.query.appId, limit: request.query.limit });
      return { content: reports.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
    },
  );
};
