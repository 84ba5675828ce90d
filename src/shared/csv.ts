// CSV as spreadsheets read it: a header row, RFC 4180 quoting, CRLF line ends, and a cell that a
// spreadsheet would take for a formula (=, +, -, @ first) kept as text with a leading apostrophe.

const FORMULA = /^[=+\-@\t\r]/;

function cell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: (string | number)[][]): string {
  return `${[header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

/** One row, with its line end. */
export const csvRow = (values: (string | number)[]): string => `${values.map(cell).join(',')}\r\n`;

/**
 * Rows of RFC 4180 text: quoted cells may hold commas, quotes ("") and line breaks; CRLF, LF or CR
 * end a row; a byte-order mark is dropped; blank lines are left out.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let value = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    row.push(value);
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
    value = '';
  };
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') value += ch;
      else if (text[i + 1] === '"') {
        value += '"';
        i++;
      } else quoted = false;
    } else if (ch === '"' && value === '') quoted = true;
    else if (ch === ',') {
      row.push(value);
      value = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else value += ch;
  }
  if (value !== '' || row.length > 0) endRow();
  return rows;
}
