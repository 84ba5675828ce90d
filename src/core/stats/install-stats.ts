// App-install statistics of a short URL, a campaign or a mobile app (with the links that point at
// it) over a period clamped to the plan's retention. All three share one answer: what was
// counted, under which name, and the figures.
import { notFound } from '../../shared/errors.js';
import type {
  InstallScope,
  InstallStats,
  InstallStatsQueries,
  PlatformFilter,
} from '../../olap/install-stats.queries.js';
import type { MobileAppsRepo } from '../../oltp/mobile-apps.repo.js';
import type { StatsCaller } from './link-stats.js';
import { readWithPrevious, type WithPrevious } from './comparison.js';
import { ownCampaign, ownShortUrl, type StatsLinks } from './own-links.js';
import { periodForPlan, type PeriodInput, type StatsPeriod } from './period.js';
import type { DeferredMatchStats, DeferredMatchStatsQueries } from '../../olap/deferred-match-stats.queries.js';
import type { RevenueStats, RevenueStatsQueries } from '../../olap/revenue-stats.queries.js';
import { emptyRevenue } from './link-stats.js';

export type { InstallStats, PlatformFilter };

export interface InstallStatsInput extends PeriodInput {
  platform: PlatformFilter;
  /** previous: the previous period's statistics too (comparison.ts); the console's dashboards ask for it. */
  compare?: 'previous' | 'off' | undefined;
}

export interface InstallStatsAnswer {
  /**
   * The app's name. For a short URL or a campaign, its linked app of the platform filtered on (both
   * apps' names when unfiltered and they differ); its short code or alias when no app is linked.
   */
  name: string;
  /** The short code or alias of a link's statistics; null for an app's. */
  linkAlias: string | null;
  platform: PlatformFilter;
  period: StatsPeriod;
  stats: InstallStats;
  /** The previous period's statistics when compare=previous was asked for; null otherwise. */
  previous: WithPrevious<InstallStats>['previous'];
}

export interface InstallStatsDeps extends StatsLinks {
  mobileApps: Pick<MobileAppsRepo, 'get' | 'getMany' | 'linkedLinkIds'>;
  installStats: InstallStatsQueries;
  revenueStats: Pick<RevenueStatsQueries, 'forApp'>;
  deferredMatchStats: DeferredMatchStatsQueries;
  clock: () => Date;
}

export function createInstallStatsService(deps: InstallStatsDeps) {
  async function answer(
    caller: StatsCaller,
    what: { scope: InstallScope; name: string; linkAlias: string | null; appPlatform?: 'IOS' | 'ANDROID' },
    input: InstallStatsInput,
  ): Promise<InstallStatsAnswer> {
    const { platform, compare, ...periodInput } = input;
    const now = deps.clock();
    const period = periodForPlan(caller.organization.plan, periodInput, now);
    const { linkAlias, ...scope } = what;
    // The previous period with every country, so each of the period's finds its count there.
    const { current, previous } = await readWithPrevious(period, now, compare === 'previous', (p) =>
      deps.installStats.forScope({
        organizationId: caller.organization.id,
        ...scope,
        platform,
        period: p,
        complete: p !== period,
      }),
    );
    return { name: what.name, linkAlias, platform, period, stats: current, previous };
  }

  /** The name of the app(s) a link opens, for the platform filtered on; the link's own code when it opens none. */
  async function appNameOfLink(
    caller: StatsCaller,
    link: { iosAppId: number | null; androidAppId: number | null },
    code: string,
    platform: PlatformFilter,
  ) {
    const ids = [platform !== 'Android' ? link.iosAppId : null, platform !== 'iOS' ? link.androidAppId : null].filter(
      (id): id is number => id !== null,
    );
    const apps = await deps.mobileApps.getMany(caller.organization.id, ids);
    const names = [...new Set(ids.flatMap((id) => apps.get(id)?.appName ?? []))];
    return names.length > 0 ? names.join(' / ') : code;
  }

  return {
    async forShortUrl(caller: StatsCaller, id: number, input: InstallStatsInput): Promise<InstallStatsAnswer> {
      const url = await ownShortUrl(deps, caller.organization.id, id);
      const name = await appNameOfLink(caller, url, url.shortCode, input.platform);
      return answer(caller, { scope: { kind: 'url', linkId: url.id }, name, linkAlias: url.shortCode }, input);
    },

    async forCampaign(caller: StatsCaller, id: number, input: InstallStatsInput): Promise<InstallStatsAnswer> {
      const campaign = await ownCampaign(deps, caller.organization.id, id);
      const name = await appNameOfLink(caller, campaign, campaign.alias, input.platform);
      return answer(
        caller,
        { scope: { kind: 'campaign', linkId: campaign.id }, name, linkAlias: campaign.alias },
        input,
      );
    },

    async forMobileApp(caller: StatsCaller, id: number, input: InstallStatsInput): Promise<InstallStatsAnswer> {
      const organizationId = caller.organization.id;
      const mobileApp = await deps.mobileApps.get(organizationId, id);
      if (!mobileApp) throw notFound('MOBILE_APP_NOT_FOUND', `mobile app ${id} does not exist`);
      const links = await deps.mobileApps.linkedLinkIds(organizationId, mobileApp.id);
      return answer(
        caller,
        {
          scope: { kind: 'app', appId: mobileApp.id, ...links },
          appPlatform: mobileApp.platform,
          name: mobileApp.appName,
          linkAlias: null,
        },
        input,
      );
    },

    /** How the app's first launches found their clicks: matches by type and confidence, misses by reason, per local day. */
    async deferredMatchesOfApp(
      caller: StatsCaller,
      id: number,
      input: PeriodInput,
    ): Promise<{ name: string; period: StatsPeriod; stats: DeferredMatchStats }> {
      const { organization } = caller;
      const mobileApp = await deps.mobileApps.get(organization.id, id);
      if (!mobileApp) throw notFound('MOBILE_APP_NOT_FOUND', `mobile app ${id} does not exist`);
      const period = periodForPlan(organization.plan, input, deps.clock());
      const stats = await deps.deferredMatchStats.forApp({
        organizationId: organization.id,
        appId: mobileApp.id,
        period,
      });
      return { name: mobileApp.appName, period, stats };
    },

    /**
     * The purchases recorded under an app (its SDK's and pages' goals), per currency: the
     * revenue-analytics add-on's; without it `available` is false and the figures empty. A
     * purchase conversion per click is the links' own figure, so it stays 0 here.
     */
    async revenueOfApp(
      caller: StatsCaller,
      id: number,
      input: PeriodInput,
    ): Promise<{ revenue: RevenueStats & { available: boolean }; period: StatsPeriod }> {
      const { organization } = caller;
      const mobileApp = await deps.mobileApps.get(organization.id, id);
      if (!mobileApp) throw notFound('MOBILE_APP_NOT_FOUND', `mobile app ${id} does not exist`);
      const period = periodForPlan(organization.plan, input, deps.clock());
      const revenue = organization.revenueAnalytics
        ? {
            available: true,
            ...(await deps.revenueStats.forApp({
              organizationId: organization.id,
              appId: mobileApp.id,
              period,
              clicks: 0,
            })),
          }
        : { available: false, ...emptyRevenue(period.days) };
      return { revenue, period };
    },
  };
}

export type InstallStatsService = ReturnType<typeof createInstallStatsService>;
