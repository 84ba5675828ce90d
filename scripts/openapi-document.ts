// The OpenAPI document exactly as the service serves it at /openapi.json, built without a running
// service: the Fastify app is built in-process with the default configuration and stand-ins for
// its services. Registering routes only reads configuration and takes a few service functions by
// reference; no request ever reaches a stand-in. The typed client (scripts/client-generate.ts) and
// the breaking-change check (scripts/openapi-breaking.ts) start from it, and
// test/typescript-client.test.ts checks it against what a started service serves.
import { buildApp } from '../src/api/app.js';
import type { AppDeps } from '../src/api/deps.js';
import { dropUnusedSchemas } from '../src/api/openapi.js';
import { loadConfig } from '../src/shared/config.js';
import { createLogger } from '../src/shared/logger.js';
import { createMetrics } from '../src/shared/metrics.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is JSON, read field by field.
export type OpenApiDocument = Record<string, any>;

/** Any property, call or result of a stand-in is another stand-in (registration may keep references). */
function standIn(): unknown {
  const target = () => {};
  return new Proxy(target, {
    // Not a thenable: `await standIn` must not hang.
    get: (_t, key) => (key === 'then' ? undefined : standIn()),
    apply: () => standIn(),
  });
}

/** The whole document with the default configuration (operator API included, as with an admin token). */
export async function buildOpenApiDocument(): Promise<OpenApiDocument> {
  const config = loadConfig({ LOG_LEVEL: 'silent', SIGNPOST_ADMIN_TOKEN: 'document-only-token-0123456789abcdef' });
  const real: Partial<AppDeps> = {
    config,
    log: createLogger({ level: 'silent', pretty: false }),
    metrics: createMetrics(),
  };
  const deps = new Proxy(real, { get: (t, key: string) => t[key as keyof AppDeps] ?? standIn() }) as AppDeps;
  const app = await buildApp(deps);
  try {
    await app.ready();
    return structuredClone(app.swagger()) as OpenApiDocument;
  } finally {
    await app.close();
  }
}

type Operation = { security?: Array<Record<string, string[]>>; tags?: string[] };

/** The operations `keep` picks, with the tags and component schemas they use, under `title`. */
function documentPart(
  doc: OpenApiDocument,
  title: string,
  keep: (path: string, op: Operation) => boolean,
  securitySchemes: string[],
): OpenApiDocument {
  const paths: OpenApiDocument = {};
  for (const [path, methods] of Object.entries(doc.paths as OpenApiDocument)) {
    const kept = Object.entries(methods as Record<string, Operation>).filter(([, op]) => keep(path, op));
    if (kept.length > 0) paths[path] = Object.fromEntries(kept);
  }
  const usedTags = new Set(
    Object.values(paths).flatMap((methods) => Object.values(methods as OpenApiDocument).flatMap((op) => op.tags ?? [])),
  );
  const part: OpenApiDocument = structuredClone({
    ...doc,
    info: { ...doc.info, title },
    tags: (doc.tags ?? []).filter((tag: { name: string }) => usedTags.has(tag.name)),
    paths,
  });
  const schemes = part.components.securitySchemes;
  part.components = {
    ...part.components,
    securitySchemes: Object.fromEntries(securitySchemes.map((name) => [name, schemes[name]])),
  };
  dropUnusedSchemas(part);
  return part;
}

const takesApiKey = (op: Operation) => (op.security ?? []).some((requirement) => 'apiKey' in requirement);

/**
 * The operations a Service API key may call (the Service API and the user-journey statistics),
 * with the component schemas they use: what the typed client in clients/typescript covers.
 */
export function serviceApiDocument(doc: OpenApiDocument): OpenApiDocument {
  return documentPart(doc, 'Signpost Service API', (_path, op) => takesApiKey(op), ['apiKey']);
}

/**
 * What the console calls: its own API (/console/api) and the Service API and journey operations it
 * reaches under /console/api/organizations/{orgId} with the member's session instead of a key or
 * app credentials (those are documented once, under their own API). The console's types
 * (console/generated/api-schema.ts) come from it.
 */
export function consoleApiDocument(doc: OpenApiDocument): OpenApiDocument {
  return documentPart(
    doc,
    'Signpost console API',
    (path, op) => path.startsWith('/console/api/') || path.startsWith('/api/v1/cross-platform/') || takesApiKey(op),
    ['apiKey', 'consoleSession', 'appId', 'mobileAppKey'],
  );
}
