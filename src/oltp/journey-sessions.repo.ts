// User-journey sessions (journey_sessions) and the once-per-organization goal transaction ids
// (journey_transactions). Every query is scoped by organization: another tenant's session id is
// simply not found.
import type { Sql } from './postgres.js';

export type JourneyPlatform = 'WEB' | 'IOS' | 'ANDROID';

export interface SessionLink {
  type: 'url' | 'campaign';
  id: number;
  /** Short code or campaign alias. */
  code: string | null;
  registeredAt: Date;
}

export interface JourneySession {
  id: string;
  organizationId: number;
  appId: number | null;
  platform: JourneyPlatform;
  externalUserId: string | null;
  userLinkedAt: Date | null;
  deepLinkToken: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  referrer: string | null;
  landingUrl: string | null;
  link: SessionLink | null;
  startedAt: Date;
  updatedAt: Date;
}

/** A session to store: what it starts with (the link without its registration time, which is now). */
export type NewSession = Omit<JourneySession, 'appId' | 'userLinkedAt' | 'link' | 'updatedAt'> & {
  appId: number;
  link: Omit<SessionLink, 'registeredAt'> | null;
};

interface Row {
  id: string;
  organization_id: number;
  app_id: number | null;
  platform: JourneyPlatform;
  external_user_id: string | null;
  user_linked_at: Date | null;
  deep_link_token: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  referrer: string | null;
  landing_url: string | null;
  link_type: 'url' | 'campaign' | null;
  link_id: number | null;
  link_code: string | null;
  link_registered_at: Date | null;
  started_at: Date;
  updated_at: Date;
}

function toSession(row: Row): JourneySession {
  return {
    id: row.id,
    organizationId: row.organization_id,
    appId: row.app_id,
    platform: row.platform,
    externalUserId: row.external_user_id,
    userLinkedAt: row.user_linked_at,
    deepLinkToken: row.deep_link_token,
    utmSource: row.utm_source,
    utmMedium: row.utm_medium,
    utmCampaign: row.utm_campaign,
    referrer: row.referrer,
    landingUrl: row.landing_url,
    link:
      row.link_type && row.link_id !== null
        ? {
            type: row.link_type,
            id: row.link_id,
            code: row.link_code,
            registeredAt: row.link_registered_at ?? row.started_at,
          }
        : null,
    startedAt: row.started_at,
    updatedAt: row.updated_at,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Session ids are UUIDs; anything else cannot name a session (and must not reach a uuid cast). */
const isSessionId = (id: string) => UUID.test(id);

export type TransactionOutcome =
  | { recorded: true }
  | { recorded: false; firstEventId: string; firstSessionId: string; firstRecordedAt: Date };

export function createJourneySessionsRepo({ sql }: { sql: Sql }) {
  return {
    async create(s: NewSession): Promise<JourneySession> {
      const [row] = await sql<Row[]>`
        insert into journey_sessions (
          id, organization_id, app_id, platform, external_user_id, user_linked_at, deep_link_token,
          utm_source, utm_medium, utm_campaign, referrer, landing_url,
          link_type, link_id, link_code, link_registered_at, started_at, updated_at)
        values (
          ${s.id}, ${s.organizationId}, ${s.appId}, ${s.platform}, ${s.externalUserId},
          ${s.externalUserId ? s.startedAt : null}, ${s.deepLinkToken},
          ${s.utmSource}, ${s.utmMedium}, ${s.utmCampaign}, ${s.referrer}, ${s.landingUrl},
          ${s.link?.type ?? null}, ${s.link?.id ?? null}, ${s.link?.code ?? null}, ${s.link ? s.startedAt : null},
          ${s.startedAt}, ${s.startedAt})
        returning *`;
      return toSession(row!);
    },

    async get(organizationId: number, id: string): Promise<JourneySession | undefined> {
      if (!isSessionId(id)) return undefined;
      const [row] = await sql<
        Row[]
      >`select * from journey_sessions where id = ${id} and organization_id = ${organizationId}`;
      return row && toSession(row);
    },

    /** The sessions of these ids that belong to the organization. */
    async getMany(organizationId: number, ids: string[]): Promise<Map<string, JourneySession>> {
      const valid = ids.filter(isSessionId);
      if (valid.length === 0) return new Map();
      const rows = await sql<Row[]>`
        select * from journey_sessions where organization_id = ${organizationId} and id = any(${valid}::uuid[])`;
      return new Map(rows.map((r) => [r.id, toSession(r)]));
    },

    async linkUser(organizationId: number, id: string, externalUserId: string): Promise<JourneySession | undefined> {
      if (!isSessionId(id)) return undefined;
      const [row] = await sql<Row[]>`
        update journey_sessions set
          user_linked_at = case when external_user_id is distinct from ${externalUserId} then now() else user_linked_at end,
          external_user_id = ${externalUserId},
          updated_at = now()
        where id = ${id} and organization_id = ${organizationId}
        returning *`;
      return row && toSession(row);
    },

    async registerLink(
      organizationId: number,
      id: string,
      link: { type: 'url' | 'campaign'; id: number; code: string | null },
    ): Promise<JourneySession | undefined> {
      if (!isSessionId(id)) return undefined;
      const [row] = await sql<Row[]>`
        update journey_sessions set
          link_type = ${link.type}, link_id = ${link.id}, link_code = ${link.code}, link_registered_at = now(), updated_at = now()
        where id = ${id} and organization_id = ${organizationId}
        returning *`;
      return row && toSession(row);
    },

    /**
     * A short URL or campaign of the organization, by id or by its code. A code names a short URL
     * first, then a campaign alias; on several domains the platform's own host wins, then the oldest.
     */
    async findLink(
      organizationId: number,
      by: { urlId: number } | { campaignId: number } | { code: string } | { alias: string },
    ): Promise<{ type: 'url' | 'campaign'; id: number; code: string } | undefined> {
      if ('urlId' in by) {
        const [row] = await sql<{ id: number; code: string }[]>`
          select id, short_code as code from short_urls where id = ${by.urlId} and organization_id = ${organizationId}`;
        return row && { type: 'url', id: row.id, code: row.code };
      }
      if ('campaignId' in by) {
        const [row] = await sql<{ id: number; code: string }[]>`
          select id, alias as code from campaigns where id = ${by.campaignId} and organization_id = ${organizationId}`;
        return row && { type: 'campaign', id: row.id, code: row.code };
      }
      if ('alias' in by) {
        const [row] = await sql<{ id: number; code: string }[]>`
          select id, alias as code from campaigns where organization_id = ${organizationId} and alias = ${by.alias}
          order by custom_domain_id is not null, created_at limit 1`;
        return row && { type: 'campaign', id: row.id, code: row.code };
      }
      const [row] = await sql<{ type: 'url' | 'campaign'; id: number; code: string }[]>`
        (select 'url' as type, id, short_code as code, 0 as kind, custom_domain_id is not null as custom, created_at
           from short_urls where organization_id = ${organizationId} and short_code = ${by.code})
        union all
        (select 'campaign' as type, id, alias as code, 1 as kind, custom_domain_id is not null as custom, created_at
           from campaigns where organization_id = ${organizationId} and alias = ${by.code})
        order by kind, custom, created_at
        limit 1`;
      return row && { type: row.type, id: row.id, code: row.code };
    },

    /** Claims a goal's transactionId for the organization; a repeat tells who claimed it first. */
    async claimTransaction(input: {
      organizationId: number;
      transactionId: string;
      sessionId: string;
      eventId: string;
      goalType: string | null;
      goalValue: number | null;
      currency: string | null;
    }): Promise<TransactionOutcome> {
      const inserted = await sql`
        insert into journey_transactions (organization_id, transaction_id, session_id, event_id, goal_type, goal_value, currency)
        values (${input.organizationId}, ${input.transactionId}, ${input.sessionId}, ${input.eventId},
                ${input.goalType}, ${input.goalValue}, ${input.currency})
        on conflict (organization_id, transaction_id) do nothing
        returning transaction_id`;
      if (inserted.length > 0) return { recorded: true };
      const [first] = await sql<{ event_id: string; session_id: string; recorded_at: Date }[]>`
        select event_id, session_id, recorded_at from journey_transactions
        where organization_id = ${input.organizationId} and transaction_id = ${input.transactionId}`;
      return {
        recorded: false,
        firstEventId: first!.event_id,
        firstSessionId: first!.session_id,
        firstRecordedAt: first!.recorded_at,
      };
    },
  };
}

export type JourneySessionsRepo = ReturnType<typeof createJourneySessionsRepo>;
