// The signed-in member's console sessions (device, address, when), ending one of them, and an
// owner listing and ending every session of a member. Registered inside the console API context, so the
// session and CSRF rules apply; the core decides whose sessions a caller may touch.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountServices } from '../../core/accounts/index.js';
import type { SessionView } from '../../core/accounts/console-sessions.service.js';
import type { Config } from '../../shared/config.js';
import { idSchema } from '../schemas/common.js';
import { cookieJar, SESSION_COOKIE } from './browser-session.js';
import { memberRoutes } from './acting-member.js';
import { consoleRoute } from './console-route.js';
import { errors, orgParams } from './route-docs.js';

const sessionSchema = z.object({
  id: z.number().int(),
  device: z
    .object({
      browser: z.string(),
      os: z.string(),
      type: z.enum(['Mobile', 'Desktop', 'Tablet']),
    })
    .nullable()
    .describe('read from the user agent the session began with; null when there was none'),
  ip: z.string().nullable().describe('the client address the session began from'),
  method: z.string().describe('how the session began: email, login_link, sso, oidc'),
  createdAt: z.string(),
  lastSeenAt: z.string().describe('last use, recorded at most once a minute'),
  current: z.boolean().describe('the session this request came with'),
});

const memberParams = orgParams.extend({ userId: idSchema });

const toSessionJson = (s: SessionView): z.infer<typeof sessionSchema> => ({
  ...s,
  createdAt: s.createdAt.toISOString(),
  lastSeenAt: s.lastSeenAt.toISOString(),
});

export const consoleSessionRoutes: FastifyPluginAsyncZod<{
  accounts: AccountServices;
  config: Pick<Config, 'server'>;
}> = async (app, { accounts, config }) => {
  const jar = cookieJar(config);
  const memberRoute = memberRoutes(app, accounts);

  consoleRoute(
    app,
    'GET',
    '/me/sessions',
    {
      summary: "The signed-in user's console sessions, most recently used first",
      response: z.array(sessionSchema),
      errors,
    },
    async (request) => (await accounts.sessions.listOf(request.consoleSession!)).map(toSessionJson),
  );

  consoleRoute(
    app,
    'DELETE',
    '/me/sessions/:sessionId',
    {
      summary: 'End one of your sessions (ending this one signs you out)',
      params: z.object({ sessionId: idSchema }),
      status: 204,
      errors,
    },
    async (request, reply) => {
      const current = await accounts.sessions.endOwn(request.consoleSession!, request.params.sessionId, request.ip);
      if (current) jar.clear(reply, SESSION_COOKIE, '/');
    },
  );

  memberRoute(
    'GET',
    '/organizations/:orgId/members/:userId/sessions',
    {
      summary: "A member's console sessions, most recently used first (owners)",
      params: memberParams,
      response: z.array(sessionSchema),
      errors,
    },
    async ({ caller }, request) =>
      (await accounts.sessions.listOfMember(caller, request.params.userId, request.consoleSession!.id)).map(
        toSessionJson,
      ),
  );

  memberRoute(
    'DELETE',
    '/organizations/:orgId/members/:userId/sessions',
    {
      summary: "End every console session of a member (owners); ending one's own signs out",
      params: memberParams,
      response: z.object({ ended: z.number().int() }),
      errors,
    },
    async ({ caller, actor }, request, reply) => {
      const ended = await accounts.sessions.endAllOfMember(caller, request.params.userId, actor.ip);
      if (request.params.userId === caller.member.userId) jar.clear(reply, SESSION_COOKIE, '/');
      return { ended };
    },
  );
};
