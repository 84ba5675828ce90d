// Console member roles, most powerful first. What each may do is decided in the core layer
// (src/core/accounts/roles.ts); the list lives here because the stores and the API name it too.
export const ROLES = ['owner', 'admin', 'developer', 'analyst'] as const;

export type Role = (typeof ROLES)[number];

/** Roles a partner may give the users its sign-in brings into its organization (never owner). */
export const PARTNER_ROLES = ['admin', 'developer', 'analyst'] as const;

export type PartnerRole = (typeof PARTNER_ROLES)[number];

export const LANGUAGES = ['ko', 'en'] as const;

/** The languages of the console and of the mail we send; Korean is the default. */
export type Language = (typeof LANGUAGES)[number];
