// Shared statistics (contract: "Filters and shared statistics"): a short URL's statistics behind an
// address anyone may open, read-only, until the share is deleted. The address carries a random
// token (256 bits); only its SHA-256 is stored, so it is shown once, when the link is shared.
// Sharing a link again makes a new token and the old address stops working (a lost address is
// replaced, not recovered). Whoever opens it sees that link's figures and nothing else of the
// organization: its short URL and title, over a period in the organization's time zone.
import type { LinkSharesRepo } from '../../oltp/link-shares.repo.js';
import { DateTime } from 'luxon';
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type { ShortUrlsRepo } from '../../oltp/short-urls.repo.js';
import { isDomainError } from '../../shared/errors.js';
import { newToken, tokenHash } from '../accounts/one-time-tokens.js';
import { authorize } from '../accounts/permissions.js';
import type { Caller } from '../caller.js';
import type { LinkStatsService } from './link-stats.js';
import { ownShortUrl } from './own-links.js';

/** The periods a shared page offers: the last 7, 30 or 90 days, today included. */
export const SHARED_PERIODS = [7, 30, 90] as const;
export type SharedPeriod = (typeof SHARED_PERIODS)[number];

export interface LinkSharesDeps {
  shares: LinkSharesRepo;
  shortUrls: Pick<ShortUrlsRepo, 'get'>;
  organizations: Pick<OrganizationsRepo, 'get'>;
  linkStats: Pick<LinkStatsService, 'forShortUrl'>;
  clock: () => Date;
}

type ShareCaller = Pick<Caller, 'organization' | 'member'>;

/** What a shared page shows: the link's statistics over the period (its meta says the zone). */
export type SharedStats = Awaited<ReturnType<LinkStatsService['forShortUrl']>>;

export function createLinkSharesService(deps: LinkSharesDeps) {
  const ownLink = (caller: ShareCaller, id: number) => ownShortUrl(deps, caller.organization.id, id);

  return {
    /** Shares the link: the token of its new address (any earlier one stops working). */
    async share(caller: ShareCaller, id: number): Promise<{ token: string }> {
      authorize(caller, 'links.write');
      const url = await ownLink(caller, id);
      const token = newToken();
      await deps.shares.put(caller.organization.id, url.id, tokenHash(token), deps.clock());
      return { token };
    },

    /** Ends the link's share, if it had one: its address answers 404 from now on. */
    async unshare(caller: ShareCaller, id: number): Promise<void> {
      authorize(caller, 'links.write');
      const url = await ownLink(caller, id);
      await deps.shares.remove(caller.organization.id, url.id);
    },

    /**
     * The statistics behind a shared address over the last `days` days in the organization's time
     * zone (as its plan's retention allows); undefined when the token shares nothing (never did,
     * deleted, replaced, or the link is gone).
     */
    async view(token: string, days: SharedPeriod): Promise<SharedStats | undefined> {
      const share = await deps.shares.find(tokenHash(token));
      if (!share) return undefined;
      const organization = await deps.organizations.get(share.organizationId);
      if (!organization) return undefined;
      const { timeZone } = organization;
      const today = DateTime.fromJSDate(deps.clock(), { zone: timeZone });
      const startDate = today.minus({ days: days - 1 }).toISODate() ?? undefined;
      try {
        return await deps.linkStats.forShortUrl({ organization }, share.shortUrlId, { startDate, timeZone });
      } catch (err) {
        // The link went between the two reads.
        if (isDomainError(err) && err.code === 'SHORT_URL_NOT_FOUND') return undefined;
        throw err;
      }
    },
  };
}

export type LinkSharesService = ReturnType<typeof createLinkSharesService>;
