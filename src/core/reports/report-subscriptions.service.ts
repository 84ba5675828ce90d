// Members' subscriptions to reports by mail: a member with the statistics permission subscribes
// to a weekly or monthly report of the organization, one of its tags or one of its links (in the
// time zone that decides where weeks and months begin), lists and cancels their own. Each mail's
// unsubscribe link carries a token signed with the subscription's own key, so it works without a
// session and only for that subscription.
import { createHmac, randomBytes } from 'node:crypto';
import { DateTime } from 'luxon';
import type { CampaignsRepo } from '../../oltp/campaigns.repo.js';
import type { OrganizationsRepo } from '../../oltp/organizations.repo.js';
import type {
  ReportFrequency,
  ReportScope,
  ReportSubscription,
  ReportSubscriptionsRepo,
} from '../../oltp/report-subscriptions.repo.js';
import type { ShortUrlsRepo } from '../../oltp/short-urls.repo.js';
import type { TagsRepo } from '../../oltp/tags.repo.js';
import { conflict, forbidden, notFound } from '../../shared/errors.js';
import { hashesEqual } from '../../shared/secrets.js';
import { authorize } from '../accounts/permissions.js';
import type { Caller } from '../caller.js';
import { invalidField } from '../field-error.js';

export type { ReportFrequency, ReportScope };

type MemberCaller = Pick<Caller, 'organization' | 'member'>;

/** A subscription as its member sees it: what it is of, by name. */
export interface ReportSubscriptionView {
  id: number;
  frequency: ReportFrequency;
  scope: ReportScope & { name: string };
  timeZone: string;
  lastSentAt: Date | null;
  createdAt: Date;
}

const MAX_SUBSCRIPTIONS_PER_MEMBER = 50;

const signature = (key: Buffer, id: number) => createHmac('sha256', key).update(`report-unsubscribe:${id}`).digest();

/** The unsubscribe token of a subscription: its id and the signature of it under its own key. */
export const unsubscribeToken = (s: Pick<ReportSubscription, 'id' | 'unsubscribeKey'>): string =>
  `${s.id}.${signature(s.unsubscribeKey, s.id).toString('base64url')}`;

export function createReportSubscriptions(deps: {
  repo: ReportSubscriptionsRepo;
  tags: Pick<TagsRepo, 'get'>;
  shortUrls: Pick<ShortUrlsRepo, 'get'>;
  campaigns: Pick<CampaignsRepo, 'get'>;
  organizations: Pick<OrganizationsRepo, 'get'>;
  clock: () => Date;
}) {
  function memberOf(caller: MemberCaller): number {
    authorize(caller, 'statistics.read');
    if (!caller.member) throw forbidden('MEMBER_REQUIRED', 'reports by mail are subscribed to by a signed-in member');
    return caller.member.userId;
  }

  /** The name of what a report is of; undefined when the organization has no such tag or link. */
  async function nameOf(organizationId: number, scope: ReportScope): Promise<string | undefined> {
    if (scope.type === 'organization') return (await deps.organizations.get(organizationId))?.name;
    if (scope.type === 'tag') return (await deps.tags.get(organizationId, scope.id))?.name;
    if (scope.type === 'url') {
      const u = await deps.shortUrls.get(organizationId, scope.id);
      return u && (u.title ?? u.shortCode);
    }
    return (await deps.campaigns.get(organizationId, scope.id))?.name;
  }

  const view = (s: ReportSubscription, name: string): ReportSubscriptionView => ({
    id: s.id,
    frequency: s.frequency,
    scope: { ...s.scope, name },
    timeZone: s.timeZone,
    lastSentAt: s.lastSentAt,
    createdAt: s.createdAt,
  });

  async function verified(token: string): Promise<ReportSubscription | undefined> {
    const m = /^([1-9][0-9]{0,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!m) return undefined;
    const found = await deps.repo.get(Number(m[1]));
    if (!found) return undefined;
    return hashesEqual(signature(found.unsubscribeKey, found.id), Buffer.from(m[2]!, 'base64url')) ? found : undefined;
  }

  return {
    nameOf,

    async list(caller: MemberCaller): Promise<ReportSubscriptionView[]> {
      const userId = memberOf(caller);
      const orgId = caller.organization.id;
      const found = await deps.repo.listOf(orgId, userId);
      return Promise.all(found.map(async (s) => view(s, (await nameOf(orgId, s.scope)) ?? '')));
    },

    async subscribe(
      caller: MemberCaller,
      input: { frequency: ReportFrequency; scope: ReportScope; timeZone: string },
    ): Promise<ReportSubscriptionView> {
      const userId = memberOf(caller);
      const orgId = caller.organization.id;
      if (!DateTime.now().setZone(input.timeZone).isValid)
        throw invalidField('timeZone', `${input.timeZone} is not a known IANA time zone`);
      const name = await nameOf(orgId, input.scope);
      if (name === undefined) {
        const what = input.scope.type === 'url' ? 'short URL' : input.scope.type;
        const code = { organization: 'ORGANIZATION', tag: 'TAG', url: 'SHORT_URL', campaign: 'CAMPAIGN' }[
          input.scope.type
        ];
        throw notFound(
          `${code}_NOT_FOUND`,
          `${what} ${'id' in input.scope ? input.scope.id : ''} does not exist`.trim(),
        );
      }
      if ((await deps.repo.listOf(orgId, userId)).length >= MAX_SUBSCRIPTIONS_PER_MEMBER)
        throw conflict(
          'REPORT_SUBSCRIPTION_LIMIT',
          `a member has at most ${MAX_SUBSCRIPTIONS_PER_MEMBER} report subscriptions`,
        );
      const created = await deps.repo.create({
        organizationId: orgId,
        userId,
        frequency: input.frequency,
        scope: input.scope,
        timeZone: input.timeZone,
        unsubscribeKey: randomBytes(32),
        now: deps.clock(),
      });
      if (!created) throw conflict('REPORT_SUBSCRIPTION_EXISTS', `you already receive this ${input.frequency} report`);
      return view(created, name);
    },

    async cancel(caller: MemberCaller, id: number): Promise<void> {
      const userId = memberOf(caller);
      if (!(await deps.repo.removeOf(caller.organization.id, userId, id)))
        throw notFound('REPORT_SUBSCRIPTION_NOT_FOUND', `report subscription ${id} does not exist`);
    },

    /** What an unsubscribe link would end, for its confirmation page; undefined for a wrong or spent token. */
    async describe(
      token: string,
    ): Promise<
      { frequency: ReportFrequency; name: string; organizationName: string; scopeType: ReportScope['type'] } | undefined
    > {
      const found = await verified(token);
      if (!found) return undefined;
      const organization = await deps.organizations.get(found.organizationId);
      return {
        frequency: found.frequency,
        name: (await nameOf(found.organizationId, found.scope)) ?? '',
        organizationName: organization?.name ?? '',
        scopeType: found.scope.type,
      };
    },

    /** Ends the subscription a signed link names; false when the token is wrong or it has ended already. */
    async unsubscribe(token: string): Promise<boolean> {
      const found = await verified(token);
      return found ? deps.repo.remove(found.id) : false;
    },
  };
}

export type ReportSubscriptions = ReturnType<typeof createReportSubscriptions>;
