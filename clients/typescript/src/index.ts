// The typed client of Signpost's Service API: openapi-fetch over the types openapi-typescript
// generates from the service's OpenAPI document (schema.ts). Paths, parameters, bodies and answers
// are checked by the compiler; this file only adds the API key header and the error type.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

type Schemas = components['schemas'];

/** Every error answer: `{status, error, message, timestamp, code}`; `code` is machine-readable (API_KEY_INVALID, ...). */
export type ErrorBody = Schemas['ErrorBody'];
export type ShortUrl = Schemas['ShortUrl'];
export type ShortUrlPage = Schemas['ShortUrlPage'];
export type UrlStats = Schemas['UrlStats'];
export type Campaign = Schemas['Campaign'];
export type CampaignStats = Schemas['CampaignStats'];
export type MobileApp = Schemas['MobileApp'];

/** A request body of an operation, by operationId: `RequestBody<'createShortUrl'>`. */
export type RequestBody<Id extends keyof operations> = operations[Id] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export interface SignpostClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the service answers, such as `https://sgnp.example` (its PUBLIC_BASE_URL). */
  baseUrl: string;
  /** A Service API key of the organization (console, developer menu); sent as X-API-KEY. */
  apiKey: string;
}

export type SignpostClient = Client<paths>;

/** A client whose every call carries the API key: `client.GET('/api/v1/service/urls/{id}', { params: { path: { id } } })`. */
export function createSignpostClient({ baseUrl, apiKey, ...options }: SignpostClientOptions): SignpostClient {
  const client = createClient<paths>({ ...options, baseUrl: baseUrl.replace(/\/+$/, '') });
  // On the request itself, after the caller's default and per-call headers: the key always wins.
  client.use({
    onRequest: ({ request }) => {
      request.headers.set('X-API-KEY', apiKey);
    },
  });
  return client;
}

export function isErrorBody(value: unknown): value is ErrorBody {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.status === 'number' && typeof v.code === 'string' && typeof v.message === 'string';
}

/** A refused call: the HTTP status and, when the service answered it, its error body. */
export class SignpostApiError extends Error {
  readonly status: number;
  /** The service's error body; undefined when something else answered (a proxy's error page). */
  readonly body: ErrorBody | undefined;
  readonly code: string | undefined;

  constructor(status: number, body: unknown) {
    const error = isErrorBody(body) ? body : undefined;
    super(error ? `${status} ${error.code}: ${error.message}` : `HTTP ${status}`);
    this.name = 'SignpostApiError';
    this.status = status;
    this.body = error;
    this.code = error?.code;
  }
}

/**
 * The data of a successful call, or a thrown SignpostApiError: for code that does not branch on
 * each error. `const link = await unwrap(client.POST('/api/v1/service/urls', { body }))`.
 */
export async function unwrap<Data>(call: Promise<{ data?: Data; error?: unknown; response: Response }>): Promise<Data> {
  const { data, error, response } = await call;
  if (!response.ok) throw new SignpostApiError(response.status, error);
  return data as Data;
}
