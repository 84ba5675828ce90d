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
import { memberRoutes } from './acting-member.js';
import { errors, orgParams } from './route-docs.js';

const keyParams = orgParams.extend({ keyId: idSchema });
const issuedSchema = z.object({ id: z.number().int(), apiKey: z.string().describe('shown this once') });

export const consoleApiKeyRoutes: FastifyPluginAsyncZod<{
  accounts: AccountServices;
  apiKeys: ApiKeysService;
}> = async (app, { accounts, apiKeys }) => {
  const route = memberRoutes(app, accounts);
  const ipsSchema = z.object({ ips: z.array(z.string()) });

  route(
    'GET',
    '/organizations/:orgId/api-keys',
    {
      summary: "The organization's Service API keys (never the keys themselves)",
      params: orgParams,
      response: z.array(
        z.object({
          id: z.number().int(),
          name: z.string().nullable(),
          prefix: z.string(),
          createdAt: z.string(),
          lastUsedAt: z.string().nullable(),
          ...apiKeyAccessFields,
        }),
      ),
      errors,
    },
    async ({ caller }) =>
      (await apiKeys.list(caller)).map((k) => ({
        id: k.id,
        name: k.name,
        prefix: k.prefix,
        createdAt: k.createdAt.toISOString(),
        lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
        ...toApiKeyAccessJson(k),
      })),
  );

  route(
    'POST',
    '/organizations/:orgId/api-keys',
    {
      summary: 'Issue a Service API key (shown this once)',
      params: orgParams,
      body: apiKeyOptionsBody,
      status: 201,
      response: issuedSchema,
      errors,
    },
    async ({ caller, actor }, request) => apiKeys.issue(caller, actor, toApiKeyOptions(request.body)),
  );

  route(
    'POST',
    '/organizations/:orgId/api-keys/:keyId/regenerate',
    {
      summary: 'A new secret for a key (shown this once); the old one fails at once',
      params: keyParams,
      status: 201,
      response: issuedSchema,
      errors,
    },
    async ({ caller, actor }, request) => apiKeys.regenerate(caller, actor, request.params.keyId),
  );

  route(
    'GET',
    '/organizations/:orgId/ip-allowlist',
    {
      summary: 'The addresses Service API keys are accepted from (empty: all)',
      params: orgParams,
      response: ipsSchema,
      errors,
    },
    async ({ caller }) => ({ ips: apiKeys.ipAllowlist(caller) }),
  );

  route(
    'PUT',
    '/organizations/:orgId/ip-allowlist',
    {
      summary: 'Replace the IP allow-list of the Service API keys (empty: all addresses); a blocked address gets 403',
      params: orgParams,
      body: ipAllowlistBody,
      response: ipsSchema,
      errors,
    },
    async ({ caller, actor }, request) => ({ ips: await apiKeys.setIpAllowlist(caller, actor, request.body.ips) }),
  );

  route(
    'DELETE',
    '/organizations/:orgId/api-keys/:keyId',
    { summary: 'Delete a key; it fails at once', params: keyParams, status: 204, errors },
    async ({ caller, actor }, request) => apiKeys.delete(caller, actor, request.params.keyId),
  );
};
