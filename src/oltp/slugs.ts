// One namespace per domain for short codes and campaign aliases: a slug row is the claim. The
// claim is made in the transaction that creates the link, so a clash leaves nothing half-written.
import type postgres from 'postgres';
import type { Sql } from './postgres.js';
import { isUniqueViolation } from './sql-helpers.js';

type Tx = postgres.TransactionSql<Record<string, never>>;

/** '' is the platform host; a custom domain is keyed by its lowercase name. */
const domainKey = (customDomainName: string | null) => (customDomainName ?? '').toLowerCase();

/** Which table owns a slug, and the column of the slug itself in it. */
const OWNERS = {
  short_urls: { slugColumn: 'short_code', ownerColumn: 'short_url_id' },
  campaigns: { slugColumn: 'alias', ownerColumn: 'campaign_id' },
} as const;

export type SlugOwnerTable = keyof typeof OWNERS;

async function claim(
  tx: Tx,
  table: SlugOwnerTable,
  key: string,
  code: string,
  organizationId: number,
  ownerId: number,
): Promise<boolean> {
  const column = OWNERS[table].ownerColumn;
  try {
    // A savepoint keeps the transaction usable after the clash, so the caller can undo its insert.
    await tx.savepoint(
      (sp) => sp`
      insert into slugs ${sp({ domain_key: key, code, organization_id: organizationId, [column]: ownerId })}`,
    );
    return true;
  } catch (err) {
    if (!isUniqueViolation(err, 'slugs_pkey')) throw err;
    return false;
  }
}

/**
 * Inserts a short URL or campaign row together with its slug. On a clash: with `nextCode` (a
 * generated code) it tries again with a fresh code a few times; without (a chosen alias) it gives
 * up. Returns the new row's id and the slug it got, or undefined when the slug stayed taken.
 */
export async function insertClaimingSlug(
  sql: Sql,
  input: {
    table: SlugOwnerTable;
    values: Record<string, unknown>;
    organizationId: number;
    customDomainName: string | null;
    code: string;
    nextCode?: (() => string) | undefined;
  },
): Promise<{ id: number; code: string } | undefined> {
  const { slugColumn } = OWNERS[input.table];
  let code = input.code;
  for (let attempt = 0; attempt < 6; attempt++) {
    const id = await sql.begin(async (tx) => {
      const values = { ...input.values, organization_id: input.organizationId, [slugColumn]: code };
      const [row] = await tx<{ id: number }[]>`insert into ${tx(input.table)} ${tx(values)} returning id`;
      if (await claim(tx, input.table, domainKey(input.customDomainName), code, input.organizationId, row!.id))
        return row!.id;
      // Nothing of this attempt may remain.
      await tx`delete from ${tx(input.table)} where id = ${row!.id}`;
      return undefined;
    });
    if (typeof id === 'number') return { id, code };
    if (!input.nextCode) return undefined;
    code = input.nextCode();
  }
  return undefined;
}

/**
 * Items written at once: one multi-row insert of the rows and one of their slugs, in a transaction
 * (a page of an import, a whole bulk create); well under PostgreSQL's 65,535 parameters a statement.
 */
const ITEMS_AT_ONCE = 1000;

/** Items per transaction row by row: each savepoint holds locks until the commit, and their table is bounded. */
const ITEMS_PER_TRANSACTION = 250;

/**
 * insertClaimingSlug for many rows of one organization: up to a thousand in two statements, and
 * when the database refuses one of them, that run again a few hundred to a transaction, each item
 * in a savepoint of its own: an item whose slug stays taken comes back undefined, one the database
 * refuses comes back as its error, and neither undoes the others.
 */
export async function insertManyClaimingSlugs(
  sql: Sql,
  table: SlugOwnerTable,
  organizationId: number,
  items: Array<{
    values: Record<string, unknown>;
    customDomainName: string | null;
    code: string;
    nextCode?: (() => string) | undefined;
  }>,
): Promise<Array<{ id: number; code: string } | { error: unknown } | undefined>> {
  const out: Array<{ id: number; code: string } | { error: unknown } | undefined> = [];
  for (let start = 0; start < items.length; start += ITEMS_AT_ONCE) {
    const run = items.slice(start, start + ITEMS_AT_ONCE);
    const atOnce = await sql
      .begin((tx) => insertAtOnce(tx as unknown as Tx, table, organizationId, run))
      .catch(() => undefined);
    if (atOnce) {
      out.push(...(atOnce as Inserted[]));
      continue;
    }
    for (let at = 0; at < run.length; at += ITEMS_PER_TRANSACTION) {
      const chunk = run.slice(at, at + ITEMS_PER_TRANSACTION);
      out.push(
        ...((await sql.begin((tx) => insertOneByOne(tx as unknown as Tx, table, organizationId, chunk))) as Inserted[]),
      );
    }
  }
  return out;
}

type NewRow = Parameters<typeof insertManyClaimingSlugs>[3][number];
type Inserted = { id: number; code: string } | { error: unknown } | undefined;

/**
 * The chunk's rows in one insert and their slugs in another. Codes taken already (or twice in the
 * chunk) are refused (a chosen alias) or drawn again (a generated code) first; a slug someone
 * claimed meanwhile sends its row through insertOneByOne.
 */
async function insertAtOnce(
  tx: Tx,
  table: SlugOwnerTable,
  organizationId: number,
  items: NewRow[],
): Promise<Inserted[]> {
  const { slugColumn, ownerColumn } = OWNERS[table];
  const out: Inserted[] = new Array(items.length);
  const keys = items.map((item) => domainKey(item.customDomainName));
  const codes = items.map((item) => item.code);
  const taken = new Set(
    (
      await tx<{ domain_key: string; code: string }[]>`
        select domain_key, code from slugs where domain_key in ${tx([...new Set(keys)])} and code in ${tx(codes)}`
    ).map((r) => `${r.domain_key}\n${r.code}`),
  );
  const pending: number[] = [];
  items.forEach((item, n) => {
    for (let attempt = 0; attempt < 6; attempt++) {
      const slug = `${keys[n]}\n${codes[n]}`;
      if (!taken.has(slug)) {
        taken.add(slug);
        pending.push(n);
        return;
      }
      if (!item.nextCode) break;
      codes[n] = item.nextCode();
    }
    out[n] = undefined;
  });
  if (pending.length === 0) return out;
  const rows = pending.map((n) => ({ ...items[n]!.values, organization_id: organizationId, [slugColumn]: codes[n]! }));
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const inserted = await tx<{ id: number }[]>`insert into ${tx(table)} ${tx(rows as never, columns)} returning id`;
  const ids = inserted.map((r) => Number(r.id));
  // Rows come back in the order of the VALUES list of a plain insert.
  const claims = pending.map((n, i) => ({
    domain_key: keys[n]!,
    code: codes[n]!,
    organization_id: organizationId,
    [ownerColumn]: ids[i]!,
  }));
  const claimed = new Set(
    (
      await tx<{ domain_key: string; code: string }[]>`
        insert into slugs ${tx(claims)} on conflict do nothing returning domain_key, code`
    ).map((r) => `${r.domain_key}\n${r.code}`),
  );
  const lost: number[] = [];
  pending.forEach((n, i) => {
    if (claimed.has(`${keys[n]}\n${codes[n]}`)) out[n] = { id: ids[i]!, code: codes[n]! };
    else lost.push(i);
  });
  if (lost.length > 0) {
    await tx`delete from ${tx(table)} where id in ${tx(lost.map((i) => ids[i]!))}`;
    const retried = await insertOneByOne(
      tx,
      table,
      organizationId,
      lost.map((i) => items[pending[i]!]!),
    );
    lost.forEach((i, k) => {
      out[pending[i]!] = retried[k];
    });
  }
  return out;
}

/** Each row in a savepoint of its own, retried with fresh codes where it may. */
async function insertOneByOne(
  tx: Tx,
  table: SlugOwnerTable,
  organizationId: number,
  items: NewRow[],
): Promise<Inserted[]> {
  const { slugColumn } = OWNERS[table];
  const out: Inserted[] = [];
  for (const item of items) {
    try {
      out.push(
        await tx.savepoint(async (sp) => {
          let code = item.code;
          for (let attempt = 0; attempt < 6; attempt++) {
            const values = { ...item.values, organization_id: organizationId, [slugColumn]: code };
            const [row] = await sp<{ id: number }[]>`insert into ${sp(table)} ${sp(values)} returning id`;
            const key = domainKey(item.customDomainName);
            if (await claim(sp as unknown as Tx, table, key, code, organizationId, row!.id))
              return { id: row!.id, code };
            await sp`delete from ${sp(table)} where id = ${row!.id}`;
            if (!item.nextCode) return undefined;
            code = item.nextCode();
          }
          return undefined;
        }),
      );
    } catch (error) {
      out.push({ error });
    }
  }
  return out;
}
