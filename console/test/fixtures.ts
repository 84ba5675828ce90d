// What the console's component tests share: a developer of organization 1 (who may change links), an analyst,
// and a short URL and a campaign as the API answers them, with every field at its empty value unless given.
import type { Campaign, Membership, ShortUrl } from '../src/api';

export const developer: Membership = {
  organizationId: 1,
  organizationName: 'Acme',
  plan: 'PRO',
  role: 'developer',
  permissions: ['links.read', 'links.write'],
};

/** An analyst of the same organization: reads links, changes none. */
export const analyst: Membership = { ...developer, role: 'analyst', permissions: ['links.read'] };

/** What both kinds of link carry for link management, each at its empty value. */
const unmanaged = () => ({
  tags: [],
  passwordProtected: false,
  clickLimit: null,
  clickLimitUrl: null,
  remainingClicks: null,
  expiredUrl: null,
  note: null,
  archived: false,
  routingRules: [],
  variants: [],
  conversionTracking: false,
});

export function shortUrl(code: string, extra: Partial<ShortUrl> = {}): ShortUrl {
  return {
    id: 1,
    shortUrl: `http://localhost:8080/${code}`,
    shortCode: code,
    originalUrl: `https://example.com/${code}`,
    clickCount: 0,
    createdAt: '2026-11-01T00:00:00Z',
    updatedAt: '2026-11-01T00:00:00Z',
    showAdPage: false,
    iosAppId: null,
    androidAppId: null,
    title: null,
    expiresAt: null,
    ogTitle: null,
    ogDescription: null,
    ogImageUrl: null,
    utmSource: null,
    utmMedium: null,
    utmCampaign: null,
    utmTerm: null,
    utmContent: null,
    customDomainName: null,
    iosDeepLinkPath: null,
    androidDeepLinkPath: null,
    mobileTargetUrl: null,
    goalType: null,
    ...unmanaged(),
    ...extra,
  };
}

export function campaign(alias: string, extra: Partial<Campaign> = {}): Campaign {
  return {
    id: 1,
    name: alias,
    alias,
    campaignUrl: `http://localhost:8080/${alias}`,
    originalUrl: `https://example.com/${alias}`,
    username: 'acme',
    appPath: null,
    clickCount: 0,
    createdAt: '2026-11-01T00:00:00Z',
    updatedAt: '2026-11-01T00:00:00Z',
    expiresAt: null,
    iosAppId: null,
    iosAppName: null,
    iosAppIconUrl: null,
    androidAppId: null,
    androidAppName: null,
    androidAppIconUrl: null,
    utmSource: null,
    utmMedium: null,
    customDomainName: null,
    iosDeepLinkPath: null,
    androidDeepLinkPath: null,
    goalType: null,
    ...unmanaged(),
    ...extra,
  };
}
