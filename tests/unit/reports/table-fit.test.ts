// A table wider than the page, as the results table and the deliverables' tables are in Spanish: at the smallest type
// size every column wraps, but none is narrower than its longest word, so that a header never splits inside a word
// ("Aceleració" / "n") and a figure never loses its unit ("GB/" / "s"), even where a column of words holds a path (a
// waiver's reason naming an interpreter) wider than the page can give it. Generated tables: column counts, header words
// and figures drawn at random.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { ReportLayout, keepUnits } from '../../../main/reports/layout.ts';
import { fitTable, type TableSpec } from '../../../main/reports/table.ts';

const layout = new ReportLayout({ lang: 'es', title: 't', author: '', subject: '', keywords: '', creator: '', date: new Date('2026-11-24T10:00:00Z'), footer: '', header: '', pageNumber: (page, pages) => `${page}/${pages}` });

const WORDS = ['Aceleración', 'respecto', 'al', 'rendimiento', 'Sobrecoste', 'de', 'las', 'copias', 'Comprobado', 'Muestras', 'Mediana', 'Dispositivo', 'Transferencias'];
const FIGURES = ['0,07416 GB/s', '1,071 TFLOP/s', '12,48 µs – 34,3 µs', '[25,22 µs; 28,58 µs]', '244× más lento que con datos residentes', '99,6 %'];

// The widest unbreakable run of a text at a size: its longest word (a figure and its unit are one word).
function longestWord(text: string, size: number, font: 'body' | 'bold'): number {
  const doc = layout.doc.font(font).fontSize(size);
  return Math.max(...keepUnits(text).split(/[ \t\n]+/).map((w) => doc.widthOfString(w)));
}

describe('a table too wide for the page', () => {
  it('keeps every column as wide as its longest header word and its longest figure', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 6, max: 11 }),
        fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }), { minLength: 14, maxLength: 14 }),
        fc.array(fc.constantFrom(...FIGURES), { minLength: 14, maxLength: 14 }),
        (count, titles, figures) => {
          const spec: TableSpec = {
            columns: titles.slice(0, count).map((words, i) => ({ title: words.join(' '), width: i % 3 === 0 ? 'wrap' : 'fit' })),
            rows: [0, 1, 2].map(() => ({ cells: figures.slice(0, count) })),
          };
          const { widths, size } = fitTable(layout, spec);
          expect(widths.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(layout.width + 1e-6);
          // Each column's longest word, and the cell's padding on either side (3 points each, and half a point).
          const need = spec.columns.map((column, i) => Math.max(longestWord(column.title, size, 'bold'), longestWord(figures[i] ?? '', size, 'body')) + 6.5);
          // Where the words alone are wider than the page, something must give: not this table's promise.
          fc.pre(need.reduce((a, b) => a + b, 0) <= layout.width);
          spec.columns.forEach((column, i) => expect(widths[i] ?? 0, `${column.title}: ${figures[i] ?? ''}`).toBeGreaterThanOrEqual((need[i] ?? 0) - 1e-6));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('a column of words holding a long path', () => {
  it('breaks the path, never the figures beside it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 12 }), fc.array(fc.constantFrom(...FIGURES), { minLength: 8, maxLength: 8 }), (depth, figures) => {
        const path = `/root/.pyenv/versions/3.11.7/${'lib/python3.11/'.repeat(depth)}bin/python3`;
        const spec: TableSpec = {
          columns: [{ title: 'Punto', width: 'wrap' }, { title: 'Estado', width: 'wrap' }, ...figures.map((_, i) => ({ title: `Cifra ${i}`, width: 'fit' as const }))],
          rows: [
            { cells: ['CPU, un hilo', 'medido', ...figures] },
            { cells: ['Numba', { text: 'omitido', note: `numba no está instalado para ${path} (No module named 'numba')` }, ...figures.map(() => '—')] },
          ],
        };
        const { widths, size } = fitTable(layout, spec);
        const need = figures.map((f, i) => Math.max(longestWord(f, size, 'body'), longestWord(`Cifra ${i}`, size, 'bold')) + 6.5);
        fc.pre(need.reduce((a, b) => a + b, 0) + 2 * 60 <= layout.width);
        figures.forEach((f, i) => expect(widths[i + 2] ?? 0, f).toBeGreaterThanOrEqual((need[i] ?? 0) - 1e-6));
      }),
      { numRuns: 400 },
    );
  });
});

// The results table in English: its Point column ("add PyTorch GPU with transfers, 3.16 k") was squeezed to its longest
// word, five lines a row, while every figure beside it kept its room at the largest type; a size smaller gives it room.
describe('a column of words beside columns of figures', () => {
  const LABELS = ['add', 'PyTorch', 'GPU', 'with', 'transfers,', 'resident,', 'on', 'the', 'CPU', 'BLAS', '3.16 k', 'N = 256', 'con', 'datos', 'residentes'];
  it('gets half its widest cell (up to 80 points) where a smaller type allows it, before the figures keep theirs', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(...LABELS), { minLength: 1, maxLength: 9 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.constantFrom(...FIGURES), { minLength: 3, maxLength: 9 }),
        (labels, figures) => {
          const spec: TableSpec = {
            columns: [{ title: 'Point', width: 'wrap' }, { title: 'Status', width: 'wrap' }, ...figures.map((_, i) => ({ title: `Figure ${i}`, width: 'fit' as const, align: 'right' as const }))],
            rows: labels.map((words) => ({ cells: [words.join(' '), 'waived [a]', ...figures] })),
          };
          const { widths, size } = fitTable(layout, spec);
          const doc = layout.doc.font('body').fontSize(size);
          const widest = Math.max(...labels.map((words) => doc.widthOfString(keepUnits(words.join(' '))))) + 6.5;
          // Drawn at the smallest size, the table had no room to give: the older promises (above) hold there.
          if (size > 6 + 1e-9) expect(widths[0] ?? 0, `${size}`).toBeGreaterThanOrEqual(Math.min(widest / 2, 80) - 1e-6);
          expect(widths.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(layout.width + 1e-6);
        },
      ),
      { numRuns: 300 },
    );
  });
});
