// Wiring of the links feature: short URLs and campaigns over their repositories, the click
// counts, the event publisher and the link caches' invalidation.
import { createLinksService, type LinksService } from '../core/links/links-service.js';
import type { Wiring } from './wiring.js';

export function composeLinks({ config, repos, clickCounts, events, linkChanged }: Pick<Wiring, 'config' | 'repos' | 'clickCounts' | 'events' | 'linkChanged'>): LinksService {
  return createLinksService({ repos, clickCounts, events, publicBaseUrl: config.publicBaseUrl, linkChanged });
}
