// The `campaign_change` event: a campaign created, updated or deleted through the Service API. It
// has no ClickHouse table; webhooks turn it into campaign.created, campaign.updated, campaign.deleted.

/** `data` of a `campaign_change` event. */
export interface CampaignChangeData {
  action: 'created' | 'updated' | 'deleted';
  campaign: { id: number; name: string; alias: string };
}
