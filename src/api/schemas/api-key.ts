// A Service API key as the operator and console APIs issue and list it: a name, scopes (none: full
// access; `read`: every read; `links:write` and the like: one resource, see docs/api.md) and an
// expiry, after which the key is refused.
import { z } from 'zod';
import { API_KEY_SCOPES, isApiKeyScope, orderedScopes } from '../../core/access/api-key-scopes.js';
import type { ApiKeyEntry, ApiKeyOptions } from '../../core/organizations/api-keys.service.js';

const scopeSchema = z.enum(API_KEY_SCOPES).meta({ id: 'ApiKeyScope' });

export const apiKeyOptionsBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    scopes: z
      .array(scopeSchema)
      .max(API_KEY_SCOPES.length)
      .optional()
      .describe(
        'What the key may do. None: full access. `read`: every Service API GET (any other method answers 403). ' +
          '`<resource>:read` / `<resource>:write` (links, campaigns, apps, domains, statistics; users:read, account:read): ' +
          "that resource's operations, write including read. Each operation names the scope it needs (`x-required-scope`)",
      ),
    expiresAt: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('ISO-8601 instant after which the key answers 401; must be in the future'),
  })
  .meta({ id: 'ApiKeyOptions' });

export const toApiKeyOptions = (body: z.infer<typeof apiKeyOptionsBody> | null | undefined): ApiKeyOptions => ({
  name: body?.name ?? null,
  scopes: orderedScopes(body?.scopes ?? []),
  expiresAt: body?.expiresAt ? new Date(body.expiresAt) : null,
});

/** What a list shows of a key besides its name and first characters. */
export const apiKeyAccessFields = {
  scopes: z.array(scopeSchema).describe('empty: full access'),
  expiresAt: z.string().nullable(),
};

export const toApiKeyAccessJson = (k: Pick<ApiKeyEntry, 'scopes' | 'expiresAt'>) => ({
  // A scope this version does not know (stored by a newer one) is left out of the answer, not refused
  // with a 500; the key still holds it.
  scopes: k.scopes.filter(isApiKeyScope),
  expiresAt: k.expiresAt?.toISOString() ?? null,
});
