// The deep-link services the HTTP layer uses, as one bag: the SDK flows (resolution, tracking,
// the web SDK's reports), and for the redirect's landing page the token store and the recorder.
import type { DeepLinkTokensRepo } from '../../oltp/deep-link-tokens.repo.js';
import type { DeepLinkRecorder } from './records.js';
import type { DeepLinkResolveService } from './resolve.js';
import type { DeepLinkTrackingService } from './tracking.js';
import type { WebSdkDataService } from './web-sdk.js';

export interface DeepLinkServices {
  resolve: DeepLinkResolveService;
  tracking: DeepLinkTrackingService;
  webSdk: WebSdkDataService;
  tokens: DeepLinkTokensRepo;
  recorder: DeepLinkRecorder;
  /** Runs a purge round now (tests, operators); one also runs every few minutes. */
  purge(): Promise<number>;
  close(): Promise<void>;
}
