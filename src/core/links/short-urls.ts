// Short URLs of the caller's organization: create (a chosen alias or a generated code), list,
// read, update, delete, and the QR code of one (a plan feature).
import { forbidden, notFound } from '../../shared/errors.js';
import { PLAN_LIMITS } from '../../shared/plans.js';
import type { ShortUrl, ShortUrlFields, ShortUrlListFilter, ShortUrlsRepo } from '../../oltp/short-urls.repo.js';
import { generateShortCode, linkAddress } from './link-rules.js';
import { renderQrCode, type QrOptions } from './qr-code.js';
import { createTrackedLinks, OPTIONAL_LINK_FIELDS, orNull } from './tracked-links.js';
import type { LinkCaller, NewLink, OwnNewLink, TrackedLinksDeps } from './tracked-links.js';

export type { ShortUrl, ShortUrlFields, ShortUrlListFilter };

export type NewShortUrl = NewLink<ShortUrlFields> & {
  /** The code to claim; left out, one is generated. */
  customAlias?: string | undefined;
};

/** The fields a create may leave out (null then): the campaign's, and the short URL's own. */
const OPTIONAL_FIELDS = [
  ...OPTIONAL_LINK_FIELDS,
  'title',
  'ogTitle',
  'ogDescription',
  'ogImageUrl',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  'mobileTargetUrl',
] as const;

/**
 * What a create writes of its own: its fields (those left out null, showAdPage false), and the code
 * it claims: the alias asked for, else a generated one, generated again while taken.
 */
const ownOf = (input: NewShortUrl): OwnNewLink<ShortUrlFields> => ({
  fields: { ...orNull(input, OPTIONAL_FIELDS), originalUrl: input.originalUrl, showAdPage: input.showAdPage ?? false },
  slug: {
    field: 'customAlias',
    chosen: input.customAlias,
    code: input.customAlias ?? generateShortCode(),
    ...(input.customAlias ? {} : { nextCode: () => generateShortCode() }),
  },
});

export function createShortUrlService(deps: TrackedLinksDeps & { repo: ShortUrlsRepo; publicBaseUrl: string }) {
  const links = createTrackedLinks<ShortUrl, ShortUrlFields, ShortUrlListFilter>(deps, {
    repo: deps.repo,
    linkType: 'url',
    missing: (id) => notFound('SHORT_URL_NOT_FOUND', `short URL ${id} does not exist`),
  });

  return {
    ...links.service,

    async create(caller: LinkCaller, input: NewShortUrl) {
      return links.create(caller, input, ownOf(input), deps.repo.create);
    },

    /** Many short URLs at once (up to a thousand): each input answers its record or why it was refused. */
    createMany(caller: LinkCaller, inputs: readonly NewShortUrl[]) {
      return links.createMany(caller, inputs, ownOf, deps.repo.createMany);
    },

    /** createMany answering each created link's id only (imports): its record is not read back. */
    createManyIds(caller: LinkCaller, inputs: readonly NewShortUrl[]) {
      return links.createMany(caller, inputs, ownOf, deps.repo.insertMany);
    },

    /** The QR code of the link's address. */
    async qrCode(caller: LinkCaller, id: number, options: QrOptions) {
      // Another organization's id is a 404 on every plan: the plan check never confirms it exists.
      const u = await links.find(caller, id);
      if (!PLAN_LIMITS[caller.organization.plan].qrCodes) {
        throw forbidden('PLAN_UPGRADE_REQUIRED', 'QR codes need the PRO plan or above');
      }
      const shortUrl = linkAddress(deps.publicBaseUrl, u.customDomainName, u.shortCode);
      return { qrCode: await renderQrCode(shortUrl, options), shortUrl, format: options.format };
    },
  };
}

export type ShortUrlService = ReturnType<typeof createShortUrlService>;
