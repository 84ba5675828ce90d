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
import { actingMember } from './acting-member.js';
import { errors, orgParams, security, tags } from './route-docs.js';

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
  const acting = actingMember(accounts);

  app.get(
    '/me/sessions',
    {
      schema: {
        tags,
        security,
        summary: "The signed-in user's console sessions, most recently used first",
        response: { 200: z.array(sessionSchema), ...errors },
      },
    },
    async (request) => (await accounts.sessions.listOf(request.consoleSession!)).map(toSessionJson),
  );

  app.delete(
    '/me/sessions/:sessionId',
    {
      schema: {
        tags,
        security,
        summary: 'End one of your sessions (ending this one signs you out)',
        params: z.object({ sessionId: idSchema }),
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const current = await accounts.sessions.endOwn(request.consoleSession!, request.params.sessionId, request.ip);
      if (current) jar.clear(reply, SESSION_COOKIE, '/');
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/organizations/:orgId/members/:userId/sessions',
    {
      schema: {
        tags,
        security,
        summary: "A member's console sessions, most recently used first (owners)",
        params: memberParams,
        response: { 200: z.array(sessionSchema), ...errors },
      },
    },
    async (request) => {
      const { caller } = await acting(request, request.params.orgId);
      const { userId } = request.params;
      return (await accounts.sessions.listOfMember(caller, userId, request.consoleSession!.id)).map(toSessionJson);
    },
  );

  app.delete(
    '/organizations/:orgId/members/:userId/sessions',
    {
      schema: {
        tags,
        security,
        summary: "End every console session of a member (owners); ending one's own signs out",
        params: memberParams,
        response: { 200: z.object({ ended: z.number().int() }), ...errors },
      },
    },
    async (request, reply) => {
      const { caller, actor } = await acting(request, request.params.orgId);
      const ended = await accounts.sessions.endAllOfMember(caller, request.params.userId, actor.ip);
      if (request.params.userId === caller.member.userId) jar.clear(reply, SESSION_COOKIE, '/');
      return { ended };
    },
  );
};
