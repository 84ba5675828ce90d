// Operator routes for console members (the account is made when the address has none) and for
// one-time sign-in links, so an operator on a machine without mail can get into the console.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountServices } from '../../core/accounts/index.js';
import { idSchema } from '../schemas/common.js';
import { memberSchema, newMemberSchema, toMemberJson } from '../schemas/member.js';
import { operatorConflictErrors as errors, operatorDelete, orgParams } from './operator-doc.js';

export const adminMemberRoutes: FastifyPluginAsyncZod<{ accounts: AccountServices }> = async (app, { accounts }) => {
  const operator = (ip: string) => ({ actor: { type: 'operator' as const, ip }, role: null });

  app.post(
    '/organizations/:orgId/members',
    {
      schema: {
        summary: 'Add a console member (201), or change the role of an existing one (200)',
        params: orgParams,
        body: newMemberSchema,
        response: { 201: memberSchema, 200: memberSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { member, created } = await accounts.members.add(request.params.orgId, request.body, operator(request.ip));
      return reply.code(created ? 201 : 200).send(toMemberJson(member));
    },
  );

  app.get(
    '/organizations/:orgId/members',
    {
      schema: {
        summary: "List an organization's console members",
        params: orgParams,
        response: { 200: z.array(memberSchema), ...errors },
      },
    },
    async (request) => (await accounts.members.list(request.params.orgId, operator(request.ip))).map(toMemberJson),
  );

  operatorDelete(
    app,
    '/organizations/:orgId/members/:userId',
    {
      summary: 'Remove a member (not the last owner)',
      params: orgParams.extend({ userId: idSchema }),
      errors,
      done: 'removed',
    },
    ({ orgId, userId }, ip) => accounts.members.remove(orgId, userId, operator(ip)),
  );

  app.post(
    '/login-links',
    {
      schema: {
        summary: 'A one-time console sign-in link for an existing account, valid 15 minutes',
        body: z.object({ email: z.string().trim().min(3).max(254) }),
        response: { 201: z.object({ url: z.string(), expiresAt: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const link = await accounts.signIn.operatorLink(request.body.email, { type: 'operator', ip: request.ip });
      return reply.code(201).send({ url: link.url, expiresAt: link.expiresAt.toISOString() });
    },
  );
};
