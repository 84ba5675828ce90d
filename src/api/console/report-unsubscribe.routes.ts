// The unsubscribe link of a report's mail, without a session: GET shows what it ends and a button;
// POST ends it, from that button or from a mail program's one-click unsubscribe (RFC 8058: a POST
// of `List-Unsubscribe=One-Click` to the List-Unsubscribe address, from the mail provider's
// servers, so no same-origin rule applies: the signed token is the whole credential).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ReportSubscriptions } from '../../core/reports/report-subscriptions.service.js';
import { languageOf } from './browser-session.js';
import { registerFormParser } from './forms.js';
import { unsubscribePage } from './pages.js';
import { sendPage } from './send-page.js';

const PATH = '/console/reports/unsubscribe';

export const reportUnsubscribeRoutes: FastifyPluginAsyncZod<{ reports: ReportSubscriptions }> = async (
  app,
  { reports },
) => {
  registerFormParser(app);
  // One-click requests may come as multipart/form-data; their body says nothing the token does not.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 16_384 }, (_request, _body, done) =>
    done(null, {}),
  );
  const querystring = z.object({ token: z.string().max(200).default(''), lang: z.string().optional() });
  const noindex = { 'x-robots-tag': 'noindex, nofollow', 'referrer-policy': 'no-referrer' };

  app.get(PATH, { schema: { hide: true, querystring } }, async (request, reply) => {
    const language = languageOf(request);
    const report = await reports.describe(request.query.token);
    const action = `${PATH}?token=${encodeURIComponent(request.query.token)}&lang=${language}`;
    reply.headers(noindex);
    return sendPage(reply, report ? 200 : 404, (nonce) =>
      unsubscribePage({ language, nonce, state: report ? 'confirm' : 'invalid', report, action }),
    );
  });

  app.post(PATH, { schema: { hide: true, querystring } }, async (request, reply) => {
    const language = languageOf(request);
    const ended = await reports.unsubscribe(request.query.token);
    reply.headers(noindex);
    return sendPage(reply, ended ? 200 : 404, (nonce) =>
      unsubscribePage({ language, nonce, state: ended ? 'done' : 'invalid' }),
    );
  });
};
