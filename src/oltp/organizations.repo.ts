// Organizations (tenants): plan, quota override, add-ons and the Service API IP allow-list.
import type { PageLanguage } from '../shared/language.js';
import { PLAN_LIMITS, type Plan } from '../shared/plans.js';
import type { Sql } from './postgres.js';
import { containsPattern, type PageRequest, pageOf } from './sql-helpers.js';

export interface Organization {
  id: number;
  name: string;
  plan: Plan;
  /** The quota in force: the override, else the plan's. */
  monthlyQuota: number;
  monthlyQuotaOverride: number | null;
  userJourney: boolean;
  revenueAnalytics: boolean;
  ipAllowlist: string[];
  /** Visitor pages' language when the browser asks for none we speak. */
  defaultLanguage: PageLanguage;
  /** IANA zone: where a bare date (a link's expiry day) ends. */
  timeZone: string;
  createdAt: Date;
}

export interface OrganizationRow {
  id: number;
  name: string;
  plan: Plan;
  monthly_quota: number | null;
  user_journey: boolean;
  revenue_analytics: boolean;
  ip_allowlist: string[];
  default_language: PageLanguage;
  time_zone: string;
  created_at: Date;
}

export function toOrganization(row: OrganizationRow): Organization {
  const limits = PLAN_LIMITS[row.plan];
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    monthlyQuota: row.monthly_quota ?? limits.monthlyApiCalls,
    monthlyQuotaOverride: row.monthly_quota,
    // ENTERPRISE includes both add-ons whatever the flags say.
    userJourney: limits.includesAddOns || row.user_journey,
    revenueAnalytics: limits.includesAddOns || row.revenue_analytics,
    ipAllowlist: row.ip_allowlist,
    defaultLanguage: row.default_language,
    timeZone: row.time_zone,
    createdAt: row.created_at,
  };
}

export function createOrganizationsRepo({ sql }: { sql: Sql }) {
  return {
    async create(
      input: { name: string; plan: Plan; timeZone?: string | undefined },
      tx: Sql = sql,
    ): Promise<Organization> {
      const [row] = await tx<OrganizationRow[]>`
        insert into organizations (name, plan, time_zone)
        values (${input.name}, ${input.plan}, coalesce(${input.timeZone ?? null}, 'Asia/Seoul')) returning *`;
      return toOrganization(row!);
    },

    /** A page of organizations, newest first; `search` matches part of the name. */
    async list(
      filter: { search?: string | undefined; plan?: Plan | undefined },
      page: PageRequest,
    ): Promise<{ items: Organization[]; total: number }> {
      const where = sql`true
        ${filter.search ? sql`and lower(name) like ${containsPattern(filter.search)}` : sql``}
        ${filter.plan ? sql`and plan = ${filter.plan}` : sql``}`;
      return pageOf(
        sql<
          OrganizationRow[]
        >`select * from organizations where ${where} order by id desc limit ${page.size} offset ${page.page * page.size}`,
        sql<{ n: number }[]>`select count(*)::int as n from organizations where ${where}`,
        toOrganization,
      );
    },

    async get(id: number): Promise<Organization | undefined> {
      const [row] = await sql<OrganizationRow[]>`select * from organizations where id = ${id}`;
      return row && toOrganization(row);
    },

    /** `monthlyQuota` undefined keeps the override, null returns to the plan's quota. */
    async setPlan(id: number, plan: Plan, monthlyQuota: number | null | undefined): Promise<Organization | undefined> {
      const [row] =
        monthlyQuota === undefined
          ? await sql<OrganizationRow[]>`
            update organizations set plan = ${plan}, updated_at = now() where id = ${id} returning *`
          : await sql<OrganizationRow[]>`
            update organizations set plan = ${plan}, monthly_quota = ${monthlyQuota}, updated_at = now()
            where id = ${id} returning *`;
      return row && toOrganization(row);
    },

    async setAddOns(
      id: number,
      addOns: { userJourney?: boolean | undefined; revenueAnalytics?: boolean | undefined },
    ): Promise<Organization | undefined> {
      const [row] = await sql<OrganizationRow[]>`
        update organizations set
          user_journey = coalesce(${addOns.userJourney ?? null}::boolean, user_journey),
          revenue_analytics = coalesce(${addOns.revenueAnalytics ?? null}::boolean, revenue_analytics),
          updated_at = now()
        where id = ${id} returning *`;
      return row && toOrganization(row);
    },

    async setDefaultLanguage(id: number, language: PageLanguage): Promise<Organization | undefined> {
      const [row] = await sql<OrganizationRow[]>`
        update organizations set default_language = ${language}, updated_at = now() where id = ${id} returning *`;
      return row && toOrganization(row);
    },

    async setTimeZone(id: number, timeZone: string): Promise<Organization | undefined> {
      const [row] = await sql<OrganizationRow[]>`
        update organizations set time_zone = ${timeZone}, updated_at = now() where id = ${id} returning *`;
      return row && toOrganization(row);
    },

    async setIpAllowlist(id: number, ips: string[]): Promise<Organization | undefined> {
      const [row] = await sql<OrganizationRow[]>`
        update organizations set ip_allowlist = ${ips}::text[], updated_at = now() where id = ${id} returning *`;
      return row && toOrganization(row);
    },
  };
}

export type OrganizationsRepo = ReturnType<typeof createOrganizationsRepo>;
