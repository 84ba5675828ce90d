// The Custom domain record exactly as the spec draws it (createdAt as yyyy-MM-dd'T'HH:mm, UTC).
import { z } from 'zod';
import { DOMAIN_STATUSES, type CustomDomain } from '../../oltp/custom-domains.repo.js';
import { isoMinuteUtc } from '../../shared/time.js';

export const domainStatusSchema = z.enum(DOMAIN_STATUSES);

export const customDomainSchema = z
  .object({
    id: z.number().int(),
    domainName: z.string(),
    ownerUsername: z.string().describe('the owning organization'),
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
    ownerUsername: d.organizationName,
    status: d.status,
    cnameRecordName: d.cnameRecordName,
    cnameRecordValue: d.cnameRecordValue,
    createdAt: isoMinuteUtc(d.createdAt),
    deletionRequested: d.deletionRequested,
    deletionRequestedAt: d.deletionRequestedAt ? isoMinuteUtc(d.deletionRequestedAt) : null,
  };
}

/** A DNS host name: labels of letters, digits and inner hyphens, at least one dot, no port. */
export const domainNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/, 'must be a domain name such as links.example.com');
