// The console API client: same-origin JSON with the session cookie, and on every state change
// the session's CSRF token. A refusal becomes an ApiError carrying the service's error body.

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
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
    const error = (json ?? {}) as { code?: string; message?: string };
    throw new ApiError(response.status, error.code ?? `HTTP_${response.status}`, error.message ?? response.statusText);
  }
  return json as T;
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

export interface ShortUrl {
  id: number;
  shortUrl: string;
  originalUrl: string;
  title: string | null;
  clickCount: number;
  createdAt: string;
  expiresAt: string | null;
}

export interface Campaign {
  id: number;
  name: string;
  alias: string;
  originalUrl: string;
  campaignUrl: string;
  clickCount: number;
  createdAt: string;
}

export interface CustomDomain {
  id: number;
  domainName: string;
  status: 'PENDING' | 'VERIFIED' | 'ACTIVE' | 'FAILED' | 'REVOKED';
  cnameRecordName: string | null;
  cnameRecordValue: string | null;
}

export interface MobileApp {
  id: number;
  appName: string;
  platform: 'IOS' | 'ANDROID';
  bundleId: string;
  path: string;
  apiKey: string;
  scheme: string | null;
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
  target: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}
