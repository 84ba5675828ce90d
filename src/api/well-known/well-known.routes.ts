// GET (and HEAD) /.well-known/apple-app-site-association and /.well-known/assetlinks.json on every
// host: the platform's and each usable custom domain (the Host header decides), served directly
// as application/json (Apple and Google follow no redirects for these).
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../shared/errors.js';
import type { AppsService } from '../../core/apps/index.js';
import type { AssociationFiles } from '../../core/apps/association-files.js';

export interface WellKnownDeps {
  /** The apple-app-site-association and assetlinks.json per host, built from the mobile apps. */
  apps: Pick<AppsService, 'associationFiles'>;
}

export const wellKnownRoutes: FastifyPluginAsync<{ deps: WellKnownDeps }> = async (app, { deps }) => {
  const { associationFiles } = deps.apps;
  function serve(pick: (files: AssociationFiles) => string) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const files = await associationFiles.forHost(request.hostname);
      if (!files) throw notFound('DOMAIN_NOT_SERVED', `${request.hostname} is not a verified domain`);
      return (
        reply
          .code(200)
          .type('application/json')
          // Short: apps and domains change, and Apple's CDN adds its own caching on top.
          .header('cache-control', 'public, max-age=300')
          .send(pick(files))
      );
    };
  }

  app.get(
    '/.well-known/apple-app-site-association',
    { schema: { hide: true } },
    serve((f) => f.appleAppSiteAssociation),
  );
  app.get(
    '/.well-known/assetlinks.json',
    { schema: { hide: true } },
    serve((f) => f.assetLinks),
  );
};
