// What the console's component tests share: a developer of organization 1 (who may change links),
// and a short URL as the API answers it, with every field at its empty value unless given.
import type { Membership, ShortUrl } from '../src/api';

export const developer: Membership = {
  organizationId: 1,
  organizationName: 'Acme',
  plan: 'PRO',
  role: 'developer',
  permissions: ['links.read', 'links.write'],
};

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
    ...extra,
  };
}
