// The Custom domain record as clients see it (createdAt as yyyy-MM-dd'T'HH:mm, UTC), its list query and page.
import { z } from 'zod';
import { DOMAIN_NAME_MAX_LENGTH, DOMAIN_NAME_PATTERN } from '../../core/domains/domain-name.js';
import {
  DOMAIN_STATUSES,
  SORT_COLUMNS,
  type CustomDomain,
  type DomainSortField,
} from '../../core/domains/domains.service.js';
import { isoMinuteUtc } from '../../shared/time.js';
import { pageQuery, springPageResponse } from './paging.js';

export const domainStatusSchema = z.enum(DOMAIN_STATUSES);

export const customDomainSchema = z
  .object({
    id: z.number().int(),
    domainName: z.string(),
    ownerUsername: z
      .string()
      .describe(
        "the owner account: the console member who registered the domain (their name, else their address); the organization's name for one the operator registered",
      ),
    status: domainStatusSchema,
    cnameRecordName: z.string().nullable().describe('null for subdomains of the platform host'),
    cnameRecordValue: z.string().nullable(),
    createdAt: z.string().describe("yyyy-MM-dd'T'HH:mm, UTC"),
    deletionRequested: z.boolean(),
    deletionRequestedAt: z.string().nullable(),
  })
  .meta({ id: 'CustomDomain' });

export type CustomDomainJson = z.infer<typeof customDomainSchema>;

export function toCustomDomainJson(d: CustomDomain): CustomDomainJson {
  return {
    id: d.id,
    domainName: d.domainName,
    ownerUsername: d.ownerUsername,
    status: d.status,
    cnameRecordName: d.cnameRecordName,
    cnameRecordValue: d.cnameRecordValue,
    createdAt: isoMinuteUtc(d.createdAt),
    deletionRequested: d.deletionRequested,
    deletionRequestedAt: d.deletionRequestedAt ? isoMinuteUtc(d.deletionRequestedAt) : null,
  };
}

export const domainNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(DOMAIN_NAME_MAX_LENGTH)
  .regex(DOMAIN_NAME_PATTERN, 'must be a domain name such as links.example.com');

/** Spring-style `field,direction`, the field from a closed list. */
const domainSortSchema = z
  .string()
  .default('createdAt,desc')
  .transform((value, ctx) => {
    const [field, direction = 'asc', extra] = value.split(',').map((s) => s.trim());
    // Own keys only: `in` would also accept inherited names such as constructor or toString.
    if (
      extra !== undefined ||
      !field ||
      !Object.hasOwn(SORT_COLUMNS, field) ||
      !['asc', 'desc'].includes(direction.toLowerCase())
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `must be field,direction with field one of ${Object.keys(SORT_COLUMNS).join(', ')} and direction asc or desc`,
      });
      return z.NEVER;
    }
    return { field: field as DomainSortField, direction: direction.toLowerCase() as 'asc' | 'desc' };
  });

/** The query of a custom-domain list (Service API and mobile SDK alike). */
export const customDomainListQuery = z.object({
  ...pageQuery,
  search: z.string().max(100).optional().describe('part of the domain name'),
  status: domainStatusSchema.optional(),
  sort: domainSortSchema,
});

/** A page of custom domains, in the Spring-style wrapper. */
export const customDomainPageSchema = springPageResponse(customDomainSchema, 'CustomDomainPage');
