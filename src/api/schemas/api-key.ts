// A Service API key as the operator and console APIs issue and list it: a name, scopes (`read`
// makes a read-only key; none, full access) and an expiry, after which the key is refused.
import { z } from 'zod';
import type { ApiKeyEntry, ApiKeyOptions } from '../../core/organizations/api-keys.service.js';

const API_KEY_SCOPES = ['read'] as const;

export const apiKeyOptionsBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    scopes: z
      .array(z.enum(API_KEY_SCOPES))
      .max(API_KEY_SCOPES.length)
      .optional()
      .describe('`["read"]`: a read-only key (GET requests only; any other method answers 403). None: full access'),
    expiresAt: z.iso
      .datetime({ offset: true })
      .optional()
      .describe('ISO-8601 instant after which the key answers 401; must be in the future'),
  })
  .meta({ id: 'ApiKeyOptions' });

export const toApiKeyOptions = (body: z.infer<typeof apiKeyOptionsBody> | null | undefined): ApiKeyOptions => ({
  name: body?.name ?? null,
  scopes: [...new Set(body?.scopes ?? [])],
  expiresAt: body?.expiresAt ? new Date(body.expiresAt) : null,
});

/** What a list shows of a key besides its name and first characters. */
export const apiKeyAccessFields = {
  scopes: z.array(z.enum(API_KEY_SCOPES)).describe('empty: full access'),
  expiresAt: z.string().nullable(),
};

export const toApiKeyAccessJson = (k: Pick<ApiKeyEntry, 'scopes' | 'expiresAt'>) => ({
  scopes: k.scopes,
  expiresAt: k.expiresAt?.toISOString() ?? null,
});
