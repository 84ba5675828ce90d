// Small helpers every repository needs: recognising constraint violations, escaping LIKE terms.

/** True when `err` is PostgreSQL's unique violation, optionally of one named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint_name?: string; constraint?: string };
  if (e?.code !== '23505') return false;
  return constraint === undefined || e.constraint_name === constraint || e.constraint === constraint;
}

/** `%` and `_` in a search term are literal characters, not wildcards. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A case-insensitive substring pattern for `lower(column) like`. */
export const containsPattern = (term: string) => `%${escapeLike(term.toLowerCase())}%`;

/**
 * The SET part of an update from a patch: only fields present (not undefined) and only columns of
 * the closed allow-list, so a request can never name a column.
 */
export function patchColumns<F extends string>(patch: Partial<Record<F, unknown>>, columns: Record<F, string>): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const field of Object.keys(columns) as F[]) {
    const value = patch[field];
    if (value !== undefined) set[columns[field]] = value;
  }
  return set;
}
