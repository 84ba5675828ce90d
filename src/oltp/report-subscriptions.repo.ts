// Members' subscriptions to reports by mail (sql/postgres/0009): what each member receives, and the
// round's claim on a due period. A period is due when its start is after the last one claimed; the
// claim marks it before the mail is sent (rows another instance is marking are skipped), and a
// failed mail gives the mark back, so each period of each subscription is mailed once.
import type { Sql } from './postgres.js';

export type ReportFrequency = 'weekly' | 'monthly';
export type ReportScope =
  | { type: 'organization' }
  | { type: 'tag'; id: number }
  | { type: 'url'; id: number }
  | { type: 'campaign'; id: number };

export interface ReportSubscription {
  id: number;
  organizationId: number;
  userId: number;
  frequency: ReportFrequency;
  scope: ReportScope;
  timeZone: string;
  unsubscribeKey: Buffer;
  /** The start (local date) of the last period claimed for sending; null before the first. */
  periodStart: string | null;
  lastSentAt: Date | null;
  createdAt: Date;
}

/** A subscription the round took, with the period it took it for and the mark it had before. */
export interface ClaimedReport extends ReportSubscription {
  periodStart: string;
  previousPeriodStart: string | null;
}

interface Row {
  id: number;
  organization_id: number;
  user_id: number;
  frequency: ReportFrequency;
  scope_type: ReportScope['type'];
  tag_id: number | null;
  short_url_id: number | null;
  campaign_id: number | null;
  time_zone: string;
  unsubscribe_key: Buffer;
  period_start: string | null;
  last_sent_at: Date | null;
  created_at: Date;
}

function scopeOf(r: Row): ReportScope {
  if (r.scope_type === 'tag') return { type: 'tag', id: r.tag_id! };
  if (r.scope_type === 'url') return { type: 'url', id: r.short_url_id! };
  if (r.scope_type === 'campaign') return { type: 'campaign', id: r.campaign_id! };
  return { type: 'organization' };
}

const toSubscription = (r: Row): ReportSubscription => ({
  id: r.id,
  organizationId: r.organization_id,
  userId: r.user_id,
  frequency: r.frequency,
  scope: scopeOf(r),
  timeZone: r.time_zone,
  unsubscribeKey: r.unsubscribe_key,
  periodStart: r.period_start,
  lastSentAt: r.last_sent_at,
  createdAt: r.created_at,
});

export function createReportSubscriptionsRepo({ sql }: { sql: Sql }) {
  const columns = sql`id, organization_id, user_id, frequency, scope_type, tag_id, short_url_id, campaign_id,
    time_zone, unsubscribe_key, period_start::text as period_start, last_sent_at, created_at`;
  // The start of the last whole week (Monday) or month before `now` in the row's zone, as a local date.
  const dueStart = (now: Date) => sql`
    (date_trunc(case when frequency = 'weekly' then 'week' else 'month' end, ${now}::timestamptz at time zone time_zone)
      - case when frequency = 'weekly' then interval '7 days' else interval '1 month' end)::date`;

  return {
    /** The new subscription; undefined when the member already has this one. */
    async create(
      input: Pick<
        ReportSubscription,
        'organizationId' | 'userId' | 'frequency' | 'scope' | 'timeZone' | 'unsubscribeKey'
      > & { now: Date },
    ): Promise<ReportSubscription | undefined> {
      const { scope } = input;
      const id = (type: ReportScope['type']) => (scope.type === type && 'id' in scope ? scope.id : null);
      const [row] = await sql<Row[]>`
        insert into report_subscriptions
          (organization_id, user_id, frequency, scope_type, tag_id, short_url_id, campaign_id, time_zone, unsubscribe_key, created_at)
        values (${input.organizationId}, ${input.userId}, ${input.frequency}, ${scope.type}, ${id('tag')}, ${id('url')},
          ${id('campaign')}, ${input.timeZone}, ${input.unsubscribeKey}, ${input.now})
        on conflict do nothing
        returning ${columns}`;
      return row && toSubscription(row);
    },

    /** The member's subscriptions in the organization, oldest first. */
    async listOf(organizationId: number, userId: number): Promise<ReportSubscription[]> {
      const rows = await sql<Row[]>`
        select ${columns} from report_subscriptions
        where organization_id = ${organizationId} and user_id = ${userId} order by id`;
      return rows.map(toSubscription);
    },

    async get(id: number): Promise<ReportSubscription | undefined> {
      const [row] = await sql<Row[]>`select ${columns} from report_subscriptions where id = ${id}`;
      return row && toSubscription(row);
    },

    /** Ends a subscription of the member in the organization; false when they have none by that id. */
    async removeOf(organizationId: number, userId: number, id: number): Promise<boolean> {
      const rows = await sql`
        delete from report_subscriptions
        where id = ${id} and organization_id = ${organizationId} and user_id = ${userId} returning 1`;
      return rows.length > 0;
    },

    /** Ends a subscription whoever asks (its signed unsubscribe link, or a member who left); false when gone already. */
    async remove(id: number): Promise<boolean> {
      const rows = await sql`delete from report_subscriptions where id = ${id} returning 1`;
      return rows.length > 0;
    },

    /**
     * Marks up to `limit` subscriptions whose last whole period before `now` is not yet claimed as
     * claimed for it, and answers them with the period and the mark they had.
     */
    async claimDue(now: Date, limit: number): Promise<ClaimedReport[]> {
      const rows = await sql<(Row & { previous_period_start: string | null })[]>`
        update report_subscriptions s set period_start = due.start
        from (
          select id, period_start as previous, ${dueStart(now)} as start from report_subscriptions
          where period_start is null or period_start < ${dueStart(now)}
          order by id limit ${limit}
          for update skip locked) due
        where s.id = due.id and (s.period_start is null or s.period_start < due.start)
        returning s.id, s.organization_id, s.user_id, s.frequency, s.scope_type, s.tag_id, s.short_url_id,
          s.campaign_id, s.time_zone, s.unsubscribe_key, s.period_start::text as period_start, s.last_sent_at,
          s.created_at, due.previous::text as previous_period_start`;
      return rows.map((r) => ({
        ...toSubscription(r),
        periodStart: r.period_start!,
        previousPeriodStart: r.previous_period_start,
      }));
    },

    /** Gives a claimed period back (its mail failed), for a later round to send. */
    async release(id: number, claimed: string, previous: string | null): Promise<void> {
      await sql`update report_subscriptions set period_start = ${previous}::date
        where id = ${id} and period_start = ${claimed}::date`;
    },

    /** The tag's name (the dashboards filter by names); undefined once it is gone. */
    async tagName(organizationId: number, tagId: number): Promise<string | undefined> {
      const [row] = await sql<{ name: string }[]>`
        select name from tags where organization_id = ${organizationId} and id = ${tagId}`;
      return row?.name;
    },

    async markSent(id: number, at: Date): Promise<void> {
      await sql`update report_subscriptions set last_sent_at = ${at} where id = ${id}`;
    },
  };
}

export type ReportSubscriptionsRepo = ReturnType<typeof createReportSubscriptionsRepo>;
