// Campaigns of an organization: named tracked links with an alias in the shared slug namespace,
// read together with their linked apps' names, icons and paths. Scoped by organization throughout.
import type { SecretBox } from '../shared/secret-box.js';
import type { Sql } from './postgres.js';
import { createLinkTable, type ManagedLinkFields, type ManagedListFilter, type Row } from './link-table.js';
import { creatorName, type CreatorColumns } from './record-creators.js';
import { containsPattern } from './sql-helpers.js';

export interface CampaignFields extends ManagedLinkFields {
  name: string;
  originalUrl: string;
  expiresAt: Date | null;
  iosAppId: number | null;
  androidAppId: number | null;
  utmSource: string | null;
  utmMedium: string | null;
  iosDeepLinkPath: string | null;
  androidDeepLinkPath: string | null;
  goalType: string | null;
}

interface LinkedApp {
  name: string;
  iconUrl: string | null;
  path: string;
}

export interface Campaign extends CampaignFields {
  id: number;
  organizationId: number;
  alias: string;
  customDomainId: number | null;
  customDomainName: string | null;
  /** The creator's name: the console member's, or the API key's; the organization's for older rows. */
  createdBy: string;
  iosApp: LinkedApp | null;
  androidApp: LinkedApp | null;
  /** The names of its tags. */
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS: Record<Exclude<keyof CampaignFields, keyof ManagedLinkFields>, string> = {
  name: 'name',
  originalUrl: 'original_url',
  expiresAt: 'expires_at',
  iosAppId: 'ios_app_id',
  androidAppId: 'android_app_id',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  iosDeepLinkPath: 'ios_deep_link_path',
  androidDeepLinkPath: 'android_deep_link_path',
  goalType: 'goal_type',
};

function linkedApp(r: Row, prefix: 'ios' | 'android'): LinkedApp | null {
  const path = r[`${prefix}_app_path`] as string | null;
  if (!path) return null;
  return {
    name: r[`${prefix}_app_name`] as string,
    iconUrl: (r[`${prefix}_app_icon_url`] as string | null) ?? null,
    path,
  };
}

export interface CampaignListFilter extends ManagedListFilter {
  search?: string | undefined;
}

/** Who made a campaign: a console member, or a Service API key; the organization's name as the fallback. */
export interface CampaignCreator {
  userId: number | null;
  apiKeyId: number | null;
  fallback: string;
}

export function createCampaignsRepo({ sql, secretBox }: { sql: Sql; secretBox: SecretBox }) {
  const table = createLinkTable<CampaignFields, Campaign, CampaignListFilter>(sql, {
    table: 'campaigns',
    columns: COLUMNS,
    joined: {
      columns: sql`
        ia.app_name as ios_app_name, ia.app_icon_url as ios_app_icon_url, ia.path as ios_app_path,
        aa.app_name as android_app_name, aa.app_icon_url as android_app_icon_url, aa.path as android_app_path,
        cu.name_sealed as creator_name_sealed, cu.email_sealed as creator_email_sealed,
        ck.name as creator_key_name, ck.key_prefix as creator_key_prefix`,
      joins: sql`
        left join mobile_apps ia on ia.id = l.ios_app_id
        left join mobile_apps aa on aa.id = l.android_app_id
        left join users cu on cu.id = l.created_by_user_id
        left join api_keys ck on ck.id = l.created_by_api_key_id`,
    },
    ownOf: (r) => ({
      alias: r.alias as string,
      createdBy: creatorName(r as CreatorColumns, secretBox, r.created_by as string),
      iosApp: linkedApp(r, 'ios'),
      androidApp: linkedApp(r, 'android'),
    }),
    ownCondition: (filter) =>
      filter.search ? sql`and lower(l.name || ' ' || l.alias) like ${containsPattern(filter.search)}` : sql``,
  });

  return {
    ...table,

    /** Undefined when the alias is taken on that domain (after retries, for a generated alias). */
    async create(
      input: Omit<Parameters<typeof table.create>[0], 'values'> & { createdBy: CampaignCreator },
    ): Promise<Campaign | undefined> {
      const { createdBy, ...rest } = input;
      return table.create({
        ...rest,
        values: {
          created_by: createdBy.fallback,
          created_by_user_id: createdBy.userId,
          created_by_api_key_id: createdBy.apiKeyId,
        },
      });
    },
  };
}

export type CampaignsRepo = ReturnType<typeof createCampaignsRepo>;
