// Which sources there are, where each SaaS service answers unless the person names another
// address, and how each is built. A self-hosted-only service (Shlink, YOURLS) has no default.
import type { ImportSource, SourceContext, SourceName } from './import-source.js';
import { createBitlySource } from './sources/bitly.js';
import { createDubSource } from './sources/dub.js';
import { createKuttSource } from './sources/kutt.js';
import { createRebrandlySource } from './sources/rebrandly.js';
import { createShlinkSource } from './sources/shlink.js';
import { createYourlsSource } from './sources/yourls.js';

interface SourceKind {
  defaultUrl?: string;
  create(ctx: SourceContext): ImportSource;
}

export const SOURCES: Record<SourceName, SourceKind> = {
  bitly: { defaultUrl: 'https://api-ssl.bitly.com', create: createBitlySource },
  shlink: { create: createShlinkSource },
  kutt: { defaultUrl: 'https://kutt.it', create: createKuttSource },
  yourls: { create: createYourlsSource },
  dub: { defaultUrl: 'https://api.dub.co', create: createDubSource },
  rebrandly: { defaultUrl: 'https://api.rebrandly.com', create: createRebrandlySource },
};
