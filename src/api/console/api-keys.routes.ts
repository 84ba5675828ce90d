// The console's developer menu for Service API keys: list, issue (the key shown this once),
// regenerate, delete. Registered inside the console API context, so the session and CSRF rules
// apply; the core checks the member's role.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountServices } from '../../core/accounts/index.js';
import type { ApiKeysService } from '../../core/organizations/api-keys.service.js';
import { apiKeyAccessFields, apiKeyOptionsBody, toApiKeyAccessJson, toApiKeyOptions } from '../schemas/api-key.js';
import { idSchema } from '../schemas/common.js';
import { ipAllowlistBody } from '../schemas/ip-allowlist.js';
import { actingMember } from './acting-member.js';
import { errors, orgParams, security, tags } from './route-docs.js';

const keyParams = orgParams.extend({ keyId: idSchema });
const issuedSchema = z.object({ id: z.number().int(), apiKey: z.string().describe('shown this once') });

export const consoleApiKeyRoutes: FastifyPluginAsyncZod<{
  accounts: AccountServices;
  apiKeys: ApiKeysService;
}> = async (app, { accounts, apiKeys }) => {
  const acting = actingMember(accounts);

  app.get(
    '/organizations/:orgId/api-keys',
    {
      schema: {
        tags,
        security,
        summary: "The organization's Service API keys (never the keys themselves)",
        params: orgParams,
        response: {
          200: z.array(
            z.object({
              id: z.number().int(),
              name: z.string().nullable(),
              prefix: z.string(),
              createdAt: z.string(),
              lastUsedAt: z.string().nullable(),
              ...apiKeyAccessFields,
            }),
          ),
          ...errors,
        },
      },
    },
    async (request) => {
      const { caller } = await acting(request, request.params.orgId);
      return (await apiKeys.list(caller)).map((k) => ({
        id: k.id,
        name: k.name,
        prefix: k.prefix,
        createdAt: k.createdAt.toISOString(),
        lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
        ...toApiKeyAccessJson(k),
      }));
    },
  );

  app.post(
    '/organizations/:orgId/api-keys',
    {
      schema: {
        tags,
        security,
        summary: 'Issue a Service API key (shown this once)',
        params: orgParams,
        body: apiKeyOptionsBody,
        response: { 201: issuedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { caller, actor } = await acting(request, request.params.orgId);
      return reply.code(201).send(await apiKeys.issue(caller, actor, toApiKeyOptions(request.body)));
    },
  );

  app.post(
    '/organizations/:orgId/api-keys/:keyId/regenerate',
    {
      schema: {
        tags,
        security,
        summary: 'A new secret for a key (shown this once); the old one fails at once',
        params: keyParams,
        response: { 201: issuedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { caller, actor } = await acting(request, request.params.orgId);
      return reply.code(201).send(await apiKeys.regenerate(caller, actor, request.params.keyId));
    },
  );

  app.get(
    '/organizations/:orgId/ip-allowlist',
    {
      schema: {
        tags,
        security,
        summary: 'The addresses Service API keys are accepted from (empty: all)',
        params: orgParams,
        response: { 200: z.object({ ips: z.array(z.string()) }), ...errors },
      },
    },
    async (request) => {
      const { caller } = await acting(request, request.params.orgId);
      return { ips: apiKeys.ipAllowlist(caller) };
    },
  );

  app.put(
    '/organizations/:orgId/ip-allowlist',
    {
      schema: {
        tags,
        security,
        summary: 'Replace the IP allow-list of the Service API keys (empty: all addresses); a blocked address gets 403',
        params: orgParams,
        body: ipAllowlistBody,
        response: { 200: z.object({ ips: z.array(z.string()) }), ...errors },
      },
    },
    async (request) => {
      const { caller, actor } = await acting(request, request.params.orgId);
      return { ips: await apiKeys.setIpAllowlist(caller, actor, request.body.ips) };
    },
  );

  app.delete(
    '/organizations/:orgId/api-keys/:keyId',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a key; it fails at once',
        params: keyParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { caller, actor } = await acting(request, request.params.orgId);
      await apiKeys.delete(caller, actor, request.params.keyId);
      return reply.code(204).send(null);
    },
  );
};
