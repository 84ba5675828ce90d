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
