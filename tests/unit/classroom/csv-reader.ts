// A CSV read back as a strict reader reads it, for the tests of the class's exports.
import { expect } from 'vitest';

// RFC 4180: fields separated by commas, a quoted field may hold commas, quotes (doubled) and line breaks.
export function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  expect(quoted, 'a quoted field left open').toBe(false);
  expect(field + row.join(''), 'text after the last line break').toBe('');
  return rows;
}
