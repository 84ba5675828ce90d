// Operator route for an organization's notices (its webhook endpoint disabled after repeated
// failures, for one), newest first.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { NoticesService } from '../../core/organizations/notices.service.js';
import { errorBodySchema } from '../schemas/common.js';
import { orgParams } from './operator-doc.js';

const noticeSchema = z
  .object({ id: z.number().int(), code: z.string(), message: z.string(), createdAt: z.string() })
  .meta({ id: 'OrganizationNotice' });

export const adminNoticeRoutes: FastifyPluginAsyncZod<{ notices: NoticesService }> = async (app, { notices }) => {
  app.get(
    '/organizations/:orgId/notices',
    {
      schema: {
        summary: "The organization's notices, newest first (at most 100)",
        params: orgParams,
        response: {
          200: z.object({ content: z.array(noticeSchema) }).meta({ id: 'OrganizationNotices' }),
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => {
      const list = await notices.list(request.params.orgId);
      return {
        content: list.map((n) => ({
          id: n.id,
          code: n.code,
          message: n.message,
          createdAt: n.createdAt.toISOString(),
        })),
      };
    },
  );
};
