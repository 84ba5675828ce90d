// The deep-link services the HTTP layer uses: the SDK flows (resolution, tracking, the web SDK's
// reports) and the redirect's landing page (its token and funnel stage).
import type { DeepLinkLandingService } from './landing.service.js';
import type { DeepLinkResolveService } from './resolve.js';
import type { DeepLinkTrackingService } from './tracking.service.js';
import type { WebSdkDataService } from './web-sdk.js';

export interface DeepLinkServices {
  resolve: DeepLinkResolveService;
  tracking: DeepLinkTrackingService;
  webSdk: WebSdkDataService;
  landing: DeepLinkLandingService;
}
