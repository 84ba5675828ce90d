// The ClickHouse migrations as they run on a cluster (CLICKHOUSE_CLUSTER): the same statements,
// each DDL statement given `ON CLUSTER <name>` so every server of the cluster runs it, and each
// MergeTree-family engine its Replicated form, so the replicas of the one shard hold the same
// rows. Without a cluster a statement is returned as it is, byte for byte: one server and chDB run
// exactly what the files say.
//
// Replication only, no Distributed tables (docs/clickhouse.md, "On a cluster"): every replica holds
// every row, so the service reads and writes the tables by their own names on whichever replica
// it reaches, a materialized view fires on the replica that took the insert and writes its rollup
// into the replicated target there, and FINAL and the deduplication tokens see every row of a
// table, as on one server.

/**
 * Where each replicated table keeps its state in Keeper: the path written out rather than the
 * server's default_replica_path, so it does not depend on that setting and an operator finds a
 * table under its database and name. {shard} and {replica} are the servers' macros.
 */
export const REPLICA_PATH = "'/clickhouse/tables/{shard}/{database}/{table}', '{replica}'";

/**
 * How long a replicated table remembers an insert's deduplication token. On one server the files'
 * non_replicated_deduplication_window counts inserts only; a replicated table also forgets tokens
 * older than this, whose default has changed between releases, so it is set to the week 24.8 has:
 * the count, as on one server, is what bounds a retry.
 */
const DEDUPLICATION_SECONDS = 7 * 24 * 60 * 60;

const NAME = String.raw`(?:\x60[^\x60]+\x60|[A-Za-z_][A-Za-z0-9_]*)`;
const QUALIFIED = String.raw`${NAME}(?:\.${NAME})?`;

/** The head of each DDL statement ClickHouse runs ON CLUSTER: the clause goes right after it. */
const HEADS: RegExp[] = [
  // CREATE TABLE / VIEW / MATERIALIZED VIEW / DICTIONARY / DATABASE: before a view's TO and columns.
  new RegExp(
    String.raw`^CREATE\s+(?:OR\s+REPLACE\s+)?(?:TABLE|VIEW|MATERIALIZED\s+VIEW|DICTIONARY|DATABASE)\s+(?:IF\s+NOT\s+EXISTS\s+)?${QUALIFIED}`,
    'i',
  ),
  new RegExp(String.raw`^CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(?:IF\s+NOT\s+EXISTS\s+)?${NAME}`, 'i'),
  new RegExp(String.raw`^ALTER\s+TABLE\s+${QUALIFIED}`, 'i'),
  new RegExp(
    String.raw`^(?:DROP|DETACH)\s+(?:TABLE|VIEW|DICTIONARY|DATABASE|FUNCTION)\s+(?:IF\s+EXISTS\s+)?${QUALIFIED}`,
    'i',
  ),
  new RegExp(String.raw`^TRUNCATE\s+(?:TABLE\s+)?(?:IF\s+EXISTS\s+)?${QUALIFIED}`, 'i'),
  new RegExp(String.raw`^OPTIMIZE\s+TABLE\s+${QUALIFIED}`, 'i'),
  new RegExp(
    String.raw`^RENAME\s+(?:TABLE|DICTIONARY|DATABASE)\s+${QUALIFIED}\s+TO\s+${QUALIFIED}(?:\s*,\s*${QUALIFIED}\s+TO\s+${QUALIFIED})*`,
    'i',
  ),
  new RegExp(String.raw`^EXCHANGE\s+(?:TABLES|DICTIONARIES)\s+${QUALIFIED}\s+AND\s+${QUALIFIED}`, 'i'),
];

/**
 * Statements that change data, not the schema: run on one replica, replication carries their rows
 * to the others (an INSERT … SELECT backfill, say). Anything else a migration might hold (GRANT,
 * SYSTEM, CREATE USER, CREATE INDEX) is refused below rather than run on one server only.
 */
const DATA_STATEMENT = /^(?:INSERT|SELECT|WITH|SET)\b/i;

const ENGINE =
  /\bENGINE\s*=\s*(Replacing|Summing|Aggregating|Collapsing|VersionedCollapsing|Graphite|Coalescing)?MergeTree\b/gi;

/**
 * The statement as it runs on `cluster`; unchanged when `cluster` is undefined. Throws for a
 * statement it cannot place on a cluster, so a new kind of migration statement is noticed in its
 * tests rather than applied to one server of a cluster.
 */
export function onCluster(statement: string, cluster: string | undefined): string {
  if (cluster === undefined) return statement;
  const start = statement.length - statement.trimStart().length;
  const body = statement.slice(start);
  if (DATA_STATEMENT.test(body)) return statement;
  const head = HEADS.map((re) => re.exec(body)).find((m) => m !== null);
  if (!head) throw new Error(`cannot run this ClickHouse statement ON CLUSTER: ${firstLine(body)}`);
  const rest = body.slice(head[0].length);
  if (/^\s+ON\s+CLUSTER\b/i.test(rest)) throw new Error(`the statement names a cluster already: ${firstLine(body)}`);
  const placed = `${statement.slice(0, start)}${head[0]} ON CLUSTER ${cluster}${rest}`;
  return /^(?:CREATE|ALTER)\b/i.test(body) ? replicated(placed) : placed;
}

/** Every MergeTree-family engine of a CREATE in its Replicated form, with the window it sets. */
function replicated(statement: string): string {
  const engines = replaceInCode(statement, ENGINE, (match, code) => {
    const args = engineArguments(code, match.index + match[0].length);
    const inner = args ? statement.slice(args.start, args.end).trim() : '';
    return {
      text: `ENGINE = Replicated${match[1] ?? ''}MergeTree(${REPLICA_PATH}${inner ? `, ${inner}` : ''})`,
      end: args ? args.end + 1 : match.index + match[0].length,
    };
  });
  return replaceInCode(engines, WINDOW, (match) => ({
    text: `replicated_deduplication_window = ${match[1]}, replicated_deduplication_window_seconds = ${DEDUPLICATION_SECONDS}`,
    end: match.index + match[0].length,
  }));
}

const WINDOW = /\bnon_replicated_deduplication_window\s*=\s*(\d+)/gi;

/**
 * Each match of `pattern` in the statement's code, replaced by `replace`'s text up to its `end`.
 * Matched with literals and comments blanked out, so an engine named in a COMMENT stays as written.
 */
function replaceInCode(
  sql: string,
  pattern: RegExp,
  replace: (match: RegExpExecArray, code: string) => { text: string; end: number },
): string {
  const code = blankLiterals(sql);
  let out = '';
  let from = 0;
  for (const match of code.matchAll(pattern)) {
    const { text, end } = replace(match, code);
    out += sql.slice(from, match.index) + text;
    from = end;
  }
  return out + sql.slice(from);
}

/**
 * The engine's parameters after `at` (ReplacingMergeTree(version)), as the span inside its
 * parentheses, if it has any. `code` has its literals blanked, so only real parentheses count.
 */
function engineArguments(code: string, at: number): { start: number; end: number } | undefined {
  const open = code.slice(at).search(/\S/);
  if (open === -1 || code[at + open] !== '(') return undefined;
  let depth = 0;
  for (let i = at + open; i < code.length; i++) {
    if (code[i] === '(') depth++;
    else if (code[i] === ')' && --depth === 0) return { start: at + open + 1, end: i };
  }
  throw new Error(`unbalanced engine parameters: ${firstLine(code.slice(at))}`);
}

/**
 * The statement with the inside of every string literal, quoted name and comment replaced by
 * spaces: the same length, so a position in it is the same position in the statement.
 */
function blankLiterals(sql: string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const two = sql.slice(i, i + 2);
    if (c === "'" || c === '"' || c === '`') {
      const close = closingQuote(sql, i);
      out += c + ' '.repeat(Math.min(close, sql.length) - i - 1) + (close < sql.length ? c : '');
      i = close + 1;
    } else if (two === '--' || two === '/*') {
      const found = two === '--' ? sql.indexOf('\n', i) : sql.indexOf('*/', i + 2);
      const end = found === -1 ? sql.length : two === '--' ? found : found + 2;
      out += ' '.repeat(end - i);
      i = end;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Where the quoted text opened at `open` ends: a backslash escapes, a doubled quote is one. */
function closingQuote(sql: string, open: number): number {
  const quote = sql[open];
  let i = open + 1;
  while (i < sql.length) {
    if (sql[i] === '\\') i += 2;
    else if (sql[i] !== quote) i++;
    else if (sql[i + 1] === quote) i += 2;
    else return i;
  }
  return sql.length;
}

const firstLine = (sql: string) => sql.split('\n', 1)[0] ?? '';
