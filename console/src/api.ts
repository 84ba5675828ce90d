// The console API client: same-origin JSON with the session cookie, and on every state change
// the session's CSRF token. A refusal becomes an ApiError carrying the service's error body.

/** A refused field of a 400: its dotted path in the body or its query parameter, and what is wrong. */
export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** On a 400: the refused fields, one entry each (the error body's `details`). */
  readonly details: FieldError[];

  constructor(status: number, code: string, message: string, details: FieldError[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

let csrfToken = '';

/** Remembered from the session answer; sent as X-CSRF-Token on every state change. */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`/console/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const json = text === '' ? undefined : (JSON.parse(text) as unknown);
  if (!response.ok) {
    const error = (json ?? {}) as { code?: string; message?: string; details?: FieldError[] };
    throw new ApiError(
      response.status,
      error.code ?? `HTTP_${response.status}`,
      error.message ?? response.statusText,
      error.details,
    );
  }
  return json as T;
}

/**
 * What is wrong with each field a refusal names, read from the error body's `details`: by the
 * field's path (`routingRules.0.url`) and by the top-level field it sits in (`routingRules`), so a
 * form shows the message beside the input that holds it. The first message per field wins.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const found: Record<string, string> = {};
  for (const { field, message } of error.details) {
    for (const name of [field, field.split('.')[0]!]) found[name] ??= message;
  }
  return found;
}

export type Role = 'owner' | 'admin' | 'developer' | 'analyst';

export interface Membership {
  organizationId: number;
  organizationName: string;
  plan: string;
  role: Role;
  permissions: string[];
}

export interface Session {
  user: { id: number; email: string; name: string | null; language: 'ko' | 'en' };
  memberships: Membership[];
  csrfToken: string;
  expiresAt: string;
}

export interface Member {
  id: number;
  email: string;
  name: string | null;
  role: Role;
  joinedAt: string;
  lastLoginAt: string | null;
}

/** A page of a list, as every list of the API answers it. */
export interface Page<T> {
  content: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

/** The fields a person reads back where they left them empty: null. */
type Nullable<K extends string> = { [P in K]: string | null };

export interface ShortUrl
  extends Nullable<
    | 'title'
    | 'expiresAt'
    | 'ogTitle'
    | 'ogDescription'
    | 'ogImageUrl'
    | 'utmSource'
    | 'utmMedium'
    | 'utmCampaign'
    | 'utmTerm'
    | 'utmContent'
    | 'customDomainName'
    | 'iosDeepLinkPath'
    | 'androidDeepLinkPath'
    | 'mobileTargetUrl'
    | 'goalType'
  > {
  id: number;
  shortUrl: string;
  shortCode: string;
  originalUrl: string;
  clickCount: number;
  createdAt: string;
  showAdPage: boolean;
  iosAppId: number | null;
  androidAppId: number | null;
}

export interface Campaign
  extends Nullable<
    | 'expiresAt'
    | 'utmSource'
    | 'utmMedium'
    | 'customDomainName'
    | 'iosDeepLinkPath'
    | 'androidDeepLinkPath'
    | 'goalType'
  > {
  id: number;
  name: string;
  alias: string;
  originalUrl: string;
  campaignUrl: string;
  clickCount: number;
  createdAt: string;
  iosAppId: number | null;
  androidAppId: number | null;
}

export interface CustomDomain {
  id: number;
  domainName: string;
  status: 'PENDING' | 'VERIFIED' | 'ACTIVE' | 'FAILED' | 'REVOKED';
  cnameRecordName: string | null;
  cnameRecordValue: string | null;
  deletionRequested: boolean;
  deletionRequestedAt: string | null;
}

export interface MobileApp {
  id: number;
  appName: string;
  platform: 'IOS' | 'ANDROID';
  bundleId: string;
  path: string;
  apiKey: string;
  scheme: string | null;
  /** iOS: needed for the app to appear in apple-app-site-association. */
  teamId?: string | null;
  /** Android: needed for the app to appear in assetlinks.json. */
  sha256CertFingerprints?: string[];
}

export interface ApiKey {
  id: number;
  name: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface AuditEntry {
  id: number;
  action: string;
  actorType: string;
  actorUserId: number | null;
  actor: { email: string; name: string | null } | null;
  target: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

export interface GoalType {
  name: string;
  description: string | null;
  preset: boolean;
  createdAt: string | null;
}

export interface Usage {
  plan: string;
  monthlyQuota: number;
  callsThisMonth: number;
  remaining: number;
  month: string;
  resetsAt: string;
  addOns: { userJourney: boolean; revenueAnalytics: boolean };
  features: { qrCodes: boolean; dataRetentionDays: number; addOnsIncluded: boolean };
}

export const WEBHOOK_CATEGORIES = ['click', 'campaign', 'goal', 'funnel', 'session'] as const;
export type WebhookCategory = (typeof WEBHOOK_CATEGORIES)[number];

export interface WebhookEndpoint {
  url: string;
  events: WebhookCategory[];
  enabled: boolean;
  secretRotation: boolean;
  previousSecretValidUntil: string | null;
  consecutiveFailures: number;
  disabledAt: string | null;
  disabledReason: string | null;
  updatedAt: string;
}

export interface WebhookDelivery {
  id: number;
  eventId: string;
  eventType: string;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastLatencyMs: number | null;
  nextAttemptAt: string | null;
  createdAt: string;
  completedAt: string | null;
}

export interface WebhookDeliveryDetail extends WebhookDelivery {
  payload: unknown;
  attemptLog: {
    attempt: number;
    startedAt: string;
    url: string;
    status: number | null;
    error: string | null;
    latencyMs: number;
    responseBody: string | null;
  }[];
}

/** The actions the audit log records, as the server names them (its filter takes one). */
export const AUDIT_ACTIONS = [
  'sign_in',
  'sign_out',
  'sign_out.everywhere',
  'login_link.issued',
  'sso.linked',
  'sso.signup',
  'member.added',
  'member.removed',
  'member.role_changed',
  'api_key.issued',
  'api_key.regenerated',
  'api_key.deleted',
  'ip_allowlist.changed',
  'webhook.changed',
  'webhook.secret_rotated',
  'partner.registered',
  'partner.updated',
  'partner.deleted',
  'partner.secret_rotated',
  'goal_type.added',
  'goal_type.removed',
] as const;
