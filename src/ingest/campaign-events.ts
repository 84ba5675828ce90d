// The `campaign_change` event: a campaign created, updated or deleted through the Service API. It
// has no ClickHouse table; webhooks turn it into campaign.created, campaign.updated, campaign.deleted.
import { defineEvent } from './event-spec.js';
import { positiveId, text, webhookEvent } from './webhook-events.js';

/** `data` of a `campaign_change` event. */
export interface CampaignChangeData {
  action: 'created' | 'updated' | 'deleted';
  campaign: { id: number; name: string; alias: string };
}

export const CAMPAIGN_EVENTS = {
  campaign_change: defineEvent<CampaignChangeData>()({
    category: 'campaign',
    webhooks: {
      categories: ['campaign'],
      toEvents(e) {
        const { action } = e.data;
        const c = (e.data.campaign ?? {}) as Record<string, unknown>;
        if (action !== 'created' && action !== 'updated' && action !== 'deleted') return [];
        return [
          webhookEvent(e, `campaign.${action}`, 'campaign', {
            campaign: { id: positiveId(c.id), name: text(c.name), alias: text(c.alias) },
          }),
        ];
      },
    },
  }),
};
