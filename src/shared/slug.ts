// Readable lowercase slugs made from names: link aliases from campaign names, app paths from app names.

/** `Summer Sale 2025` → `summer-sale-2025`: ASCII letters and digits joined by single dashes, at most `maxLength` long. */
export function slugOf(name: string, maxLength: number): string {
  return (
    name
      .normalize('NFKD')
      // NFKD splits `é` into `e` + a combining accent; the accent goes, not the word (`cafe`, not `caf-e`).
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, maxLength)
      // Cutting may end on a dash.
      .replace(/-+$/, '')
  );
}
