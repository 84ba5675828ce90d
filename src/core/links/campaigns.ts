// Campaigns of the caller's organization: named tracked links with an alias (chosen, or made
// from the name). Every change is also published as a campaign_change event (webhooks).
import { notFound } from '../../shared/errors.js';
import { randomBase62, uuidv7 } from '../../shared/ids.js';
import type { EventPublisher } from '../../ingest/publisher.js';
import type { Campaign, CampaignFields, CampaignListFilter, CampaignsRepo } from '../../oltp/campaigns.repo.js';
import { aliasFromName } from './link-rules.js';
import { createTrackedLinks, OPTIONAL_LINK_FIELDS, orNull } from './tracked-links.js';
import type { ChangeAction, LinkCaller, NewLink, OwnNewLink, TrackedLinksDeps } from './tracked-links.js';

export type { Campaign, CampaignFields, CampaignListFilter };

export type NewCampaign = NewLink<CampaignFields> & {
  name: string;
  /** The alias to claim; left out, one is made from the name. */
  alias?: string | undefined;
};

export function createCampaignService(deps: TrackedLinksDeps & { repo: CampaignsRepo; events: EventPublisher }) {
  /** A `campaign_change` event on the bus (webhooks: campaign.created/updated/deleted). */
  const changed = (action: ChangeAction, c: Campaign) =>
    deps.events.record({
      eventId: uuidv7(),
      type: 'campaign_change',
      occurredAt: Date.now(),
      organizationId: c.organizationId,
      data: { action, campaign: { id: c.id, name: c.name, alias: c.alias } },
    });
  const links = createTrackedLinks<Campaign, CampaignFields, CampaignListFilter>(deps, {
    repo: deps.repo,
    linkType: 'campaign',
    missing: (id) => notFound('CAMPAIGN_NOT_FOUND', `campaign ${id} does not exist`),
    changed,
  });

  return {
    ...links.service,

    async create(caller: LinkCaller, input: NewCampaign) {
      const generated = input.alias === undefined;
      const base = input.alias ?? aliasFromName(input.name);
      const own: OwnNewLink<CampaignFields> = {
        fields: { ...orNull(input, OPTIONAL_LINK_FIELDS), name: input.name, originalUrl: input.originalUrl },
        slug: {
          field: 'alias',
          chosen: input.alias,
          code: base,
          // A generated alias that is taken gets a short random suffix instead.
          nextCode: generated ? () => `${base.slice(0, 44)}-${randomBase62(5).toLowerCase()}` : undefined,
        },
      };
      return links.create(caller, input, own, (item) =>
        deps.repo.create({
          ...item,
          createdBy: {
            userId: caller.member?.userId ?? null,
            apiKeyId: caller.apiKeyId ?? null,
            fallback: caller.organization.name,
          },
        }),
      );
    },
  };
}

export type CampaignService = ReturnType<typeof createCampaignService>;
