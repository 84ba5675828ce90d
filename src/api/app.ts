// buildApp(deps): the whole HTTP surface as a Fastify instance, separate from listen() so tests
// inject requests into exactly what production serves. One encapsulated context per API layer.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import http from 'node:http';
import { uuidv7 } from '../shared/ids.js';
import { decorateCaller } from './request-caller.js';
import { createClientAddress } from './client-address.js';
import { adminApi } from './admin/index.js';
import { consoleApi } from './console/index.js';
import type { AppDeps } from './deps.js';
import { answerClientError, answerFrameworkError, registerShutdownAnswer } from './edge-errors.js';
import { registerErrorHandling } from './error-handler.js';
import { DOCS_CSP, registerSecurityHeaders } from './security-headers.js';
import { registerOperatorHostRule } from './operator-host.js';
import { registerInputGuard } from './input-guard.js';
import { healthRoutes } from './health.routes.js';
import { OPENAPI_TAGS, SECURITY_SCHEMES, finishOpenApiDocument } from './openapi.js';
import { tlsAskRoutes } from './tls-ask.routes.js';
import { journeyApi, webJourneyApi } from './journey/index.js';
import {
  REDIRECT_ROUTES,
  registerRedirectRoutes,
  type FastRedirect,
  type ServeSlug,
} from './redirect/redirect.routes.js';
import { registerRequestLog } from './request-log.js';
import { mobileSdkApi } from './sdk/mobile-sdk.js';
import { webSdkDataApi } from './sdk/web-sdk-data.routes.js';
import { serviceApi } from './service/index.js';
import { sharedStatsRoutes } from './shared-stats/shared-stats.routes.js';
import { webSdkRoutes } from './web-sdk/web-sdk.routes.js';
import { mobileCustomDomainRoutes } from './sdk/mobile-custom-domains.routes.js';
import { wellKnownRoutes } from './well-known/well-known.routes.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Request ids: the caller's when sane, else this instance's random prefix and a counter (cheap). */
function requestIds(): (incoming: unknown) => string {
  const prefix = uuidv7().slice(-12);
  let n = 0;
  return (incoming) =>
    typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : `${prefix}-${(n++).toString(36)}`;
}

/** Fastify's own single-segment paths (/metrics, /health…), collected as routes are added. */
function ownPaths(app: FastifyInstance): (path: string) => boolean {
  const paths = new Set<string>();
  app.addHook('onRoute', (route) => {
    const url = route.url;
    if (url.lastIndexOf('/') === 0 && !url.includes(':') && !url.includes('*')) paths.add(url.toLowerCase());
  });
  return (path) => paths.has(path.toLowerCase());
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const requestId = requestIds();
  // Plain redirects are answered in front of Fastify (redirect.routes.ts). Injected requests
  // (tests) always go through Fastify.
  let fastRedirect: FastRedirect | undefined;
  const app = Fastify({
    serverFactory: (handler, options) => {
      const server = http.createServer((req, res) => {
        if (fastRedirect?.(req, res)) return;
        handler(req, res);
      });
      // What Fastify sets on the servers it creates itself (lib/server.js), its defaults applied.
      const o = options as {
        keepAliveTimeout?: number;
        requestTimeout?: number;
        connectionTimeout?: number;
        maxRequestsPerSocket?: number;
      };
      server.keepAliveTimeout = o.keepAliveTimeout ?? 72_000;
      server.requestTimeout = o.requestTimeout ?? 0;
      server.setTimeout(o.connectionTimeout ?? 0);
      if (o.maxRequestsPerSocket && o.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = o.maxRequestsPerSocket;
      return server;
    },
    loggerInstance: deps.log.child({ module: 'http' }) as FastifyBaseLogger,
    // Fastify's own request lines are replaced by one access-log line per answer (request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    // Fastify takes a hop count too (proxy-addr); its typings only miss that case.
    trustProxy: deps.config.server.trustProxy as boolean | string | string[],
    genReqId: (req) => requestId(req.headers['x-request-id']),
    bodyLimit: 1_048_576,
    // Failures before routing answer the API's error body too (edge-errors.ts).
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  }).withTypeProvider<ZodTypeProvider>();
  const isOwnPath = ownPaths(app);

  // JSON only: Fastify would otherwise take text/plain bodies as strings. The web SDK context adds
  // its own parser for navigator.sendBeacon, which can only send text/plain.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  decorateCaller(app);
  registerSecurityHeaders(app);
  // On a custom domain a one-segment operator path (/docs) is the customer's link: the redirect
  // routes, registered last, answer it.
  let serveSlug: ServeSlug | undefined;
  registerOperatorHostRule(app, deps.config, (request, reply, slug) =>
    serveSlug ? serveSlug(request, reply, slug) : reply.callNotFound(),
  );
  registerInputGuard(app);
  registerShutdownAnswer(app);
  const fastRedirectAnswered = registerRequestLog(app, {
    metrics: deps.metrics,
    log: deps.log,
    redirectSample: deps.config.log.accessLogRedirectSample,
    redirectRoutes: REDIRECT_ROUTES,
  });

  // Callback style, not async: this runs on every answer, the redirect's included.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  // A worker-only process answers the operator's probes and metrics, nothing else.
  if (!deps.config.server.roles.api) {
    await app.register(healthRoutes, { deps });
    return app;
  }

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Signpost API',
        version: '1.0.0',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
        description:
          'Short links, campaigns and deep links. Every error answers {status, error, message, timestamp, code}.',
      },
      servers: [{ url: deps.config.server.publicBaseUrl }],
      tags: OPENAPI_TAGS,
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => finishOpenApiDocument(jsonSchemaTransformObject(input)),
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    staticCSP: DOCS_CSP,
    // The reference page is for API clients: the console's own API stays in /openapi.json only.
    // Swagger UI also stops rendering past about 130 operations on one page.
    transformSpecification: (spec) => {
      const { paths = {}, tags = [] } = spec as { paths?: Record<string, unknown>; tags?: Array<{ name: string }> };
      return {
        ...spec,
        paths: Object.fromEntries(Object.entries(paths).filter(([path]) => !path.startsWith('/console/'))),
        tags: tags.filter((tag) => tag.name !== 'console'),
      };
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes, { deps });
  await app.register(tlsAskRoutes, { deps });
  await app.register(serviceApi, { deps, prefix: '/api/v1/service' });
  await app.register(journeyApi, { deps, prefix: '/api/v1/cross-platform' });
  if (deps.config.security.adminToken) {
    await app.register(adminApi, { deps, adminToken: deps.config.security.adminToken, prefix: '/api/admin/v1' });
  }
  await app.register(consoleApi, { deps });
  await app.register(sharedStatsRoutes, { shares: deps.stats.shares, publicBaseUrl: deps.config.server.publicBaseUrl });
  await app.register(webSdkRoutes);
  await app.register(mobileCustomDomainRoutes, { deps, prefix: '/api/v1/sdk/mobile' });
  await app.register(wellKnownRoutes, { deps });
  await app.register(mobileSdkApi, { deps, prefix: '/api/v1/sdk/mobile' });
  await app.register(webSdkDataApi, { deps, prefix: '/api/v1/sdk/web' });
  await app.register(webJourneyApi, { deps, prefix: '/api/v1/sdk/web/journey' });
  const redirect = registerRedirectRoutes(app, deps, {
    address: createClientAddress(deps.config.server.trustProxy),
    requestId,
    isOwnPath,
    answered: fastRedirectAnswered,
  });
  serveSlug = redirect.serveSlug;
  fastRedirect = redirect.fastRedirect;
  // From the first moment of a shutdown Fastify answers 503 with Connection: close, so keep-alive
  // clients move to another instance and the server can close; the fast path must not keep
  // serving them.
  app.addHook('preClose', (done) => {
    fastRedirect = undefined;
    done();
  });
  return app;
}
