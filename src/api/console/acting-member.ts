// The signed-in member inside the organization a console route names: the caller every core
// service takes (with their role), and the actor the audit trail records (with their address).
import type { FastifyRequest } from 'fastify';
import type { AccountServices } from '../../core/accounts/index.js';

export function actingMember(accounts: AccountServices) {
  return async (request: FastifyRequest, orgId: number) => {
    const caller = await accounts.console.callerIn(request.consoleSession!, orgId);
    return { caller, actor: { type: 'user' as const, userId: caller.member.userId, ip: request.ip } };
  };
}
