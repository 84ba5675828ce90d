// Serving the web SDK: the bundle at its versioned address (cached for a year: a new version is a
// new address), the changelog, and GET /api/v1/sdk/web/version naming both (CORS, for browsers).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WEB_SDK_CHANGELOG_PATH, WEB_SDK_NAME, WEB_SDK_VERSION, webSdkPath } from '../../web-sdk/version.js';
import { allowBrowserCalls } from '../cors.js';
import { readWebSdkChangelog, webSdkBundle, type EncodedBundle, type WebSdkBundle } from './bundle.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The smallest form the client accepts (q=0 means "not this one"). */
function pick(
  bundle: WebSdkBundle,
  acceptEncoding: string | undefined,
): { form: EncodedBundle; encoding: string | null } {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
      .map(([name]) => name),
  );
  if (accepted.has('br')) return { form: bundle.br, encoding: 'br' };
  if (accepted.has('gzip')) return { form: bundle.gzip, encoding: 'gzip' };
  return { form: bundle.identity, encoding: null };
}

const etagMatches = (header: string | undefined, etag: string) =>
  !!header && (header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag));

const versionResponse = z.object({
  version: z.string(),
  sdkUrl: z.string(),
  changelogUrl: z.string(),
  name: z.string(),
});

const versionRoute: FastifyPluginAsyncZod = async (app) => {
  allowBrowserCalls(app);
  app.get(
    '/',
    {
      schema: {
        tags: ['web SDK'],
        summary: 'The latest web SDK version and where to get it',
        description:
          'sdkUrl serves the bundle (cached for a year, a new version is a new address); changelogUrl serves the changelog.',
        response: { 200: versionResponse },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return {
        version: WEB_SDK_VERSION,
        sdkUrl: webSdkPath(),
        changelogUrl: WEB_SDK_CHANGELOG_PATH,
        name: WEB_SDK_NAME,
      };
    },
  );
};

export const webSdkRoutes: FastifyPluginAsyncZod = async (app) => {
  // Built here, as the service starts: a broken SDK stops the start instead of failing phones later.
  const bundle = await webSdkBundle();
  const changelog = readWebSdkChangelog();

  app.get(webSdkPath(), { schema: { hide: true } }, (request: FastifyRequest, reply: FastifyReply) => {
    const { form, encoding } = pick(bundle, request.headers['accept-encoding']);
    reply
      .header('cache-control', IMMUTABLE)
      .header('etag', form.etag)
      .header('vary', 'Accept-Encoding')
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin');
    if (etagMatches(request.headers['if-none-match'], form.etag)) return reply.code(304).send();
    if (encoding) reply.header('content-encoding', encoding);
    return reply.type('text/javascript; charset=utf-8').send(form.body);
  });

  app.get(WEB_SDK_CHANGELOG_PATH, { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('text/markdown; charset=utf-8').send(changelog),
  );

  // Its own context, so its CORS covers the version route alone (the Web SDK data routes have theirs).
  await app.register(versionRoute, { prefix: '/api/v1/sdk/web/version' });
};
