// POST /api/admin/v1/sql: one read-only ClickHouse query for the operator, streamed as JSONEachRow,
// CSV or Parquet, optionally narrowed to one organization. Everything that is not a single reading
// statement is refused with the error body, nothing is changed by trying, and the engine still
// takes the service's own writes afterwards (the read-only setting never sticks to chDB's session).
import { beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { expectError } from './support/error-body.js';
import { recordClicks } from './support/recorded-clicks.js';
import { ADMIN_TOKEN, serviceForFile } from './support/service.js';

let orgA: number;
let orgB: number;
let linkA: number;

const sql = (body: Record<string, unknown>, token = ADMIN_TOKEN) =>
  svc.inject({
    method: 'POST',
    url: '/api/admin/v1/sql',
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });

const lines = (body: string) =>
  body
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const svc = serviceForFile();

beforeAll(async () => {
  const a = await svc.createOrganization('Reader A', 'PRO');
  const b = await svc.createOrganization('Reader B', 'PRO');
  orgA = a.id;
  orgB = b.id;
  linkA = (await svc.createLink(a, { url: 'https://example.com/a', customAlias: 'sql-a' })).id;
  const linkB = (await svc.createLink(b, { url: 'https://example.com/b', customAlias: 'sql-b' })).id;
  await recordClicks(svc, orgA, 'url', linkA, [
    { at: '2026-03-01T10:00:00Z' },
    { at: '2026-03-01T11:00:00Z' },
    { at: '2026-03-02T09:00:00Z', bot: true },
  ]);
  await recordClicks(svc, orgB, 'url', linkB, [{ at: '2026-03-01T12:00:00Z' }]);
});

describe(`operator SQL (${backend})`, () => {
  it('answers a query as JSON lines, CSV with a header row, or Parquet', async () => {
    const query = `SELECT organization_id, count() AS clicks, countIf(is_bot = 0) AS people FROM clicks_v1
      WHERE organization_id IN (${orgA}, ${orgB}) GROUP BY organization_id ORDER BY organization_id`;
    const json = await sql({ query });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(lines(json.body)).toEqual([
      { organization_id: orgA, clicks: 3, people: 2 },
      { organization_id: orgB, clicks: 1, people: 1 },
    ]);
    const csv = await sql({ query, format: 'CSV' });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toBe(`"organization_id","clicks","people"\n${orgA},3,2\n${orgB},1,1\n`);
    const parquet = await sql({ query, format: 'Parquet' });
    expect(parquet.headers['content-type']).toBe('application/vnd.apache.parquet');
    const bytes = parquet.rawPayload;
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PAR1');
    expect(bytes.subarray(-4).toString('latin1')).toBe('PAR1');
    // A trailing semicolon, and words that only look like clauses inside literals and names, are fine.
    const quoted = await sql({ query: "SELECT 'a; b SETTINGS x = 1 FORMAT TSV' AS `format`;" });
    expect(lines(quoted.body)).toEqual([{ format: 'a; b SETTINGS x = 1 FORMAT TSV' }]);
    // Reading the settings table is no SETTINGS clause, a column called format no FORMAT clause;
    // and the query does run read-only.
    const readonly = await sql({ query: "SELECT name AS format, value FROM system.settings WHERE name = 'readonly'" });
    expect(lines(readonly.body)).toEqual([{ format: 'readonly', value: '1' }]);
  });

  it("shows one organization's rows only when asked, in tables, rollups and views alike", async () => {
    const everyone = lines((await sql({ query: 'SELECT count() AS n FROM clicks' })).body)[0]!.n;
    expect(everyone).toBe(4);
    for (const query of [
      'SELECT count() AS n FROM clicks',
      'SELECT count() AS n FROM clicks_v1',
      'SELECT sum(clicks) AS n FROM link_click_totals',
    ]) {
      const res = await sql({ query, organizationId: orgA });
      expect(res.statusCode, res.body).toBe(200);
      expect(lines(res.body)[0]!.n, query).toBe(query.includes('link_click_totals') ? 2 : 3);
    }
    const none = await sql({
      query: `SELECT count() AS n FROM clicks WHERE organization_id = ${orgB}`,
      organizationId: orgA,
    });
    expect(lines(none.body)).toEqual([{ n: 0 }]);
  });

  it('refuses anything but one reading statement with the error body, and changes nothing', async () => {
    const refused: [string, string][] = [
      [
        `INSERT INTO clicks (event_id, ts, organization_id, link_type, link_id) VALUES (generateUUIDv7(), now64(3), ${orgA}, 'url', ${linkA})`,
        'SQL_NOT_READ_ONLY',
      ],
      ['ALTER TABLE clicks DELETE WHERE 1', 'SQL_NOT_READ_ONLY'],
      ['DROP TABLE clicks', 'SQL_NOT_READ_ONLY'],
      ['TRUNCATE TABLE link_click_totals', 'SQL_NOT_READ_ONLY'],
      ['CREATE TABLE x (a UInt8) ENGINE = Memory', 'SQL_NOT_READ_ONLY'],
      ['SYSTEM STOP MERGES', 'SQL_NOT_READ_ONLY'],
      ['OPTIMIZE TABLE clicks FINAL', 'SQL_NOT_READ_ONLY'],
      ['KILL QUERY WHERE 1', 'SQL_NOT_READ_ONLY'],
      ['SET readonly = 0', 'SQL_NOT_READ_ONLY'],
      ['SELECT 1; DROP TABLE clicks', 'SQL_MULTIPLE_STATEMENTS'],
      ['SELECT 1 SETTINGS readonly = 0', 'SQL_CLAUSE_NOT_ALLOWED'],
      ['SELECT 1 FORMAT TSV', 'SQL_CLAUSE_NOT_ALLOWED'],
      ['SELECT 1 FORMAT TSV SETTINGS readonly = 0', 'SQL_CLAUSE_NOT_ALLOWED'],
      ["SELECT 1 INTO OUTFILE '/tmp/out.csv'", 'SQL_CLAUSE_NOT_ALLOWED'],
      // Table functions read files and the network: the engine's read-only mode refuses them.
      ["SELECT * FROM file('/etc/hostname', 'LineAsString')", 'SQL_NOT_READ_ONLY'],
      ["SELECT * FROM url('http://127.0.0.1:9/', 'LineAsString')", 'SQL_NOT_READ_ONLY'],
      ['SELECT number FROM numbers(2000000)', 'SQL_RESULT_TOO_LARGE'],
      // Failing half-way through its rows: the rows made so far must not reach the next query.
      ['SELECT throwIf(number = 900000) AS x FROM numbers(1500000)', 'SQL_REFUSED'],
      ['SELECT nope FROM clicks', 'SQL_REFUSED'],
      ['SELEC 1', 'SQL_NOT_READ_ONLY'],
      ['   -- nothing but a comment', 'SQL_EMPTY'],
    ];
    for (const [query, code] of refused) {
      const body = expectError(await sql({ query }), 400, { code });
      expect(body.message.length, query).toBeGreaterThan(10);
    }
    expectError(await sql({ query: 'SELECT 1', format: 'XML' }), 400, { field: 'format' });
    expectError(await sql({ query: 'SELECT 1' }, 'wrong-token-0123456789abcdefghijklmnop'), 401, {
      code: 'ADMIN_TOKEN_INVALID',
    });
    // Nothing changed, and the service still writes: one more click is counted.
    expect(
      lines((await sql({ query: `SELECT count() AS n FROM clicks WHERE organization_id = ${orgA}` })).body),
    ).toEqual([{ n: 3 }]);
    await recordClicks(svc, orgA, 'url', linkA, [{ at: '2026-03-03T10:00:00Z' }]);
    expect(
      lines((await sql({ query: `SELECT count() AS n FROM clicks WHERE organization_id = ${orgA}` })).body),
    ).toEqual([{ n: 4 }]);
  });
});
