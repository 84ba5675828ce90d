// Operator routes for an organization's import jobs (the `signpost import` command): start one,
// list them, read one, cancel one; the same service as the Service API's, for the organization in
// the path.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ImportsService } from '../../core/imports/index.js';
import { idSchema } from '../schemas/common.js';
import { csvJobRoute, IMPORTS_DOC, importJobSchema, startImportBody, toImportJobJson } from '../schemas/import-job.js';
import { pageQuery } from '../schemas/paging.js';
import { operatorErrors, operatorPage, orgParams, security, tags } from './operator-doc.js';

const jobParams = z.object({ orgId: idSchema, id: idSchema });

export const adminImportRoutes: FastifyPluginAsyncZod<{ imports: ImportsService['operator'] }> = async (
  app,
  { imports },
) => {
  app.post(
    '/organizations/:orgId/imports',
    {
      schema: {
        tags,
        security,
        summary: "Start importing another link service's links into the organization",
        description: IMPORTS_DOC,
        params: orgParams,
        body: startImportBody,
        response: { 202: importJobSchema, ...operatorErrors },
      },
    },
    async (request, reply) =>
      reply.code(202).send(toImportJobJson(await imports.start(request.params.orgId, request.body))),
  );

  csvJobRoute(
    app,
    '/organizations/:orgId/imports/csv',
    { tags, security, summary: "Start importing a CSV file's links into the organization", params: orgParams },
    operatorErrors,
    (_request, input) => imports.startCsv(input.params.orgId, input),
  );

  operatorPage(
    app,
    '/organizations/:orgId/imports',
    {
      summary: "The organization's import jobs, newest first",
      params: orgParams,
      querystring: z.object(pageQuery),
      item: importJobSchema,
      pageId: 'AdminImportJobPage',
      errors: operatorErrors,
    },
    (page, { orgId }) => imports.list(orgId, page),
    toImportJobJson,
  );

  // One job: read it, or cancel it (answered as it is afterwards).
  const byId = [
    ['GET', '', 'Read an import job', imports.get],
    ['POST', '/cancel', 'Cancel an import job (the links imported so far stay)', imports.cancel],
  ] as const;
  for (const [method, suffix, summary, run] of byId) {
    app.route({
      method,
      url: `/organizations/:orgId/imports/:id${suffix}`,
      schema: { tags, security, summary, params: jobParams, response: { 200: importJobSchema, ...operatorErrors } },
      handler: async (request) => toImportJobJson(await run(request.params.orgId, request.params.id)),
    });
  }
};
