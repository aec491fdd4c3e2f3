// CSV as spreadsheets read it (RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled),
// safe to open: a text field that begins with =, +, -, @, a tab or a carriage return would be read by a spreadsheet
// as a formula ("=HYPERLINK(…)" in a student's name), so it is written with a ' before it, which the spreadsheet
// shows and does not run. Numbers are written as they are: a negative number is a number, not a formula.
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvTable(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\n') + '\n';
}
