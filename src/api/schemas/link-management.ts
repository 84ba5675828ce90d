// The link-management fields of short URLs and campaigns alike (contract: "Link management"):
// tags, a password, a click limit, the destination after expiry, a note and the archive, as a
// body gives them and as a record shows them.
import { z } from 'zod';
import { MAX_TAGS_PER_LINK } from '../../core/links/tags.service.js';
import type { ManagedLinkFields } from '../../core/links/tracked-links.js';
import { queryBoolean, queryDateTime } from './paging.js';
import { singleLine } from './text.js';
import { clearable } from './link.js';
import { routingBodyFields, routingRecordFields } from './routing.js';

export const tagNameSchema = singleLine(
  z.string().trim().min(1, 'must not be empty').max(50, 'must be at most 50 characters'),
);

/** The body fields, each optional; `destination` is the deployment's destination URL schema. */
export function managedLinkBodyFields(destination: z.ZodType<string>) {
  return {
    tags: z
      .array(tagNameSchema)
      .max(MAX_TAGS_PER_LINK, `must hold at most ${MAX_TAGS_PER_LINK} tags`)
      .optional()
      .describe('tag names, compared case-insensitively; a new name creates the tag (replaces all tags on update)'),
    password: z
      .string()
      .min(4, 'must be at least 4 characters')
      .max(128, 'must be at most 128 characters')
      .nullable()
      .optional()
      .describe('visitors enter it on a form page before being sent on; never shown; null removes it'),
    clickLimit: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .nullable()
      .optional()
      .describe('after this many clicks the link answers the 410 page, or sends to clickLimitUrl; null: no limit'),
    clickLimitUrl: clearable(destination).describe('where clicks go once clickLimit is reached'),
    expiredUrl: clearable(destination).describe('where clicks go once the link has expired, instead of the 410 page'),
    note: clearable(z.string().max(2000, 'must be at most 2000 characters')).describe('free text for the team'),
    archived: z.boolean().optional().describe('archived links keep redirecting but leave the default lists'),
    ...routingBodyFields(destination),
    conversionTracking: z
      .boolean()
      .optional()
      .describe(
        'extension: the redirect appends a click id (signpost_token) to the destination, so goals and revenue the web SDK reports on that page count for the click and its variant (destinationStats); default false',
      ),
  };
}

export const managedLinkRecordFields = {
  tags: z.array(z.string()).describe('tag names, alphabetically'),
  passwordProtected: z.boolean(),
  clickLimit: z.number().int().nullable(),
  clickLimitUrl: z.string().nullable(),
  remainingClicks: z
    .number()
    .int()
    .nullable()
    .describe('extension: clicks left before clickLimit (counted about once a second); null without a limit'),
  expiredUrl: z.string().nullable(),
  note: z.string().nullable().describe('extension'),
  archived: z.boolean().describe('extension'),
  ...routingRecordFields,
  conversionTracking: z
    .boolean()
    .describe('extension: clicks get a click id (signpost_token) appended to the destination, tying web goals to them'),
};

/** The list filters both kinds accept. */
export const managedListFilter = {
  createdAfter: queryDateTime.optional(),
  createdBefore: queryDateTime.optional(),
  tag: tagNameSchema.optional().describe('only links carrying this tag'),
  archived: queryBoolean.optional().describe('true: only archived links (by default they are left out)'),
};

/** What a record of either kind holds of link management. */
type ManagedRecord = Omit<ManagedLinkFields, 'tagIds'> & { tags: string[] };

export function managedLinkJson(r: ManagedRecord) {
  return {
    tags: r.tags,
    passwordProtected: r.passwordHash !== null,
    clickLimit: r.clickLimit,
    clickLimitUrl: r.clickLimitUrl,
    remainingClicks: r.clickLimit === null ? null : Math.max(0, r.clickLimit - r.limitClicks),
    expiredUrl: r.expiredUrl,
    note: r.note,
    archived: r.archivedAt !== null,
    routingRules: r.routingRules,
    variants: r.variants,
    conversionTracking: r.conversionTracking,
  };
}
