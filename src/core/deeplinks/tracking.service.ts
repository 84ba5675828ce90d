// Tracking for the mobile SDK: funnel stages (idempotent per session, stage and timestamp),
// clicks the app reports itself (recorded like the redirect's clicks, the same `click` event), and
// the push-service identity attached to a link. Only the caller's organization's links are visible.
import type { EventPublisher } from '../../ingest/publisher.js';
import type { DeepLinkRecordsRepo, LinkRef } from '../../oltp/deep-link-records.repo.js';
import type { DeepLinkTokensRepo } from '../../oltp/deep-link-tokens.repo.js';
import type { MobileFunnelStage } from '../../ingest/deep-link-events.js';
import { gone, notFound } from '../../shared/errors.js';
import { clickEvent } from '../clicks/click-event.js';
import { normalizeIp } from '../../shared/ip.js';
import type { DeepLinkRecorder } from './records.js';
import { linkNotFound } from './not-found.js';
import type { AppCaller } from './caller.js';
import { isExpired, type LinkTargets, type LinkType, type TargetLink } from './targets.js';

/** The funnel stages an app reports, as the event pipeline stores them. */
export { MOBILE_FUNNEL_STAGES } from '../../ingest/deep-link-events.js';

export interface FunnelStageInput {
  sessionId: string;
  stage: MobileFunnelStage;
  /** When the stage happened (Unix ms); undefined when the app sent no time: the stage then counts once per session. */
  occurredAt?: number | undefined;
  goalType?: string | undefined;
  goalValue: number | null;
  /** A goal value that is not a number, kept as the app sent it. */
  goalText?: string | null | undefined;
  platform?: 'IOS' | 'ANDROID' | undefined;
  deviceType?: string | undefined;
  /** The link the app names; without one, a session that is a deep-link token belongs to the token's link. */
  link?: LinkRef | undefined;
  externalUserId?: string | undefined;
}

/** Where an SDK-reported click came from: the host it was sent to, the connection, and what the app says of the device. */
export interface ClickSource {
  host: string;
  ip: string;
  userAgent?: string | undefined;
  acceptLanguage?: string | undefined;
  deviceInfo?: { userAgent?: string | undefined } | undefined;
}

export function createDeepLinkTrackingService(deps: {
  tokens: Pick<DeepLinkTokensRepo, 'get'>;
  records: Pick<DeepLinkRecordsRepo, 'markFunnelStage' | 'nextClickId' | 'upsertAssociation'>;
  recorder: Pick<DeepLinkRecorder, 'funnel'>;
  targets: LinkTargets;
  events: EventPublisher;
}) {
  const { tokens, records, recorder, targets, events } = deps;

  async function findByCode(organizationId: number, code: string, linkType: LinkType): Promise<TargetLink> {
    const link = await targets.byCode(organizationId, code, linkType);
    if (!link) throw linkNotFound(linkType, code);
    return link;
  }

  /** A click the app reports, recorded like the redirect's (the same `click` event and table). */
  async function recordClick(link: TargetLink, source: ClickSource, extra: { cid: string; tracker: string }) {
    if (isExpired(link)) throw gone('LINK_EXPIRED', 'the link has expired');
    const clickId = await records.nextClickId();
    const f = link.linkType === 'url' ? link.url : link.campaign;
    events.record(
      clickEvent({
        link: { kind: link.linkType, id: f.id, organizationId: f.organizationId },
        host: source.host,
        ip: normalizeIp(source.ip),
        userAgent: source.deviceInfo?.userAgent ?? source.userAgent,
        referrer: undefined,
        acceptLanguage: source.acceptLanguage,
        cid: extra.cid,
        tracker: extra.tracker,
        bot: false,
        source: 'mobile_sdk',
        clickId,
      }),
    );
    return clickId;
  }

  return {
    /** Records a funnel stage once; `recorded` is false for a repeat. */
    async trackFunnelStage(
      caller: AppCaller,
      input: FunnelStageInput,
    ): Promise<{ recorded: boolean; timestamp: string; link: LinkRef | null }> {
      const organizationId = caller.organization.id;
      let link: LinkRef | null = null;
      if (input.link) {
        if (!(await targets.load(organizationId, input.link))) {
          throw input.link.linkType === 'url'
            ? notFound('SHORT_URL_NOT_FOUND', `short URL ${input.link.id} does not exist`)
            : notFound('CAMPAIGN_NOT_FOUND', `campaign ${input.link.id} does not exist`);
        }
        link = input.link;
      } else {
        // A session that is a deep-link token of this organization belongs to the token's link.
        const token = input.sessionId.length <= 100 ? await tokens.get(input.sessionId) : undefined;
        if (token && token.organizationId === organizationId) link = { linkType: token.linkType, id: token.linkId };
      }
      const occurredAt = input.occurredAt ?? Date.now();
      const timestamp = new Date(occurredAt).toISOString();
      const recorded = await records.markFunnelStage(
        organizationId,
        input.sessionId,
        input.stage,
        input.occurredAt === undefined ? '' : timestamp,
      );
      if (recorded) {
        const currency = /^purchase_([A-Za-z]{3})$/.exec(input.goalType ?? '')?.[1]?.toUpperCase() ?? null;
        recorder.funnel(
          organizationId,
          {
            appId: caller.app.id,
            platform: input.platform ?? caller.app.platform,
            sessionId: input.sessionId,
            stage: input.stage,
            linkType: link?.linkType ?? null,
            linkId: link?.id ?? null,
            goalType: input.goalType ?? null,
            goalValue: input.goalValue,
            goalText: input.goalText ?? null,
            currency,
            deviceType: input.deviceType ?? null,
            externalUserId: input.externalUserId ?? null,
            source: 'sdk',
          },
          occurredAt,
        );
      }
      return { recorded, timestamp, link };
    },

    /** A click on a short URL inside the app. */
    async shortUrlClick(caller: AppCaller, shortCode: string, source: ClickSource) {
      const link = await findByCode(caller.organization.id, shortCode, 'url');
      if (link.linkType !== 'url') throw new Error('unreachable');
      const clickId = await recordClick(link, source, { cid: '', tracker: '' });
      return { clickId, url: link.url };
    },

    /** A click on a campaign inside the app, with the tracker and customer id it carries. */
    async campaignClick(
      caller: AppCaller,
      click: { campaignAlias: string; trackerAlias?: string | undefined; customId?: string | undefined },
      source: ClickSource,
    ) {
      const link = await findByCode(caller.organization.id, click.campaignAlias, 'campaign');
      if (link.linkType !== 'campaign') throw new Error('unreachable');
      const clickId = await recordClick(link, source, { cid: click.customId ?? '', tracker: click.trackerAlias ?? '' });
      return { clickId, link, campaign: link.campaign };
    },

    /** Attaches a push-service identity to a link (upsert per link and tokenidx). */
    async associate(
      caller: AppCaller,
      target: { code: string; linkType: LinkType; appPath?: string | undefined },
      identity: { tokenidx: string; identify: string },
    ) {
      const organizationId = caller.organization.id;
      const { code, linkType, appPath } = target;
      const link = await findByCode(organizationId, code, linkType);
      if (appPath !== undefined && !(await targets.servesAppPath(organizationId, link, appPath))) {
        throw notFound(
          linkType === 'url' ? 'SHORT_URL_NOT_FOUND' : 'CAMPAIGN_NOT_FOUND',
          `no link ${appPath}/${code} in your organization`,
        );
      }
      const linkRef = { linkType: link.linkType, id: link.linkType === 'url' ? link.url.id : link.campaign.id };
      const saved = await records.upsertAssociation({ organizationId, link: linkRef, ...identity });
      return { created: saved.created, updatedAt: saved.updatedAt, link: linkRef };
    },
  };
}

export type DeepLinkTrackingService = ReturnType<typeof createDeepLinkTrackingService>;
