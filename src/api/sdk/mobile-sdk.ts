// The Mobile SDK API context (/api/v1/sdk/mobile): deep-link resolution and tracking, behind the
// app's credentials and its per-app rate limit.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DeepLinkServices } from '../../core/deeplinks/index.js';
import type { Config } from '../../shared/config.js';
import { mobileDeepLinkRoutes } from './mobile-deeplink.routes.js';
import { requireMobileApp, type SdkCallers } from './mobile-sdk-auth.js';
import { mobileTrackingRoutes } from './mobile-tracking.routes.js';

export interface MobileSdkDeps {
  config: Pick<Config, 'server'>;
  sdk: SdkCallers;
  deepLinks: Pick<DeepLinkServices, 'resolve' | 'tracking'>;
}

export const mobileSdkApi: FastifyPluginAsyncZod<{ deps: MobileSdkDeps }> = async (app, { deps }) => {
  requireMobileApp(app, deps.sdk);
  await app.register(mobileDeepLinkRoutes, {
    resolve: deps.deepLinks.resolve,
    publicBaseUrl: deps.config.server.publicBaseUrl,
  });
  await app.register(mobileTrackingRoutes, { tracking: deps.deepLinks.tracking });
};
