// Request and response examples of the Service API operations in the OpenAPI document, keyed by
// operationId (src/api/openapi.ts): answers of a real service to the requests shown (an iOS and an
// Android app, a short URL clicked three times, a campaign, a custom domain, shown active in the
// verified list, and one identified user). Later examples show what differs from the record they
// start from.
// test/openapi-lint.test.ts checks each against its operation's schemas.
import { HOUR_LABELS } from '../schemas/stats-period.js';

export interface OperationExample {
  /** Path and query parameters, by name. */
  params?: Record<string, string | number>;
  /** The JSON request body. */
  request?: unknown;
  /** The success answer's JSON body. */
  response?: unknown;
}

const META = {
  dataRetentionDays: 1825,
  actualStartDate: '2027-03-08',
  actualEndDate: '2027-03-10',
  requestedStartDate: '2027-03-08',
  requestedEndDate: '2027-03-10',
  empty: false,
  emptyReason: null,
  timeZone: 'UTC',
};

/** An install funnel whose sessions all stopped at the click (no store visit in the example data). */
function clickedOnlyFunnel(sessions: number) {
  const rate = sessions > 0 ? 100 : 0;
  const stage = (stageName: string, stageOrder: number) => {
    const first = stageOrder === 1;
    return {
      stageName,
      stageOrder,
      sessionsReached: first ? sessions : 0,
      conversionRate: first ? rate : 0,
      conversionRateFromFirstStage: first ? rate : 0,
      conversionRateFromPreviousStage: first ? rate : 0,
    };
  };
  return {
    totalSessions: sessions,
    completedSessions: 0,
    overallConversionRate: 0,
    stages: [stage('딥링크 클릭', 1), stage('스토어 방문', 2), stage('앱 설치', 3), stage('앱 실행', 4)],
  };
}

/** The organization's webhook endpoint, set on 2027-03-08 (WebhookEndpoint). */
const WEBHOOK_ENDPOINT = {
  url: 'https://hooks.acme.example/signpost',
  events: ['click', 'campaign'],
  enabled: true,
  secretRotation: false,
  previousSecretValidUntil: null,
  consecutiveFailures: 0,
  disabledAt: null,
  disabledReason: null,
  updatedAt: '2027-03-08T09:12:44.201Z',
};

const WEBHOOK_TEST_EVENT_ID = '01963a4e-7b2c-7d41-9a53-2f0c6e81b7d4';

/** The test event's delivery, answered 200 at the first attempt (WebhookDelivery). */
const WEBHOOK_DELIVERY = {
  id: 1,
  eventId: WEBHOOK_TEST_EVENT_ID,
  eventType: 'webhook.test',
  state: 'succeeded',
  attempts: 1,
  lastStatus: 200,
  lastError: null,
  lastLatencyMs: 84,
  nextAttemptAt: null,
  createdAt: '2027-03-08T09:13:02.518Z',
  completedAt: '2027-03-08T09:13:02.611Z',
};

/** The first page of 20 of a list that fits on it. */
const firstPage = (content: unknown[]) => ({
  content,
  page: 0,
  size: 20,
  totalElements: content.length,
  totalPages: 1,
  first: true,
  last: true,
});

/** A consent flag first set by identify from the mobile app. */
const identified = (flag: string, to: boolean) => ({
  flag,
  from: null,
  to,
  source: 'identify',
  channel: 'mobile',
  appId: 2,
  changedAt: '2027-03-10T07:18:20.319Z',
});

const CONSENT_HISTORY = [
  {
    flag: 'smsAdOptIn',
    from: null,
    to: true,
    source: 'opt-in',
    channel: 'mobile',
    appId: 2,
    changedAt: '2027-03-10T07:18:20.397Z',
  },
  identified('nightAdOptIn', false),
  identified('pushOptIn', true),
  identified('emailOptIn', true),
];

const USER = {
  externalUserId: 'member-1001',
  name: 'Kim Minji',
  pushIdentify: null,
  smsOptIn: null,
  emailOptIn: true,
  pushOptIn: true,
  smsAdOptIn: true,
  emailAdOptIn: null,
  pushAdOptIn: null,
  nightAdOptIn: false,
  createdAt: '2027-03-10T07:18:20.319Z',
  updatedAt: '2027-03-10T07:18:20.397Z',
  phone: '+821012345678',
  email: 'minji@example.com',
};

/** Routing rules (contract: "Routing rules and A/B tests"): Korean visitors in Korean, Android phones to the mobile page, Safari from X to its own page. */
const SHORT_URL_RULES = [
  { conditions: { countries: ['KR'], languages: ['ko'] }, url: 'https://shop.acme.example/ko/product/42' },
  { conditions: { deviceTypes: ['mobile'], os: ['android'] }, url: 'https://shop.acme.example/m/product/42' },
  { conditions: { referrers: ['t.co'], browsers: ['Safari'] }, url: 'https://shop.acme.example/x/product/42' },
];

/** A campaign sending Japan to its own page and splitting everyone else between two landing pages. */
const CAMPAIGN_RULES = [{ conditions: { countries: ['JP'] }, url: 'https://shop.acme.example/jp/spring' }];
const CAMPAIGN_VARIANTS = [
  { url: 'https://shop.acme.example/spring-a', weight: 50 },
  { url: 'https://shop.acme.example/spring-b', weight: 50 },
];

const SHORT_URL = {
  id: 1,
  shortUrl: 'https://sgnp.example/spring-sale',
  originalUrl: 'https://shop.acme.example/product/42',
  title: 'Spring sale',
  clickCount: 0,
  createdAt: '2027-03-10T07:18:18.209Z',
  expiresAt: '2027-12-31T14:59:59.999Z',
  showAdPage: false,
  ogTitle: null,
  ogDescription: null,
  ogImageUrl: null,
  iosAppId: 1,
  androidAppId: 2,
  utmSource: 'newsletter',
  utmMedium: 'email',
  utmTerm: null,
  utmContent: null,
  customDomainName: null,
  iosDeepLinkPath: 'product/42',
  androidDeepLinkPath: 'product/42',
  mobileTargetUrl: null,
  goalType: 'purchase',
  shortCode: 'spring-sale',
  utmCampaign: null,
  updatedAt: '2027-03-10T07:18:18.209Z',
  tags: ['newsletter', 'spring'],
  passwordProtected: false,
  clickLimit: null,
  clickLimitUrl: null,
  remainingClicks: null,
  expiredUrl: 'https://shop.acme.example/sale-over',
  note: null,
  archived: false,
  routingRules: SHORT_URL_RULES,
  variants: [],
  conversionTracking: false,
};

const CAMPAIGN = {
  id: 1,
  name: 'Spring sale 2027',
  alias: 'spring-2027',
  originalUrl: 'https://shop.acme.example/spring',
  createdAt: '2027-03-10T07:18:18.357Z',
  updatedAt: '2027-03-10T07:18:18.357Z',
  expiresAt: '2027-06-30T23:59:00.000Z',
  iosAppId: 1,
  iosAppName: 'Acme Shop',
  iosAppIconUrl: 'https://cdn.acme.example/icon.png',
  androidAppId: 2,
  androidAppName: 'Acme Shop',
  androidAppIconUrl: null,
  username: 'API key sp_live_QBzb…',
  utmSource: null,
  utmMedium: null,
  appPath: 'acme-shop-i7rlse',
  customDomainName: null,
  iosDeepLinkPath: null,
  androidDeepLinkPath: null,
  clickCount: 0,
  goalType: 'purchase',
  campaignUrl: 'https://sgnp.example/spring-2027',
  tags: ['spring'],
  passwordProtected: false,
  clickLimit: 5000,
  clickLimitUrl: 'https://shop.acme.example/sold-out',
  remainingClicks: 5000,
  expiredUrl: null,
  note: 'Launch mail of March 10',
  archived: false,
  routingRules: CAMPAIGN_RULES,
  variants: CAMPAIGN_VARIANTS,
  // The split's web clicks carry a click id, so the variants' conversions can be compared.
  conversionTracking: true,
};

const IOS_APP = {
  id: 1,
  appName: 'Acme Shop',
  platform: 'IOS',
  appIconUrl: 'https://cdn.acme.example/icon.png',
  bundleId: 'com.acme.shop',
  path: 'acme-shop-i7rlse',
  apiKey: 'spm_oZ307ymXZ0mLaVnXlHaPHmBtEV0ovkiy',
  scheme: 'acmeshop://',
  teamId: 'ABCDE12345',
  storeUrl: 'https://apps.apple.com/app/id1234567890',
  sha256CertFingerprints: [],
  deepLinkTokenTtlSeconds: 7200,
  identityVerification: false,
  identitySecretIssuedAt: null,
  clipboardMatch: false,
  createdAt: '2027-03-10T07:18:18.083Z',
  updatedAt: '2027-03-10T07:18:18.083Z',
};

const CUSTOM_DOMAIN = {
  id: 1,
  domainName: 'go.acme.example',
  ownerUsername: 'Acme',
  status: 'PENDING',
  cnameRecordName: 'go.acme.example',
  cnameRecordValue: 'cname.sgnp.example',
  createdAt: '2027-03-10T07:18',
  deletionRequested: false,
  deletionRequestedAt: null,
};

const URL_INSTALL_STATS = {
  period: '2027-03-08 ~ 2027-03-10',
  appName: 'Acme Shop',
  linkAlias: 'spring-sale',
  platform: 'All',
  totalInstalls: 0,
  iosInstalls: 0,
  androidInstalls: 0,
  totalClicks: 3,
  conversionRate: 0,
  dailyInstalls: [
    { date: '2027-03-08', installs: 0, iosInstalls: 0, androidInstalls: 0 },
    { date: '2027-03-09', installs: 0, iosInstalls: 0, androidInstalls: 0 },
    { date: '2027-03-10', installs: 0, iosInstalls: 0, androidInstalls: 0 },
  ],
  platformStats: [
    { platform: 'iOS', installs: 0, percentage: 0 },
    { platform: 'Android', installs: 0, percentage: 0 },
  ],
  countryStats: [],
  recentInstalls: [],
  installsByMatchType: [],
  dailyReengagements: [
    { date: '2027-03-08', reengagements: 0, successful: 0 },
    { date: '2027-03-09', reengagements: 0, successful: 0 },
    { date: '2027-03-10', reengagements: 0, successful: 0 },
  ],
  reengagementStats: {
    totalReengagements: 0,
    successfulReengagements: 0,
    successRate: 0,
    uniqueReengagedUsers: 0,
    platformDistribution: { ios: 0, android: 0, other: 0 },
  },
  funnelStats: clickedOnlyFunnel(2),
  qualityStats: {
    totalAttempts: 0,
    successfulResolutions: 0,
    successRate: 0,
    fingerprintMatchRate: 0,
    failureReasons: [],
  },
  meta: META,
};

/** A breakdown of `total` clicks: each name with its count and its share of them in percent, one decimal. */
const shares = (total: number, counts: [name: string, count: number][]) =>
  counts.map(([name, count]) => ({ name, count, percentage: Math.round((count / total) * 1000) / 10 }));

/** A breakdown with nothing in it yet: each value with a count and a percentage of 0. */
const noShares = (key: string, values: string[]) => values.map((value) => ({ [key]: value, count: 0, percentage: 0 }));

/** The deferred-match confidence buckets: 0-9 … 80-89, then 90-100. */
const CONFIDENCE_RANGES = Array.from({ length: 10 }, (_, i) => (i === 9 ? '90-100' : `${i * 10}-${i * 10 + 9}`));

/** A Bitly import that has ended: one link's alias was another link's already. */
const IMPORT_JOB = {
  id: 1,
  source: 'bitly',
  url: 'https://api-ssl.bitly.com/',
  status: 'completed',
  total: 120,
  imported: 119,
  skipped: 0,
  failed: 1,
  errors: [{ sourceId: 'bit.ly/3xYz12', message: 'the alias spring-sale is already taken by another link' }],
  failure: null,
  createdAt: '2027-03-08T09:00:00.000Z',
  startedAt: '2027-03-08T09:00:01.000Z',
  finishedAt: '2027-03-08T09:00:40.000Z',
};

export const SERVICE_EXAMPLES: Record<string, OperationExample> = {
  startImport: {
    request: { source: 'bitly', token: '4f0c2b9e8d7a6c5b4a39281706f5e4d3c2b1a090' },
    response: {
      ...IMPORT_JOB,
      status: 'queued',
      total: null,
      imported: 0,
      failed: 0,
      errors: [],
      startedAt: null,
      finishedAt: null,
    },
  },
  startCsvImport: {
    params: { fileName: 'links-2027.csv' },
    response: {
      ...IMPORT_JOB,
      id: 3,
      source: 'csv',
      url: 'links-2027.csv',
      status: 'queued',
      total: 48_000,
      imported: 0,
      failed: 0,
      errors: [],
      startedAt: null,
      finishedAt: null,
    },
  },
  listImports: {
    params: { page: 0, size: 20 },
    response: { content: [IMPORT_JOB], page: 0, size: 20, totalElements: 1, totalPages: 1, first: true, last: true },
  },
  getImport: { params: { id: 1 }, response: IMPORT_JOB },
  cancelImport: {
    params: { id: 2 },
    response: {
      ...IMPORT_JOB,
      id: 2,
      source: 'shlink',
      url: 'https://s.acme.example/',
      status: 'cancelled',
      total: 40,
      imported: 20,
      failed: 0,
      errors: [],
    },
  },
  createShortUrl: {
    request: {
      url: 'https://shop.acme.example/product/42',
      customAlias: 'spring-sale',
      title: 'Spring sale',
      iosAppId: 1,
      androidAppId: 2,
      expirationDate: '2027-12-31',
      goalType: 'purchase',
      utmSource: 'newsletter',
      utmMedium: 'email',
      iosDeepLinkPath: 'product/42',
      androidDeepLinkPath: 'product/42',
      tags: ['newsletter', 'spring'],
      expiredUrl: 'https://shop.acme.example/sale-over',
      routingRules: SHORT_URL_RULES,
    },
    response: SHORT_URL,
  },
  listShortUrls: {
    params: { page: 0, size: 20, keyword: 'spring' },
    response: firstPage([{ ...SHORT_URL, clickCount: 3 }]),
  },
  getShortUrl: { params: { id: 1 }, response: { ...SHORT_URL, clickCount: 3 } },
  updateShortUrl: {
    params: { id: 1 },
    request: {
      originalUrl: 'https://shop.acme.example/product/42?ref=sale',
      expirationDate: '2027-12-31 23:59:59',
      showAdPage: false,
      goalType: 'purchase',
    },
    response: {
      ...SHORT_URL,
      originalUrl: 'https://shop.acme.example/product/42?ref=sale',
      clickCount: 3,
      expiresAt: '2027-12-31T23:59:59.000Z',
      updatedAt: '2027-03-10T07:18:19.752Z',
    },
  },
  deleteShortUrl: { params: { id: 1 } },
  getShortUrlQrCode: {
    params: { id: 1 },
    response: {
      qrCode:
        'iVBORw0KGgoAAAANSUhEUgAAASwAAAEsCAYAAAB5fY51AAAAAklEQVR4AewaftIAAAenSURBVO3BAQ4bgY0EwR5C///ynD+QUED2FqLdVekfSNIBgyQdMUjSEYMkHTFI0hGDJB0xSNIRgyQdMUjSEYMkHTFI0hGDJB0xSNIRgyQdMUjSEYMkHTFI0hGDJB0xSNIRHx6UhH9VW56ShE1bNknYtGWThLe05S1JeEpbNkn4V7XlCYMkHTFI0hGDJB0xSNIRgyQdMUjSEYMkHTFI0hEfXtaWa5LwprZskvA3SsKmLZskbNryjSS8pS3XJOEtgyQdMUjSEYMkHTFI0hGDJB0xSNIRgyQdMUjSER9+UBLe0pa3JOFv1ZZNEjZteUsSvtGWX5KEt7TllwySdMQgSUcMknTEIElHDJJ0xCBJRwySdMQgSUd80M9pyyYJm7ZskrBpyyYJb0nCpi1PScKmLfr/N0jSEYMkHTFI0hGDJB0xSNIRgyQdMUjSEYMkHfFBf60kvKUtmyRskrBpyxOSoFsGSTpikKQjBkk6YpCkIwZJOmKQpCMGSTpikKQjPvygtvzLkrBpyxOS8Ja2PCEJT2jLN5LwS9ryrxok6YhBko4YJOmIQZKOGCTpiEGSjhgk6YhBko748LIk6L9ryyYJm7a8JQmbtmySsGnLJgkXJUH/2SBJRwySdMQgSUcMknTEIElHDJJ0xCBJRwySdMSHB7VFuiIJb2qL/jeDJB0xSNIRgyQdMUjSEYMkHTFI0hGDJB0xSNIR6R88JAmbtmyScE1bnpKETVs2Sdi05Zck4Qlt2SThG215QhKuacsvGSTpiEGSjhgk6YhBko4YJOmIQZKOGCTpiEGSjhgk6YgPD2rLL2nLJgmbtvyaJGzasknCL2nLJgmbJLwpCU9oyyYJm7a8JQmbtjxhkKQjBkk6YpCkIwZJOmKQpCMGSTpikKQjBkk64sPLknBNEjZteUpbNknYJOGaJGzasknCpi3fSMKmLZsk/I3a8pZBko4YJOmIQZKOGCTpiEGSjhgk6YhBko4YJOmIDw9Kwt+oLZskbNryt2rLJgmbtjyhLW9Kwi9JwqYtmyRs2vKWQZKOGCTpiEGSjhgk6YhBko4YJOmIQZKOGCTpiPQPXpSEt7Rlk4QntGWThG+05QlJ2LTlCUl4Qls2Sdi05aIkbNqyScIT2vJLBkk6YpCkIwZJOmKQpCMGSTpikKQjBkk6YpCkI9I/eEgSNm3Rf5eETVs2Sdi05S1J0Dva8pYkbNryhEGSjhgk6YhBko4YJOmIQZKOGCTpiEGSjhgk6Yj0Dx6ShF/SlickYdOWTRK+0ZZNEt7Sll+ShE1b/mVJeEJbfskgSUcMknTEIElHDJJ0xCBJRwySdMQgSUcMknTEh5e15Zq2bJKwacs3knBNEjZt2SRh05ZNEjZt+UYSNm15QhI2bdm05QlJ2LTlLYMkHTFI0hGDJB0xSNIRgyQdMUjSEYMkHTFI0hEfjkrCL2nLJgm/pi1PaMsT2rJJwqYtmyR8oy1vacsTkvCEtvySQZKOGCTpiEGSjhgk6YhBko4YJOmIQZKOGCTpiA8/KAlPaMsmCZu2PKEtT0nCpi2bJPyStmzasknCU5KwacsmCW9pyyYJT0jCpi1PGCTpiEGSjhgk6YhBko4YJOmIQZKOGCTpiEGSjvjwg9qyScJbkrBpy1OS8IQkXJOEJ7TlTUl4S1t+SVveMkjSEYMkHTFI0hGDJB0xSNIRgyQdMUjSEYMkHfHhL5aEJ7Rlk4SntGWThE1bNkl4Qls2SXhCWy5qyyYJmyRs2rJpyyYJm7a8ZZCkIwZJOmKQpCMGSTpikKQjBkk6YpCkIwZJOmKQpCM+/KAkbNryhCRskvCEtlzUlk0SntCWTRKe0JZvJOEJSfglSXhCEjZtecIgSUcMknTEIElHDJJ0xCBJRwySdMQgSUcMknRE+gd6RRKe0pZNEp7Qlrck4aK2vCUJ17TlCYMkHTFI0hGDJB0xSNIRgyQdMUjSEYMkHTFI0hEfHpSEf1VbNm35RhI2SXhCW96ShE1b3pKENyVh05Zf0pZfMkjSEYMkHTFI0hGDJB0xSNIRgyQdMUjSEYMkHfHhZW25JglPSMKvScKmLZskPCEJm7Zc1Ja3tOUJSdi05S2DJB0xSNIRgyQdMUjSEYMkHTFI0hGDJB0xSNIRH35QEt7Sll/Tlick4S1teUsSNm3ZtOUbSdgk4ZokXDNI0hGDJB0xSNIRgyQdMUjSEYMkHTFI0hGDJB3xQXpAEjZt2SRh05YnJOEbbbkmCW9JwqYtTxgk6YhBko4YJOmIQZKOGCTpiEGSjhgk6YhBko74oJ+ThE1b3pKETVs2SXhCEt6UBP1nbXnLIElHDJJ0xCBJRwySdMQgSUcMknTEIElHDJJ0xIcf1Ja/UVu+kYRNEjZteUISNkl4Qlt+TRKe0JZNEjZt2SRh05ZNEn7JIElHDJJ0xCBJRwySdMQgSUcMknTEIElHDJJ0xIeXJeFflYSntOUtbdkk4S1J2LRlk4RvtOUtbdkk4QlJ2LTllwySdMQgSUcMknTEIElHDJJ0xCBJRwySdMQgSUekfyBJBwySdMQgSUcMknTEIElHDJJ0xCBJRwySdMQgSUcMknTEIElHDJJ0xCBJRwySdMQgSUcMknTEIElHDJJ0xP8Bm0wZnANSlJ4AAAAASUVORK5CYII=',
      shortUrl: 'https://sgnp.example/spring-sale',
      format: 'png',
    },
  },
  createCampaign: {
    request: {
      name: 'Spring sale 2027',
      alias: 'spring-2027',
      originalUrl: 'https://shop.acme.example/spring',
      iosAppId: 1,
      androidAppId: 2,
      expiresAt: '2027-06-30T23:59',
      goalType: 'purchase',
      tags: ['spring'],
      clickLimit: 5000,
      clickLimitUrl: 'https://shop.acme.example/sold-out',
      note: 'Launch mail of March 10',
      routingRules: CAMPAIGN_RULES,
      variants: CAMPAIGN_VARIANTS,
      conversionTracking: true,
    },
    response: CAMPAIGN,
  },
  listCampaigns: {
    params: { page: 0, size: 20, search: 'spring' },
    response: { content: [CAMPAIGN], page: 0, size: 20, totalElements: 1, totalPages: 1, first: true, last: true },
  },
  getCampaign: { params: { id: 1 }, response: CAMPAIGN },
  createShortUrls: {
    request: {
      items: [
        { url: 'https://shop.acme.example/product/42', customAlias: 'spring-sale', tags: ['spring'] },
        { url: 'http://shop.acme.example/product/43' },
      ],
    },
    response: {
      results: [SHORT_URL, { error: { status: 400, message: 'items.1.url: must start with https://' } }],
    },
  },
  updateShortUrls: {
    request: { ids: [1, 7], addTags: ['newsletter'], archived: false },
    response: {
      results: [
        { ...SHORT_URL, clickCount: 3, updatedAt: '2027-03-10T07:18:21.006Z' },
        { id: 7, error: { status: 404, message: 'short URL 7 does not exist' } },
      ],
    },
  },
  deleteShortUrls: {
    request: { ids: [1, 7] },
    response: {
      results: [
        { id: 1, deleted: true },
        { id: 7, error: { status: 404, message: 'short URL 7 does not exist' } },
      ],
    },
  },
  exportShortUrls: { params: { tag: 'spring' } },
  importShortUrls: {
    response: { created: 2, failed: 1, errors: [{ row: 2, message: 'row 2: url: must start with https://' }] },
  },
  exportCampaigns: { params: { tag: 'spring' } },
  listTags: {
    response: {
      items: [
        { id: 2, name: 'newsletter', color: '#1971c2', linkCount: 1, createdAt: '2027-03-10T07:18:18.190Z' },
        { id: 1, name: 'spring', color: '#2f9e44', linkCount: 2, createdAt: '2027-03-10T07:18:18.188Z' },
      ],
    },
  },
  createTag: {
    request: { name: 'summer', color: '#e8590c' },
    response: { id: 3, name: 'summer', color: '#e8590c', linkCount: 0, createdAt: '2027-03-11T02:00:00.000Z' },
  },
  updateTag: {
    params: { id: 3 },
    request: { name: 'Summer 2027' },
    response: { id: 3, name: 'Summer 2027', color: '#e8590c', linkCount: 0, createdAt: '2027-03-11T02:00:00.000Z' },
  },
  deleteTag: { params: { id: 3 } },
  updateCampaign: {
    params: { id: 1 },
    request: { name: 'Spring sale 2027 (extended)', expiresAt: '2027-07-15T23:59:00Z' },
    response: {
      ...CAMPAIGN,
      name: 'Spring sale 2027 (extended)',
      updatedAt: '2027-03-10T07:18:20.013Z',
      expiresAt: '2027-07-15T23:59:00.000Z',
    },
  },
  deleteCampaign: { params: { id: 1 } },
  createMobileApp: {
    request: {
      platform: 'IOS',
      appName: 'Acme Shop',
      bundleId: 'com.acme.shop',
      teamId: 'ABCDE12345',
      scheme: 'acmeshop://',
      storeUrl: 'https://apps.apple.com/app/id1234567890',
      appIconUrl: 'https://cdn.acme.example/icon.png',
    },
    response: IOS_APP,
  },
  listMobileApps: {
    params: { page: 0, size: 20, search: 'Acme' },
    response: {
      content: [
        {
          id: 2,
          appName: 'Acme Shop',
          platform: 'ANDROID',
          appIconUrl: null,
          bundleId: 'com.acme.shop',
          path: 'acme-shop-1cu4sa',
          apiKey: 'spm_ChtqdseZVfIjARSsKw0y2jVfClqFykHx',
          scheme: 'acmeshop://',
          teamId: null,
          storeUrl: 'https://play.google.com/store/apps/details?id=com.acme.shop',
          sha256CertFingerprints: [],
          deepLinkTokenTtlSeconds: 7200,
          identityVerification: false,
          identitySecretIssuedAt: null,
          clipboardMatch: false,
          createdAt: '2027-03-10T07:18:18.095Z',
          updatedAt: '2027-03-10T07:18:18.095Z',
        },
        IOS_APP,
      ],
      totalElements: 2,
      totalPages: 1,
      size: 20,
      number: 0,
      first: true,
      last: true,
    },
  },
  getMobileApp: { params: { id: 1 }, response: IOS_APP },
  updateMobileApp: {
    params: { id: 1 },
    request: { appName: 'Acme Shop', storeUrl: 'https://apps.apple.com/app/id1234567890' },
    response: { ...IOS_APP, updatedAt: '2027-03-10T07:18:20.236Z' },
  },
  deleteMobileApp: { params: { id: 1 } },
  regenerateMobileAppKey: {
    params: { id: 1 },
    response: { ...IOS_APP, apiKey: 'spm_tmz5jE0Vis56wL9ryPvdVnxsd6zVG2wj', updatedAt: '2027-03-10T07:18:20.239Z' },
  },
  enableIdentityVerification: {
    params: { id: 1 },
    response: {
      ...IOS_APP,
      apiKey: 'spm_tmz5jE0Vis56wL9ryPvdVnxsd6zVG2wj',
      identityVerification: true,
      identitySecretIssuedAt: '2027-03-10T07:18:20.242Z',
      updatedAt: '2027-03-10T07:18:20.242Z',
      identitySecret: 'spi_F0UXC0CtHKIuD2jZnJ4MZeEeSVFBpfZebPARYDJcqY0',
    },
  },
  disableIdentityVerification: { params: { id: 1 } },
  listCustomDomains: {
    params: { search: 'acme', page: 0, size: 20 },
    response: {
      content: [CUSTOM_DOMAIN],
      totalElements: 1,
      totalPages: 1,
      size: 20,
      number: 0,
      first: true,
      last: true,
      numberOfElements: 1,
      empty: false,
      sort: { empty: false, sorted: true, unsorted: false },
      pageable: {
        pageNumber: 0,
        pageSize: 20,
        offset: 0,
        sort: { empty: false, sorted: true, unsorted: false },
        paged: true,
        unpaged: false,
      },
    },
  },
  listVerifiedCustomDomains: { response: [{ ...CUSTOM_DOMAIN, status: 'ACTIVE' }] },
  getCustomDomain: { params: { id: 1 }, response: CUSTOM_DOMAIN },
  requestCustomDomainDeletion: {
    params: { id: 1 },
    response: { ...CUSTOM_DOMAIN, deletionRequested: true, deletionRequestedAt: '2027-03-10T07:18' },
  },
  cancelCustomDomainDeletion: { params: { id: 1 }, response: CUSTOM_DOMAIN },
  shareShortUrlStats: {
    params: { id: 1 },
    response: { shareUrl: 'https://sgnp.example/console/shared/q3Vx0kz8GmJcT1b7fYpW2nL5sDh9RaUe4oCiKtXyMvE' },
  },
  unshareShortUrlStats: { params: { id: 1 } },
  getShortUrlStats: {
    params: { id: 1, startDate: '2027-03-08', endDate: '2027-03-10' },
    response: {
      url: {
        ...SHORT_URL,
        originalUrl: 'https://shop.acme.example/product/42?ref=sale',
        clickCount: 3,
        expiresAt: '2027-12-31T23:59:59.000Z',
        updatedAt: '2027-03-10T07:18:19.752Z',
      },
      chartLabels: ['2027-03-08', '2027-03-09', '2027-03-10'],
      chartData: [0, 0, 3],
      uniqueVisitors: 3,
      uniqueVisitorsChartData: [0, 0, 3],
      hourlyChartLabels: HOUR_LABELS,
      hourlyChartData: [0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      topReferrers: shares(3, [['news.example', 3]]),
      topCountries: shares(3, [['AU', 3]]),
      topBrowsers: shares(3, [
        ['Chrome', 2],
        ['Mobile Safari', 1],
      ]),
      topOsSystems: shares(3, [
        ['Android', 1],
        ['iOS', 1],
        ['Linux', 1],
      ]),
      deviceTypeStats: shares(3, [
        ['Mobile', 2],
        ['Desktop', 1],
        ['Tablet', 0],
      ]),
      destinationStats: [
        {
          url: 'https://shop.acme.example/product/42?ref=sale',
          count: 2,
          percentage: 66.7,
          conversions: 1,
          conversionRate: 50,
          installs: 1,
          goals: [{ goalType: 'purchase_KRW', count: 1 }],
          revenue: [{ currency: 'KRW', amount: 39000, purchases: 1 }],
        },
        {
          url: 'https://shop.acme.example/m/product/42',
          count: 1,
          percentage: 33.3,
          conversions: 0,
          conversionRate: 0,
          installs: 0,
          goals: [],
          revenue: [],
        },
      ],
      regionStats: shares(3, [
        ['AU-NSW', 2],
        ['AU-VIC', 1],
      ]),
      cityStats: shares(3, [
        ['Sydney', 2],
        ['Melbourne', 1],
      ]),
      meta: { ...META, filters: {}, geo: { regions: true, cities: true } },
    },
  },
  getCampaignStats: {
    params: { id: 1, startDate: '2027-03-08', endDate: '2027-03-10' },
    response: {
      campaign: {
        id: 1,
        name: 'Spring sale 2027 (extended)',
        alias: 'spring-2027',
        createdAt: '2027-03-10T07:18:18.357Z',
        expiresAt: '2027-07-15T23:59:00.000Z',
      },
      totalClicks: 0,
      dailyClicks: [
        { date: '2027-03-08', count: 0 },
        { date: '2027-03-09', count: 0 },
        { date: '2027-03-10', count: 0 },
      ],
      uniqueVisitors: 0,
      dailyUniqueVisitors: [
        { date: '2027-03-08', count: 0 },
        { date: '2027-03-09', count: 0 },
        { date: '2027-03-10', count: 0 },
      ],
      hourlyClicks: Array.from({ length: 24 }, (_, h) => ({ hour: `${String(h).padStart(2, '0')}:00`, count: 0 })),
      userClicks: [],
      topCountries: [],
      topTrackers: [],
      topBrowsers: [],
      topOs: [],
      topReferrers: [],
      deviceTypeStats: noShares('name', ['Mobile', 'Desktop', 'Tablet']),
      destinationStats: [],
      regionStats: [],
      cityStats: [],
      revenueStats: {
        available: true,
        currency: null,
        totalRevenue: 0,
        purchases: 0,
        averageOrderValue: 0,
        purchaseConversionRate: 0,
        dailyRevenue: [
          { date: '2027-03-08', revenue: 0, purchases: 0 },
          { date: '2027-03-09', revenue: 0, purchases: 0 },
          { date: '2027-03-10', revenue: 0, purchases: 0 },
        ],
        byCurrency: [],
      },
      meta: { ...META, filters: {}, geo: { regions: false, cities: false } },
    },
  },
  getShortUrlInstallStats: {
    params: { id: 1, startDate: '2027-03-08', endDate: '2027-03-10' },
    response: URL_INSTALL_STATS,
  },
  getCampaignInstallStats: {
    params: { id: 1, startDate: '2027-03-08', endDate: '2027-03-10' },
    response: {
      ...URL_INSTALL_STATS,
      linkAlias: 'spring-2027',
      totalClicks: 0,
      funnelStats: clickedOnlyFunnel(0),
    },
  },
  getMobileAppInstallStats: {
    params: { id: 1, startDate: '2027-03-08', endDate: '2027-03-10' },
    response: {
      ...URL_INSTALL_STATS,
      linkAlias: null,
      totalClicks: 1,
      funnelStats: clickedOnlyFunnel(1),
    },
  },
  getDeferredMatchStats: {
    params: { id: 1, startDate: '2027-03-08', endDate: '2027-03-10' },
    response: {
      period: '2027-03-08 ~ 2027-03-10',
      appName: 'Acme Shop',
      firstLaunches: 0,
      matched: 0,
      matchRate: 0,
      matchesByType: noShares('matchType', ['referrer', 'fingerprint', 'clipboard']),
      confidenceDistribution: noShares('range', CONFIDENCE_RANGES),
      missesByReason: noShares('reason', ['no_candidate', 'below_threshold', 'already_consumed', 'expired', 'other']),
      daily: ['2027-03-08', '2027-03-09', '2027-03-10'].map((date) => ({
        date,
        firstLaunches: 0,
        matched: 0,
        matchesByType: { referrer: 0, fingerprint: 0, clipboard: 0 },
        missesByReason: { no_candidate: 0, below_threshold: 0, already_consumed: 0, expired: 0, other: 0 },
      })),
      meta: META,
    },
  },
  findUsers: { params: { email: 'minji@example.com' }, response: { content: [USER] } },
  getUser: { params: { externalUserId: 'member-1001' }, response: { ...USER, consentHistory: CONSENT_HISTORY } },
  getUserConsentHistory: {
    params: { externalUserId: 'member-1001' },
    response: firstPage(CONSENT_HISTORY),
  },
  getUsage: {
    response: {
      organizationId: 1,
      organizationName: 'Acme',
      plan: 'ENTERPRISE',
      month: '2027-03-01',
      monthlyQuota: 10000000,
      callsThisMonth: 38,
      remaining: 9999962,
    },
  },
  getWebhook: { response: { endpoint: WEBHOOK_ENDPOINT } },
  setWebhook: {
    request: { url: 'https://hooks.acme.example/signpost', events: ['click', 'campaign'], enabled: true },
    response: { endpoint: WEBHOOK_ENDPOINT, secret: 'whsec_q3V1dWc0ZkV6bW9yN2x0T2hZc2JQeTVhTWZ4dUVhQ2M=' },
  },
  rotateWebhookSecret: {
    response: {
      endpoint: {
        ...WEBHOOK_ENDPOINT,
        secretRotation: true,
        previousSecretValidUntil: '2027-03-11T10:02:17.930Z',
        updatedAt: '2027-03-10T10:02:17.930Z',
      },
      secret: 'whsec_Zk9xM2hUbmR2cUx3YkE4c0p5ZUNtN2dQdFJ1S2lXb1g=',
    },
  },
  listWebhookDeliveries: {
    params: { state: 'succeeded' },
    response: firstPage([WEBHOOK_DELIVERY]),
  },
  getWebhookDelivery: {
    params: { id: 1 },
    response: {
      ...WEBHOOK_DELIVERY,
      payload: {
        id: WEBHOOK_TEST_EVENT_ID,
        type: 'webhook.test',
        category: 'test',
        occurredAt: '2027-03-08T09:13:02.517Z',
        organizationId: 1,
        data: { message: 'A test event from Signpost: your endpoint is reachable and the signature can be checked.' },
      },
      attemptLog: [
        {
          attempt: 1,
          startedAt: '2027-03-08T09:13:02.527Z',
          url: 'https://hooks.acme.example/signpost',
          status: 200,
          error: null,
          latencyMs: 84,
          responseBody: 'ok',
        },
      ],
    },
  },
  redeliverWebhookDelivery: {
    params: { id: 1 },
    response: {
      ...WEBHOOK_DELIVERY,
      state: 'pending',
      nextAttemptAt: '2027-03-10T10:05:41.377Z',
      completedAt: null,
    },
  },
  sendWebhookTest: { response: { deliveryId: 2, eventId: '01963a5f-0d18-7c6e-8e2a-5b9d4f3c1a07' } },
};
