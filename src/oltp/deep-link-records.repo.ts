// What the SDK APIs keep besides tokens: funnel/track idempotency marks, push-identity
// associations of links, the web SDK's intent debug reports, clickIds of SDK-reported clicks, and
// the look-up of a link by its code inside one organization.
import type { Sql } from './postgres.js';

export interface LinkRef {
  linkType: 'url' | 'campaign';
  id: number;
}

export interface DebugSchemeReport {
  id: number;
  organizationId: number | null;
  appId: number | null;
  token: string | null;
  appUrl: string | null;
  schemeEnd: string | null;
  pathPart: string | null;
  androidPackage: string | null;
  appScheme: string | null;
  intentUrl: string | null;
  userAgent: string | null;
  createdAt: Date;
}

export type NewDebugSchemeReport = Omit<DebugSchemeReport, 'id' | 'createdAt'>;

/** Reports kept per app (or for reports without one): the newest, enough to debug with. */
const DEBUG_REPORTS_KEPT = 500;
const DEBUG_REPORTS_DAYS = 14;
const FUNNEL_MARKS_DAYS = 30;

export function createDeepLinkRecordsRepo({ sql }: { sql: Sql }) {
  return {
    /**
     * The short URL (or campaign) with this code in the organization: the platform host's first,
     * then any of its custom domains.
     */
    async findLinkByCode(
      organizationId: number,
      code: string,
      linkType: 'url' | 'campaign',
    ): Promise<LinkRef | undefined> {
      const [row] = await sql<{ short_url_id: number | null; campaign_id: number | null }[]>`
        select short_url_id, campaign_id from slugs
        where organization_id = ${organizationId} and code = ${code}
          and ${linkType === 'url' ? sql`short_url_id is not null` : sql`campaign_id is not null`}
        order by (domain_key = '') desc, domain_key
        limit 1`;
      if (!row) return undefined;
      return { linkType, id: (linkType === 'url' ? row.short_url_id : row.campaign_id)! };
    },

    /** Records a funnel stage once: false when this session, stage and timestamp were seen before. */
    async markFunnelStage(
      organizationId: number,
      sessionId: string,
      stage: string,
      occurredAt: string,
    ): Promise<boolean> {
      const rows = await sql`
        insert into deep_link_funnel_marks (organization_id, session_id, stage, occurred_at)
        values (${organizationId}, ${sessionId}, ${stage}, ${occurredAt})
        on conflict do nothing returning 1`;
      return rows.length > 0;
    },

    async upsertAssociation(a: { organizationId: number; link: LinkRef; tokenidx: string; identify: string }) {
      const [row] = await sql<{ created: boolean; created_at: Date; updated_at: Date }[]>`
        insert into link_associations (organization_id, link_type, link_id, tokenidx, identify)
        values (${a.organizationId}, ${a.link.linkType}, ${a.link.id}, ${a.tokenidx}, ${a.identify})
        on conflict (organization_id, link_type, link_id, tokenidx)
        do update set identify = excluded.identify, updated_at = now()
        returning (xmax = 0) as created, created_at, updated_at`;
      return { created: row!.created, createdAt: row!.created_at, updatedAt: row!.updated_at };
    },

    async nextClickId(): Promise<number> {
      const [row] = await sql<{ id: number }[]>`select nextval('sdk_click_ids')::bigint as id`;
      return row!.id;
    },

    /** Stores a report and trims its app's reports to the newest DEBUG_REPORTS_KEPT. */
    async addDebugSchemeReport(r: NewDebugSchemeReport): Promise<number> {
      const [row] = await sql<{ id: number }[]>`
        insert into debug_scheme_reports (organization_id, app_id, token, app_url, scheme_end, path_part,
          android_package, app_scheme, intent_url, user_agent)
        values (${r.organizationId}, ${r.appId}, ${r.token}, ${r.appUrl}, ${r.schemeEnd}, ${r.pathPart},
          ${r.androidPackage}, ${r.appScheme}, ${r.intentUrl}, ${r.userAgent})
        returning id`;
      await sql`
        delete from debug_scheme_reports where app_id is not distinct from ${r.appId} and id < (
          select id from debug_scheme_reports where app_id is not distinct from ${r.appId}
          order by id desc offset ${DEBUG_REPORTS_KEPT - 1} limit 1)`;
      return row!.id;
    },

    async listDebugSchemeReports(filter: { appId?: number | undefined; limit: number }): Promise<DebugSchemeReport[]> {
      const rows = await sql<Record<string, unknown>[]>`
        select * from debug_scheme_reports
        ${filter.appId === undefined ? sql`` : sql`where app_id = ${filter.appId}`}
        order by id desc limit ${filter.limit}`;
      return rows.map((r) => ({
        id: r.id as number,
        organizationId: (r.organization_id as number | null) ?? null,
        appId: (r.app_id as number | null) ?? null,
        token: (r.token as string | null) ?? null,
        appUrl: (r.app_url as string | null) ?? null,
        schemeEnd: (r.scheme_end as string | null) ?? null,
        pathPart: (r.path_part as string | null) ?? null,
        androidPackage: (r.android_package as string | null) ?? null,
        appScheme: (r.app_scheme as string | null) ?? null,
        intentUrl: (r.intent_url as string | null) ?? null,
        userAgent: (r.user_agent as string | null) ?? null,
        createdAt: r.created_at as Date,
      }));
    },

    /** Old funnel marks and debug reports: bounded tables, safe to run on every instance. */
    async purgeOld(): Promise<{ marks: number; reports: number }> {
      const marks = await sql`
        delete from deep_link_funnel_marks where ctid in (
          select ctid from deep_link_funnel_marks where recorded_at < now() - make_interval(days => ${FUNNEL_MARKS_DAYS})
          limit 10000 for update skip locked)
        returning 1`;
      const reports = await sql`
        delete from debug_scheme_reports where created_at < now() - make_interval(days => ${DEBUG_REPORTS_DAYS}) returning 1`;
      return { marks: marks.length, reports: reports.length };
    },
  };
}

export type DeepLinkRecordsRepo = ReturnType<typeof createDeepLinkRecordsRepo>;
