// The console API client: same-origin JSON with the session cookie, and on every state change
// the session's CSRF token. A refusal becomes an ApiError carrying the service's error body.
// The answers' types come from the OpenAPI document (api-schema.ts, written by npm run client:generate).
import {
  type components,
  importJobRequestInputSourceValues,
  type operations,
  pathsConsoleApiOrganizationsOrgIdAuditLogGetParametersQueryActionValues,
  pathsConsoleApiOrganizationsOrgIdMembersPostRequestBodyContentApplicationJsonRoleValues,
  webhookEndpointEventsValues,
} from '../generated/api-schema';

/** A refused field of a 400: its dotted path in the body or its query parameter, and what is wrong. */
export type FieldError = components['schemas']['FieldError'];

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

/**
 * Calls the console API. The body goes as JSON, unless a `contentType` is given: then it is sent
 * as it is (a CSV file's text).
 */
export async function api<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  contentType?: string,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = contentType ?? 'application/json';
  const response = await fetch(`/console/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body === undefined ? {} : { body: contentType ? String(body) : JSON.stringify(body) }),
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const json = text === '' ? undefined : (JSON.parse(text) as unknown);
  if (!response.ok) {
    const error = (json ?? {}) as Partial<components['schemas']['ErrorBody']>;
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

type Schemas = components['schemas'];
/** The JSON an operation of the console API answers with status 200. */
type Answer<K extends keyof operations> = operations[K]['responses'] extends {
  200: { content: { 'application/json': infer T } };
}
  ? T
  : never;
/** One element of a list answer. */
type Item<T> = T extends ReadonlyArray<infer E> ? E : never;

export type Session = Answer<'consoleGetSession'>;
export type Membership = Item<Session['memberships']>;
export type Role = Membership['role'];
export type Member = Item<Answer<'consoleListMembers'>>;
export type ConsoleSession = Item<Answer<'consoleListMySessions'>>;

/** A page of a list, as every list of the API answers it. */
export interface Page<T> {
  content: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

export type ShortUrl = Schemas['ShortUrl'];
export type Campaign = Schemas['Campaign'];
export type CustomDomain = Schemas['CustomDomain'];
export type Tag = Schemas['Tag'];
/** The answers of PATCH and DELETE /urls/bulk: each link changed or deleted, or why it was refused. */
export type BulkUpdateAnswer = Schemas['BulkUpdateResult'];
export type BulkDeleteAnswer = Schemas['BulkDeleteResult'];
/** What POST /urls/import answers: links made, rows refused, and why each (row: 1-based data row). */
export type CsvImportAnswer = Schemas['CsvImportResult'];
export type ImportJob = Schemas['ImportJob'];
export type ImportJobs = Answer<'listImports'>;
export type ImportSource = Schemas['ImportJobRequestInput']['source'];
/** The services an import job reads from, as the API names them. */
export const IMPORT_SOURCES = importJobRequestInputSourceValues;
export type TagList = Answer<'listTags'>;
export type MobileApp = Schemas['MobileApp'];
export type ApiKey = Item<Answer<'consoleListApiKeys'>>;
export type AuditEntry = Item<Answer<'consoleListAuditLog'>>;
export type GoalType = Item<Answer<'consoleListGoalTypes'>>;
export type Usage = Answer<'consoleGetUsage'>;
export type ReportSubscription = Item<Answer<'consoleListReportSubscriptions'>['items']>;

export const WEBHOOK_CATEGORIES = webhookEndpointEventsValues;
export type WebhookCategory = Item<typeof WEBHOOK_CATEGORIES>;
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryDetail = Schemas['WebhookDeliveryDetail'];

export type TopItem = Schemas['TopItem'];
/** A link's clicks sent to one destination (a rule's, a variant's or its own) over the period. */
export type DestinationStat = Schemas['DestinationStat'];
export type DashboardData = Answer<'consoleGetDashboard'>;
/** The statistics filters, one list of values per filter (contract: "Filters and shared statistics"). */
export type StatsFilters = Schemas['StatsFilters'];
/** An app's install statistics with the previous period's beside them (compare=previous). */
export type AppDashboardData = Answer<'consoleGetAppDashboard'>;
export type RevenueStats = Answer<'consoleGetAppRevenue'>['revenueStats'];
export type JourneyDashboard = Schemas['JourneyDashboard'];
type PreviousPeriod = Pick<
  NonNullable<AppDashboardData['comparison']>,
  'startDate' | 'endDate' | 'until' | 'comparable' | 'reason'
>;
type FigureChange = NonNullable<AppDashboardData['comparison']>['totalInstalls'];
/** The console's journey dashboard (outside the API document): the journey API's, with the previous period's figures (compare=previous). */
export type JourneyDashboardData = JourneyDashboard & {
  comparison:
    | (PreviousPeriod &
        Record<'totalSessions' | 'uniqueUsers' | 'totalTransitions' | 'goalCompletions', FigureChange> & {
          daily: JourneyDashboard['daily'];
          /** Each row of platforms and topUtmSources, in order, against the previous period's sessions. */
          platforms: { name: string; compared: FigureChange }[];
          topUtmSources: { name: string; compared: FigureChange }[];
        })
    | null;
};
export type JourneySession = Item<Schemas['JourneySessionList']['content']>;
export type JourneyEvent = Schemas['JourneyEvent'];

/** The roles a member can have, highest first. */
export const ROLES = pathsConsoleApiOrganizationsOrgIdMembersPostRequestBodyContentApplicationJsonRoleValues;

/** The actions the audit log records, as the server names them (its filter takes one). */
export const AUDIT_ACTIONS = pathsConsoleApiOrganizationsOrgIdAuditLogGetParametersQueryActionValues;
