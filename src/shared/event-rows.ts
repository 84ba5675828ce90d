// The contract between the OLAP writer (src/ingest) and the store that holds its rows (src/olap):
// a row is a plain object of ClickHouse column values, and a sink inserts rows and tells which
// events a table holds already. Here, so neither side imports the other.

/** One ClickHouse row: column name → value, serialised as JSONEachRow. */
export type EventRow = Record<string, unknown>;

/** Which of these events a table holds already (by event id, within their tenants and time span). */
export interface WrittenQuery {
  organizationIds: number[];
  fromMs: number;
  toMs: number;
  eventIds: string[];
}

/** The bus messages one insert of the OLAP writer carried. */
export interface RecordedGroup {
  messageIds: string[];
  /** Events of redelivered messages the insert left out, found written already (usually none). */
  leftOut: string[];
}

/** The writing side of ClickHouse the OLAP writer needs; src/olap supplies it. */
export interface RowSink {
  insert(table: string, rows: EventRow[], dedupToken: string): Promise<void>;
  written(table: string, query: WrittenQuery): Promise<Set<string>>;
  /** Records the bus messages of one insert group, before its inserts. */
  recordGroup(group: RecordedGroup): Promise<void>;
  /** The groups recorded since sinceMs that hold any of these messages, newest first. */
  recordedGroups(messageIds: string[], sinceMs: number): Promise<RecordedGroup[]>;
}

let cachedSecond = NaN;
let cachedSecondText = '';

/** ClickHouse DateTime64(3) text in UTC: '2025-03-09 06:00:00.123'. */
export function chTime(ms: number): string {
  // Events of a batch share their second: format it once (toISOString costs about 1 µs here).
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedSecondText = new Date(second * 1000).toISOString().slice(0, 19).replace('T', ' ');
  }
  const millis = ms - second * 1000;
  return `${cachedSecondText}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}`;
}
