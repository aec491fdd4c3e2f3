// Tables of the report: the results table, the course's deliverable tables, parameters and environment. A figure's
// column is as wide as its widest figure and never wraps, so that "14.57 ms" or "1.234 ms – 2.345 ms" stays whole on
// paper and in the text pdftotext reads back; the wordy columns share what is left and wrap. The header row is drawn
// again at the top of each page a table continues on.
import type { ReportFont } from './fonts.ts';
import type { ReportLayout } from './layout.ts';
import { COLOURS, SIZES, keepUnits } from './layout.ts';

export interface TableColumn {
  title: string;
  align?: 'left' | 'right' | 'center';
  // 'fit': as wide as its widest cell, never wrapped (figures); 'wrap': shares the rest and wraps (words).
  width?: 'fit' | 'wrap';
}

export interface TableCell {
  text: string;
  // A smaller line under the text: a speedup's baseline, a waived point's reason.
  note?: string;
  font?: ReportFont;
  colour?: string;
}

export interface TableRow {
  cells: (string | TableCell)[];
  shaded?: boolean;
}

export interface TableSpec {
  columns: TableColumn[];
  rows: TableRow[];
  size?: number;
  header?: boolean;
  // false: the wrapping columns take no more than their text needs, and the table may be narrower than the page.
  fill?: boolean;
}

const PAD_X = 3;
const PAD_Y = 2.2;
// The least a column of words is squeezed to where the figures beside it need the room: a few short words a line.
const WORDS_FLOOR = 30;
// Below this size a table is unreadable on paper: its figure columns wrap instead.
const MIN_SIZE = 6;

// A cell as it is measured and drawn: its figures kept on one line with their units (layout.ts, keepUnits).
function cellOf(cell: string | TableCell | undefined): TableCell {
  const c = typeof cell === 'string' ? { text: cell } : (cell ?? { text: '' });
  return { ...c, text: keepUnits(c.text), ...(c.note ? { note: keepUnits(c.note) } : {}) };
}

export interface Sized {
  widths: number[];
  size: number;
}

// The widest line of a text that may hold line breaks (a range's two ends, one under the other).
function widestLine(layout: ReportLayout, text: string): number {
  return Math.max(...text.split('\n').map((line) => layout.doc.widthOfString(line)));
}

function naturalWidth(layout: ReportLayout, cell: TableCell, size: number): number {
  const doc = layout.doc;
  doc.font(cell.font ?? 'body').fontSize(size);
  const text = widestLine(layout, cell.text);
  const note = cell.note ? (doc.font('body').fontSize(size * 0.86), widestLine(layout, cell.note)) : 0;
  return Math.max(text, note) + 2 * PAD_X + 0.5;
}

// A header may wrap, but over two lines at most where its words allow: the longest word, or half of it all.
function headerWidth(layout: ReportLayout, title: string, size: number): number {
  const doc = layout.doc.font('bold').fontSize(size);
  const longestWord = Math.max(...title.split(/\s+/).map((w) => doc.widthOfString(w)));
  return Math.max(longestWord, doc.widthOfString(title) / 2) + 2 * PAD_X + 0.5;
}

// The widest word of a cell (a word wider than a third of a column's usual room, a path say, may still break).
function longestWord(layout: ReportLayout, cell: TableCell, size: number, cap = 100): number {
  const doc = layout.doc.font(cell.font ?? 'body').fontSize(size);
  // Split at breakable spaces only: a figure joined to its unit by a no-break space is one word.
  const widest = Math.max(0, ...cell.text.split(/[ \t\n]+/).map((w) => doc.widthOfString(w)));
  return Math.min(widest + 2 * PAD_X + 0.5, cap);
}

// Half its widest cell, up to this, is the room a column of words is given where a smaller type allows it: squeezed to
// its longest word beside figures kept whole, "add PyTorch GPU resident, 1 k" took five lines a row in English while
// Spanish, a size smaller, took two.
const WORDS_COMFORT = 80;

function columnWidths(layout: ReportLayout, spec: TableSpec, size: number, comfort: boolean): number[] | null {
  const natural = spec.columns.map((column, i) => {
    const cells = spec.rows.map((r) => cellOf(r.cells[i]));
    const header = spec.header === false ? 0 : headerWidth(layout, column.title, size);
    const word = column.width === 'wrap' ? Math.max(0, ...cells.map((c) => longestWord(layout, c, size))) : 0;
    return { fit: column.width !== 'wrap', widest: Math.max(header, ...cells.map((c) => naturalWidth(layout, c, size)), 12), header, word };
  });
  const fixed = natural.reduce((n, c) => n + (c.fit ? c.widest : 0), 0);
  const free = layout.width - fixed;
  const wrapping = natural.filter((c) => !c.fit);
  const wanted = wrapping.reduce((n, c) => n + c.widest, 0);
  // A wrapping column needs room for its longest header word, its longest word ("transferencias" is not broken in
  // two) and a few words of text.
  const least = (c: { header: number; word: number; widest: number }): number => Math.max(c.header, c.word, 42, comfort ? Math.min(c.widest / 2, WORDS_COMFORT) : 0);
  const floor = wrapping.reduce((n, c) => n + least(c), 0);
  if (free < floor) return null;
  // Room to spare goes to the wrapping columns by how wide they would like to be; too little is shared out above what
  // each needs at least, by how much more each would like.
  const more = wrapping.reduce((n, c) => n + Math.max(0, c.widest - least(c)), 0);
  return natural.map((c) => {
    if (c.fit) return c.widest;
    if (wanted <= free) return spec.fill === false ? c.widest : c.widest + ((free - wanted) * c.widest) / Math.max(wanted, 1);
    return least(c) + ((free - floor) * Math.max(0, c.widest - least(c))) / Math.max(more, 1);
  });
}

// The columns' widths and the type size a table is drawn at (exported for its tests).
export function fitTable(layout: ReportLayout, spec: TableSpec): Sized {
  // A smaller type before a column of words squeezed below half its widest cell; where no size allows that, the
  // smallest, at which the words have the most room beside the figures, each column still as wide as its longest word.
  for (let size = spec.size ?? SIZES.table; size >= MIN_SIZE; size -= 0.3) {
    const widths = columnWidths(layout, spec, size, true);
    if (widths) return { widths, size };
  }
  const squeezed = columnWidths(layout, spec, MIN_SIZE, false);
  if (squeezed) return { widths: squeezed, size: MIN_SIZE };
  // Still too wide at the smallest size: every column wraps, each kept as wide as its longest word (a header's, or a
  // figure with its unit) so that no word is cut in two, and the room left shared by how much more each would like. A
  // column of words keeps the cap it has above: a path in a waiver's reason may break, where its width would otherwise
  // squeeze every figure of the row until they break.
  const least = spec.columns.map((column, i) => {
    const cells = spec.rows.map((r) => cellOf(r.cells[i]));
    const cap = column.width === 'wrap' ? undefined : Infinity;
    const header = spec.header === false ? 0 : longestWord(layout, { text: column.title, font: 'bold' }, MIN_SIZE, Infinity);
    const words = cells.map((c) => Math.max(longestWord(layout, c, MIN_SIZE, cap), c.note ? longestWord(layout, { text: c.note }, MIN_SIZE * 0.86, cap) : 0));
    return Math.max(header, ...words);
  });
  const natural = spec.columns.map((_, i) => Math.max(least[i] ?? 0, ...spec.rows.map((r) => naturalWidth(layout, cellOf(r.cells[i]), MIN_SIZE))));
  const spare = Math.max(0, layout.width - least.reduce((a, b) => a + b, 0));
  const more = natural.reduce((n, w, i) => n + (w - (least[i] ?? 0)), 0);
  const widths = least.map((w, i) => w + (spare * ((natural[i] ?? 0) - w)) / Math.max(more, 1));
  const total = widths.reduce((a, b) => a + b, 0);
  if (total <= layout.width) return { widths, size: MIN_SIZE };
  // Wider than the page even so: the columns of words give the room (their words break, a path first), where that
  // leaves each a few words' room; the figures keep theirs.
  const isWords = spec.columns.map((c) => c.width === 'wrap');
  const words = widths.reduce((n, w, i) => n + (isWords[i] ? w : 0), 0);
  const room = layout.width - (total - words);
  if (words > 0 && room >= WORDS_FLOOR * isWords.filter(Boolean).length) return { widths: widths.map((w, i) => (isWords[i] ? (w * room) / words : w)), size: MIN_SIZE };
  // Else shrunk alike, the last resort.
  return { widths: widths.map((w) => (w * layout.width) / total), size: MIN_SIZE };
}

function cellHeight(layout: ReportLayout, cell: TableCell, width: number, size: number): number {
  const doc = layout.doc;
  const inner = width - 2 * PAD_X;
  let h = doc.font(cell.font ?? 'body').fontSize(size).heightOfString(cell.text || ' ', { width: inner });
  if (cell.note) h += doc.font('body').fontSize(size * 0.86).heightOfString(cell.note, { width: inner });
  return h + 2 * PAD_Y;
}

function drawRow(layout: ReportLayout, cells: TableCell[], spec: TableSpec, sized: Sized, options: { bold: boolean; fill: string | null }): void {
  const doc = layout.doc;
  const { widths, size } = sized;
  const height = Math.max(...cells.map((c, i) => cellHeight(layout, options.bold ? { ...c, font: 'bold' } : c, widths[i] ?? 0, size)));
  layout.ensureSpace(height);
  const top = layout.y;
  if (options.fill) doc.rect(layout.left, top, widths.reduce((a, b) => a + b, 0), height).fill(options.fill);
  let x = layout.left;
  cells.forEach((cell, i) => {
    const width = widths[i] ?? 0;
    const align = spec.columns[i]?.align ?? 'left';
    layout.use(options.bold ? 'bold' : (cell.font ?? 'body'), size, cell.colour ?? COLOURS.text);
    doc.text(cell.text, x + PAD_X, top + PAD_Y, { width: width - 2 * PAD_X, align });
    if (cell.note) {
      layout.use('body', size * 0.86, COLOURS.muted);
      doc.text(cell.note, x + PAD_X, doc.y, { width: width - 2 * PAD_X, align });
    }
    x += width;
  });
  layout.y = top + height;
  doc.moveTo(layout.left, layout.y).lineTo(x, layout.y).lineWidth(0.4).strokeColor(COLOURS.rule).stroke();
}

export function drawTable(layout: ReportLayout, spec: TableSpec): void {
  const sized = fitTable(layout, spec);
  const header = spec.header === false ? null : spec.columns.map((c) => ({ text: c.title }));
  const drawHeader = (): void => {
    if (header) drawRow(layout, header, spec, sized, { bold: true, fill: COLOURS.band });
  };
  // The header and the first row together, never a header alone at the foot of a page.
  const first = spec.rows[0];
  const firstHeight = first ? Math.max(...first.cells.map((c, i) => cellHeight(layout, cellOf(c), sized.widths[i] ?? 0, sized.size))) : 0;
  layout.ensureSpace(firstHeight + (header ? sized.size * 3.2 : 0));
  drawHeader();
  for (const row of spec.rows) {
    const cells = spec.columns.map((_, i) => cellOf(row.cells[i]));
    const height = Math.max(...cells.map((c, i) => cellHeight(layout, c, sized.widths[i] ?? 0, sized.size)));
    if (layout.y + height > layout.bottom) {
      layout.newPage();
      drawHeader();
    }
    drawRow(layout, cells, spec, sized, { bold: false, fill: row.shaded ? COLOURS.shade : null });
  }
  layout.gap(6);
  layout.use('body', SIZES.body);
}
