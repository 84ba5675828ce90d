// What a custom domain name may be, and how one relates to the platform's own host.

/** A DNS host name: labels of letters, digits and inner hyphens, at least one dot, no port. */
export const DOMAIN_NAME_PATTERN =
  /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** Longest DNS name, in characters. */
export const DOMAIN_NAME_MAX_LENGTH = 253;

/** A subdomain of the platform host is ours to route: there is no DNS record for the customer to make. */
export const isPlatformSubdomain = (domainName: string, platformHost: string) =>
  domainName.endsWith(`.${platformHost}`);
