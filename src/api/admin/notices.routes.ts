// Operator route for an organization's notices (its webhook endpoint disabled after repeated
// failures, for one), newest first.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { NoticesService } from '../../core/organizations/notices.service.js';
import { errorBodySchema } from '../schemas/common.js';
import { operatorAnswer, orgParams } from './operator-doc.js';

const noticeSchema = z
  .object({ id: z.number().int(), code: z.string(), message: z.string(), createdAt: z.string() })
  .meta({ id: 'OrganizationNotice' });

export const adminNoticeRoutes: FastifyPluginAsyncZod<{ notices: NoticesService }> = async (app, { notices }) => {
  operatorAnswer(
    app,
    'GET',
    '/organizations/:orgId/notices',
    {
      summary: "The organization's notices, newest first (at most 100)",
      params: orgParams,
      response: z.object({ content: z.array(noticeSchema) }).meta({ id: 'OrganizationNotices' }),
      errors: { 401: errorBodySchema, 404: errorBodySchema },
    },
    async ({ orgId }) => ({
      content: (await notices.list(orgId)).map((n) => ({
        id: n.id,
        code: n.code,
        message: n.message,
        createdAt: n.createdAt.toISOString(),
      })),
    }),
  );
};
