// Service API: import jobs (/api/v1/service/imports): start one (202, it runs in the background),
// or from a CSV file (/imports/csv, the file's rows stored with the job), list them, read one, cancel one.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ImportsService } from '../../core/imports/index.js';
import { callerOf } from '../request-caller.js';
import { commonErrorResponses } from '../schemas/common.js';
import { csvJobRoute, IMPORTS_DOC, importJobSchema, startImportBody, toImportJobJson } from '../schemas/import-job.js';
import { answerById, listPage, readById } from './by-id.routes.js';
import { security } from './route-docs.js';

export const importRoutes: FastifyPluginAsyncZod<{ imports: ImportsService['jobs'] }> = async (app, { imports }) => {
  const tags = ['service: imports'];

  app.post(
    '/imports',
    {
      schema: {
        tags,
        security,
        summary: 'Start importing the links of another link service',
        description: IMPORTS_DOC,
        body: startImportBody,
        response: { 202: importJobSchema, ...commonErrorResponses },
      },
    },
    async (request, reply) =>
      reply.code(202).send(toImportJobJson(await imports.start(callerOf(request), request.body))),
  );

  csvJobRoute(
    app,
    '/imports/csv',
    { tags, security, summary: 'Start importing the links of a CSV file' },
    commonErrorResponses,
    (request, input) => imports.startCsv(callerOf(request), input),
  );

  listPage(
    app,
    '/imports',
    {
      tags,
      security,
      summary: 'List import jobs, newest first',
      filter: {},
      item: importJobSchema,
      pageId: 'ImportJobPage',
    },
    (caller, _filter, page) => imports.list(caller, page),
    toImportJobJson,
  );

  readById(
    app,
    '/imports/:id',
    { tags, security, summary: 'Read an import job', response: importJobSchema },
    async (caller, id) => toImportJobJson(await imports.get(caller, id)),
  );

  answerById(
    app,
    'post',
    '/imports/:id/cancel',
    {
      tags,
      security,
      summary: 'Cancel an import job',
      description: 'The links imported so far stay. A job that has ended is answered as it is.',
      response: importJobSchema,
    },
    async (caller, id) => toImportJobJson(await imports.cancel(caller, id)),
  );
};
