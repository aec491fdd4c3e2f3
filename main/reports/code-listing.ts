// A kernel source as the report prints it: DejaVu Sans Mono, every line numbered in a grey gutter, a line too long
// for the page wrapped at the width and continued under an arrow without a number of its own, so that the numbers
// stay those of the file.
import type { ReportLayout } from './layout.ts';
import { COLOURS, SIZES } from './layout.ts';

// DejaVu Sans Mono's advance is 1233/2048 of its size.
const MONO_ADVANCE = 0.602;
const TAB = '    ';

export function wrapSourceLine(line: string, columns: number): string[] {
  const text = line.replace(/\t/g, TAB).replace(/\s+$/, '');
  if (text.length <= columns) return [text];
  const parts: string[] = [];
  let rest = text;
  while (rest.length > columns) {
    // Break at the last space that keeps the part at least half the width; else mid-token.
    const space = rest.lastIndexOf(' ', columns);
    const at = space > columns / 2 ? space : columns;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^ /, '');
  }
  parts.push(rest);
  return parts;
}

export function drawSource(layout: ReportLayout, text: string, size: number = SIZES.code): void {
  const doc = layout.doc;
  const lines = text.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const gutterChars = String(lines.length).length + 1;
  const charWidth = size * MONO_ADVANCE;
  const gutter = gutterChars * charWidth + 6;
  const columns = Math.max(20, Math.floor((layout.width - gutter - 8) / charWidth) - 1);
  const lineHeight = size * 1.32;
  let blockTop = layout.y;
  const rule = (from: number, to: number): void => {
    doc.moveTo(layout.left + gutter - 3, from).lineTo(layout.left + gutter - 3, to).lineWidth(0.5).strokeColor(COLOURS.rule).stroke();
  };
  lines.forEach((line, i) => {
    wrapSourceLine(line, columns).forEach((part, j) => {
      if (layout.y + lineHeight > layout.bottom) {
        rule(blockTop, layout.y);
        layout.newPage();
        blockTop = layout.y;
      }
      const top = layout.y;
      const number = j === 0 ? String(i + 1) : '↪';
      layout.use('mono', size, COLOURS.muted);
      doc.text(number.padStart(gutterChars - 1), layout.left, top, { lineBreak: false });
      layout.use('mono', size, COLOURS.text);
      if (part !== '') doc.text(part, layout.left + gutter, top, { lineBreak: false });
      layout.y = top + lineHeight;
    });
  });
  rule(blockTop, layout.y);
  layout.gap(8);
  layout.use('body', SIZES.body);
}
