// CSV as the import wizard reads a file before sending it (for its preview only: the server reads
// the file again) and writes the rows it could not import. RFC 4180: commas, quoted fields with
// doubled quotes, line breaks inside quotes, CRLF or LF; a byte order mark is dropped.

/** Every record of the text, each a list of its fields; blank lines are left out. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  const endRow = () => {
    row.push(field);
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
    field = '';
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      endRow();
    } else field += c;
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** Rows as CSV text, CRLF between records. */
export function toCsv(rows: string[][]): string {
  return `${rows.map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

/** The columns an import reads, by the names a header may give them. */
export const IMPORT_COLUMNS = ['originalUrl', 'url', 'long_url', 'customAlias', 'title', 'tags', 'expirationDate'];
export const URL_COLUMNS = ['originalUrl', 'url', 'long_url'];
