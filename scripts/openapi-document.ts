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

/**
 * The operations a Service API key may call (the Service API and the user-journey statistics),
 * with the component schemas they use: what the typed client in clients/typescript covers.
 */
export function serviceApiDocument(doc: OpenApiDocument): OpenApiDocument {
  const paths: OpenApiDocument = {};
  for (const [path, methods] of Object.entries(doc.paths as OpenApiDocument)) {
    const kept = Object.entries(methods as OpenApiDocument).filter(([, op]) =>
      (op.security ?? []).some((requirement: Record<string, string[]>) => 'apiKey' in requirement),
    );
    if (kept.length > 0) paths[path] = Object.fromEntries(kept);
  }
  const usedTags = new Set(
    Object.values(paths).flatMap((methods) => Object.values(methods as OpenApiDocument).flatMap((op) => op.tags ?? [])),
  );
  const part: OpenApiDocument = structuredClone({
    ...doc,
    info: { ...doc.info, title: 'Signpost Service API' },
    tags: (doc.tags ?? []).filter((tag: { name: string }) => usedTags.has(tag.name)),
    paths,
  });
  part.components = { ...part.components, securitySchemes: { apiKey: part.components.securitySchemes.apiKey } };
  dropUnusedSchemas(part);
  return part;
}
