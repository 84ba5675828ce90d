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
 * insertClaimingSlug for many rows of one organization in one transaction, each item in a
 * savepoint of its own: an item whose slug stays taken comes back undefined, one the database
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
  const { slugColumn } = OWNERS[table];
  return sql.begin(async (tx) => {
    const out: Array<{ id: number; code: string } | { error: unknown } | undefined> = [];
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
  }) as Promise<Array<{ id: number; code: string } | { error: unknown } | undefined>>;
}
