// What an importer reads from another link service: a page of links at a time, each mapped to one
// shape (ImportedLink), and the ways a read can go wrong (the token refused, a rate limit, any
// other failure). A source is anything with `fetchPage`, so a CSV file can be one too.

/** The services links can be imported from. */
export const SOURCE_NAMES = ['bitly', 'shlink', 'kutt', 'yourls', 'dub', 'rebrandly'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

/** What a job reads: one of those services, or a CSV file stored with the job. */
export const JOB_SOURCES = [...SOURCE_NAMES, 'csv'] as const;

/** One link as the other service has it, in our terms. Passwords cannot be read from any API. */
export interface ImportedLink {
  /** The link's id in the other service, unique per organization and source: a link imported once is skipped later. */
  sourceId: string;
  originalUrl: string;
  /** The code in the other service's short URL, kept so printed links keep their path. */
  customAlias?: string;
  title?: string | null;
  tags: string[];
  expiresAt?: Date | null;
  /** After this many visits the other service stopped redirecting. */
  clickLimit?: number | null;
  createdAt?: Date;
  /**
   * The link's password, where the other service's answer gives it (Dub's does): the imported link
   * asks for the same one, hashed as every link password is, never stored as given.
   */
  password?: string;
  /**
   * The link asked for a password the other service does not give out (Kutt says only that there
   * is one). An open copy would show what the password hid, so such a link is not imported.
   */
  passwordProtected?: boolean;
  note?: string | null;
  /** Clicks carry a click id to the destination for web conversions (Dub's trackConversion). */
  conversionTracking?: boolean;
  /** A CSV job's data row (1: the first after the header), named with the row's problem. */
  row?: number;
  /** Why the link cannot be imported, found while reading it (a CSV row without a URL): counted as failed. */
  refused?: string;
}

export interface SourcePage {
  links: ImportedLink[];
  /** Where the next page starts; null after the last page. */
  nextCursor: string | null;
  /** How many links the source has in all, when it says so. */
  total?: number;
}

export interface ImportSource {
  name: string;
  /** The page at `cursor` (null: the first page). */
  fetchPage(cursor: string | null, signal: AbortSignal): Promise<SourcePage>;
}

/** An answer of the other service's API: its status, headers and body text. */
export interface SourceAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One GET of the other service's API (the address guard and deadline are the caller's). */
export type SourceGet = (url: URL, headers: Record<string, string>, signal: AbortSignal) => Promise<SourceAnswer>;

/** What each source is built from: where the service is, the person's token, its own options. */
export interface SourceContext {
  baseUrl: URL;
  token: string;
  options: SourceOptions;
  get: SourceGet;
}

/** Options some sources need besides the token. */
export interface SourceOptions {
  /** Bitly: the group whose links to import (the account's default group when left out). */
  groupId?: string;
  /** Dub, Rebrandly: the workspace whose links to import. */
  workspaceId?: string;
}

/** The token was refused (401/403): the job fails, since asking again cannot help. */
export class SourceRefused extends Error {}

/** The service asked us to slow down (429): wait `retryAfterMs` (when it said) and ask again. */
export class SourceRateLimited extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
  }
}

/** Any other failure of a read; `retry` when asking again later may help (5xx, network). */
export class SourceFailed extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/** The human name of each source, for messages. */
export const SOURCE_LABELS: Record<SourceName, string> = {
  bitly: 'Bitly',
  shlink: 'Shlink',
  kutt: 'Kutt',
  yourls: 'YOURLS',
  dub: 'Dub',
  rebrandly: 'Rebrandly',
};
