// The signed-in member inside the organization a console route names: the caller every core
// service takes (with their role), and the actor the audit trail records (with their address).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AccountServices } from '../../core/accounts/index.js';
import { type ConsoleRequest, type ConsoleRouteDoc, consoleRoute } from './console-route.js';

export function actingMember(accounts: AccountServices) {
  return async (request: FastifyRequest, orgId: number) => {
    const caller = await accounts.console.callerIn(request.consoleSession!, orgId);
    return { caller, actor: { type: 'user' as const, userId: caller.member.userId, ip: request.ip } };
  };
}

export type ActingMember = Awaited<ReturnType<ReturnType<typeof actingMember>>>;

/**
 * Registers console routes in the organization their path names (`:orgId`): each handler gets the
 * signed-in member acting there, then answers as `consoleRoute` says.
 */
export function memberRoutes(app: Parameters<FastifyPluginAsyncZod>[0], accounts: AccountServices) {
  const acting = actingMember(accounts);
  return <P extends z.ZodType<{ orgId: number }>, B extends z.ZodType>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    doc: ConsoleRouteDoc<P, B> & { params: P },
    run: (member: ActingMember, request: ConsoleRequest<P, B>, reply: FastifyReply) => Promise<unknown>,
  ): void =>
    consoleRoute<P, B>(app, method, url, doc, async (request, reply) =>
      run(await acting(request, request.params.orgId), request, reply),
    );
}
