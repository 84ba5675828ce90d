// App-install statistics of a short URL, a campaign or a mobile app (with the links that point at
// it) over a period clamped to the plan's retention. All three share one answer: what was
// counted, under which name, and the figures.
import { notFound } from '../../shared/errors.js';
import type { InstallScope, InstallStats, InstallStatsQueries, PlatformFilter } from '../../olap/install-stats.js';
import type { CampaignsRepo } from '../../oltp/campaigns.repo.js';
import type { MobileAppsRepo } from '../../oltp/mobile-apps.repo.js';
import type { ShortUrlsRepo } from '../../oltp/short-urls.repo.js';
import type { StatsCaller } from './link-stats.js';
import { periodForPlan, type PeriodInput, type StatsPeriod } from './period.js';
import type { RevenueStats, RevenueStatsQueries } from '../../olap/revenue-stats.js';
import { emptyRevenue } from './link-stats.js';

export type { InstallStats, PlatformFilter };

export interface InstallStatsInput extends PeriodInput {
  platform: PlatformFilter;
}

export interface InstallStatsAnswer {
  /** The app name; for a short URL its short code, for a campaign its alias. */
  name: string;
  platform: PlatformFilter;
  period: StatsPeriod;
  stats: InstallStats;
}

export interface InstallStatsDeps {
  shortUrls: Pick<ShortUrlsRepo, 'get'>;
  campaigns: Pick<CampaignsRepo, 'get'>;
  mobileApps: Pick<MobileAppsRepo, 'get' | 'linkedLinkIds'>;
  installStats: InstallStatsQueries;
  revenueStats: Pick<RevenueStatsQueries, 'forApp'>;
  clock: () => Date;
}

export function createInstallStatsService(deps: InstallStatsDeps) {
  async function answer(
    caller: StatsCaller,
    what: { scope: InstallScope; name: string; appPlatform?: 'IOS' | 'ANDROID' },
    input: InstallStatsInput,
  ): Promise<InstallStatsAnswer> {
    const { platform, ...periodInput } = input;
    const period = periodForPlan(caller.organization.plan, periodInput, deps.clock());
    const stats = await deps.installStats.forScope({ organizationId: caller.organization.id, ...what, platform, period });
    return { name: what.name, platform, period, stats };
  }

  return {
    async forShortUrl(caller: StatsCaller, id: number, input: InstallStatsInput): Promise<InstallStatsAnswer> {
      const url = await deps.shortUrls.get(caller.organization.id, id);
      if (!url) throw notFound('SHORT_URL_NOT_FOUND', `short URL ${id} does not exist`);
      return answer(caller, { scope: { kind: 'url', linkId: url.id }, name: url.shortCode }, input);
    },

    async forCampaign(caller: StatsCaller, id: number, input: InstallStatsInput): Promise<InstallStatsAnswer> {
      const campaign = await deps.campaigns.get(caller.organization.id, id);
      if (!campaign) throw notFound('CAMPAIGN_NOT_FOUND', `campaign ${id} does not exist`);
      return answer(caller, { scope: { kind: 'campaign', linkId: campaign.id }, name: campaign.alias }, input);
    },

    async forMobileApp(caller: StatsCaller, id: number, input: InstallStatsInput): Promise<InstallStatsAnswer> {
      const organizationId = caller.organization.id;
      const mobileApp = await deps.mobileApps.get(organizationId, id);
      if (!mobileApp) throw notFound('MOBILE_APP_NOT_FOUND', `mobile app ${id} does not exist`);
      const links = await deps.mobileApps.linkedLinkIds(organizationId, mobileApp.id);
      return answer(caller, { scope: { kind: 'app', appId: mobileApp.id, ...links }, appPlatform: mobileApp.platform, name: mobileApp.appName }, input);
    },

    /**
     * The purchases recorded under an app (its SDK's and pages' goals), per currency: the
     * revenue-analytics add-on's; without it `available` is false and the figures empty. A
     * purchase conversion per click is the links' own figure, so it stays 0 here.
     */
    async revenueOfApp(caller: StatsCaller, id: number, input: PeriodInput): Promise<{ revenue: RevenueStats & { available: boolean }; period: StatsPeriod }> {
      const { organization } = caller;
      const mobileApp = await deps.mobileApps.get(organization.id, id);
      if (!mobileApp) throw notFound('MOBILE_APP_NOT_FOUND', `mobile app ${id} does not exist`);
      const period = periodForPlan(organization.plan, input, deps.clock());
      const revenue = organization.revenueAnalytics
        ? { available: true, ...(await deps.revenueStats.forApp({ organizationId: organization.id, appId: mobileApp.id, period, clicks: 0 })) }
        : { available: false, ...emptyRevenue(period.days) };
      return { revenue, period };
    },
  };
}

export type InstallStatsService = ReturnType<typeof createInstallStatsService>;
