// What a Service API key may do: its scopes, each a resource and read or write. A key without
// scopes has full access; `read` grants every `:read` scope (the read-only key of the contract);
// `<resource>:write` grants `<resource>:read` too. Which scope each operation needs is the API's
// table (src/api/service/key-scopes.ts); this module says whether a key's scopes grant it.
import { deniedField } from '../field-error.js';

/** What the scopes divide the Service API into, with whether they have a write scope. */
export const KEY_RESOURCES = {
  /** Short URLs, their tags, QR codes, exports and imports. */
  links: { write: true },
  campaigns: { write: true },
  /** Mobile apps, their SDK keys and identity verification. */
  apps: { write: true },
  /** Custom domains and their deletion requests. */
  domains: { write: true },
  /** Click, install, deferred-match and user-journey statistics; write: sharing a link's statistics publicly. */
  statistics: { write: true },
  /** The organization's webhook endpoint, its signing secret and its delivery log. */
  webhooks: { write: true },
  /** Identified users and their consent history (the Service API only reads them). */
  users: { write: false },
  /** The organization's plan and this month's usage. */
  account: { write: false },
} as const;

export type KeyResource = keyof typeof KEY_RESOURCES;

type WriteResource = { [R in KeyResource]: (typeof KEY_RESOURCES)[R]['write'] extends true ? R : never }[KeyResource];

/** A scope an operation needs. */
export type OperationScope = `${KeyResource}:read` | `${WriteResource}:write`;

/** A scope a key may hold: an operation's, or `read` (every `:read` scope). */
export type ApiKeyScope = 'read' | OperationScope;

const resources = Object.keys(KEY_RESOURCES) as KeyResource[];

/** Every scope, in the order lists show them: `read`, then per resource read before write. */
export const API_KEY_SCOPES: readonly [ApiKeyScope, ...ApiKeyScope[]] = [
  'read',
  ...resources.flatMap((r): OperationScope[] =>
    KEY_RESOURCES[r].write ? [`${r}:read`, `${r}:write` as OperationScope] : [`${r}:read`],
  ),
];

export const isApiKeyScope = (value: string): value is ApiKeyScope =>
  (API_KEY_SCOPES as readonly string[]).includes(value);

/** A key's scopes without repeats, in list order (what is stored and shown). */
export const orderedScopes = (scopes: readonly ApiKeyScope[]): ApiKeyScope[] =>
  API_KEY_SCOPES.filter((s) => scopes.includes(s));

/**
 * Whether a key holding `held` may call an operation that needs `needed`. `null`: the operation
 * has no scope of its own, so only a key without scopes (full access) may call it.
 */
export function scopesGrant(held: readonly string[], needed: OperationScope | null): boolean {
  if (held.length === 0) return true;
  if (needed === null) return false;
  if (held.includes(needed)) return true;
  const [resource, use] = needed.split(':') as [KeyResource, 'read' | 'write'];
  return use === 'read' && (held.includes('read') || held.includes(`${resource}:write`));
}

/** Refuses a key whose scopes do not grant `needed`: 403, `details` naming the scope. */
export function requireScope(held: readonly string[], needed: OperationScope | null): void {
  if (scopesGrant(held, needed)) return;
  if (needed === null)
    throw deniedField(
      'API_KEY_SCOPE_MISSING',
      'this operation needs a key with full access (no scopes)',
      'scope',
      'only a key without scopes may call this operation',
    );
  throw deniedField(
    'API_KEY_SCOPE_MISSING',
    `this API key lacks the ${needed} scope, which this operation needs`,
    'scope',
    `${needed} is required`,
  );
}
