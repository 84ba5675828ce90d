// The columns a CSV import reads (POST /urls/import), by the names a header may give them. The
// file itself is read with the service's own parser (src/shared/csv.ts), so the preview shows the
// rows as the import will see them.
export const IMPORT_COLUMNS = ['originalUrl', 'url', 'long_url', 'customAlias', 'title', 'tags', 'expirationDate'];
export const URL_COLUMNS = ['originalUrl', 'url', 'long_url'];
