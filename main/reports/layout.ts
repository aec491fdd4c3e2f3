// The page primitives every section of the report is written with: an A4 pdfkit document with the DejaVu fonts
// embedded, headings that keep with what follows (and become link targets), paragraphs, bullet lists, images, a
// running header and "page X of Y" on every page once the document is complete (report-writer.ts says why pdfkit).
import PDFDocument from 'pdfkit';

import type { Locale } from '../common/pure/locale.ts';
import type { ReportFont } from './fonts.ts';
import { reportFonts } from './fonts.ts';

export const COLOURS = {
  text: '#1b1f24',
  muted: '#4f5862',
  rule: '#c9d1d9',
  heading: '#0b3d62',
  warning: '#9a4a00',
  shade: '#f1f4f7',
  band: '#e6ebf0',
} as const;

export const SIZES = { body: 9.5, small: 8, table: 7.2, code: 7, h1: 17, h2: 13, h3: 10.5 } as const;

export interface DocumentMeta {
  // The document's language, for screen readers and hyphenation in PDF viewers.
  lang: Locale;
  title: string;
  author: string;
  subject: string;
  keywords: string;
  creator: string;
  date: Date;
  // Said on the left of every page's foot, and at the top right of every page but the first.
  footer: string;
  header: string;
  // "Page 3 of 12", in the catalog's words.
  pageNumber: (page: number, pages: number) => string;
}

// A figure and its unit on one line: the space between a number and its unit becomes a no-break space, and the "/" of
// a rate is joined to what follows it (U+2060, which pdfkit's line breaker honours and which draws nothing), so that
// a wrapped line never ends in "171.9" or "GB/" with "GB/s" or "s" on the next. pdftotext reads both back as the
// plain text.
const NUMBER_THEN_UNIT = /(\d) (?=%|×|°C|[KMGT]iB\b|[kMG](?![A-Za-z])|B\b|[mµn]?s\b|[GT](?:B|FLOP|OP)\/s|[MG]Hz\b|W\b|bits?\b)/g;
const RATE_SLASH = /(B|FLOP|OP)\/s\b/g;

export function keepUnits(text: string): string {
  return text.replace(NUMBER_THEN_UNIT, '$1\u00a0').replace(RATE_SLASH, '$1/\u2060s');
}

// A4 in points; the margins leave room for the running header above and the page numbers below.
const MARGINS = { top: 58, bottom: 58, left: 52, right: 52 };

export class ReportLayout {
  readonly doc: PDFKit.PDFDocument;
  private readonly chunks: Uint8Array[] = [];
  private readonly ended: Promise<void>;
  private readonly meta: DocumentMeta;
  private destinations = 0;

  constructor(meta: DocumentMeta) {
    this.meta = meta;
    this.doc = new PDFDocument({
      size: 'A4',
      margins: MARGINS,
      bufferPages: true,
      autoFirstPage: true,
      pdfVersion: '1.7',
      displayTitle: true,
      lang: meta.lang,
      info: { Title: meta.title, Author: meta.author, Subject: meta.subject, Keywords: meta.keywords, Creator: meta.creator, CreationDate: meta.date },
    });
    const fonts = reportFonts();
    for (const name of Object.keys(fonts) as ReportFont[]) this.doc.registerFont(name, fonts[name]);
    this.doc.on('data', (chunk: Uint8Array) => this.chunks.push(chunk));
    this.ended = new Promise((resolve, reject) => {
      this.doc.on('end', () => resolve());
      this.doc.on('error', reject);
    });
    this.use('body', SIZES.body);
  }

  get left(): number {
    return MARGINS.left;
  }

  get width(): number {
    return this.doc.page.width - MARGINS.left - MARGINS.right;
  }

  get bottom(): number {
    return this.doc.page.height - MARGINS.bottom;
  }

  get y(): number {
    return this.doc.y;
  }

  set y(value: number) {
    this.doc.y = value;
  }

  get pageIndex(): number {
    return this.doc.bufferedPageRange().start + this.doc.bufferedPageRange().count - 1;
  }

  use(font: ReportFont, size: number, colour: string = COLOURS.text): void {
    this.doc.font(font).fontSize(size).fillColor(colour);
  }

  newPage(): void {
    this.doc.addPage();
    this.y = MARGINS.top;
  }

  // Starts a new page unless `height` points still fit above the bottom margin.
  ensureSpace(height: number): void {
    if (this.y + height > this.bottom) this.newPage();
  }

  gap(points: number): void {
    this.y = Math.min(this.y + points, this.bottom);
  }

  // A named place a table of contents or a link can point at.
  anchor(): string {
    const name = `section-${++this.destinations}`;
    this.doc.addNamedDestination(name, 'XYZ', this.left, this.doc.page.height - this.y, null);
    return name;
  }

  // `keep`: the height of what must follow the heading on its page (a chart); by default a few lines of text, so that
  // a heading is never the last line of a page.
  heading(level: 1 | 2 | 3, text: string, keep = 70): { destination: string; page: number } {
    const size = level === 1 ? SIZES.h1 : level === 2 ? SIZES.h2 : SIZES.h3;
    this.ensureSpace(size * 1.6 + keep);
    if (this.y > MARGINS.top + 1) this.gap(level === 1 ? 10 : level === 2 ? 9 : 5);
    const destination = this.anchor();
    const page = this.pageIndex;
    this.use('bold', size, COLOURS.heading);
    this.doc.text(text, this.left, this.y, { width: this.width });
    if (level < 3) {
      const ruleY = this.y + 1.5;
      this.doc.moveTo(this.left, ruleY).lineTo(this.left + this.width, ruleY).lineWidth(level === 1 ? 1.1 : 0.6).strokeColor(COLOURS.rule).stroke();
      this.y = ruleY + 5;
    } else this.gap(2);
    this.use('body', SIZES.body);
    return { destination, page };
  }

  paragraph(text: string, options: { font?: ReportFont; size?: number; colour?: string; indent?: number; after?: number } = {}): void {
    const size = options.size ?? SIZES.body;
    const indent = options.indent ?? 0;
    this.use(options.font ?? 'body', size, options.colour ?? COLOURS.text);
    this.ensureSpace(size * 2.4);
    this.doc.text(keepUnits(text), this.left + indent, this.y, { width: this.width - indent, lineGap: size * 0.18 });
    this.gap(options.after ?? size * 0.5);
    this.use('body', SIZES.body);
  }

  // One paragraph per item, each behind its mark: "•" by default, "!" for a warning.
  bullets(items: readonly { text: string; mark?: string; colour?: string }[], size: number = SIZES.body): void {
    const indent = 13;
    for (const item of items) {
      this.use('body', size, item.colour ?? COLOURS.text);
      this.ensureSpace(size * 2.4);
      const top = this.y;
      this.doc.font('bold').text(item.mark ?? '•', this.left + 2, top, { lineBreak: false });
      this.doc.font('body').text(keepUnits(item.text), this.left + indent, top, { width: this.width - indent, lineGap: size * 0.18 });
      this.gap(size * 0.4);
    }
    this.use('body', SIZES.body);
  }

  // A label and its value on one line, the label in bold: the title block and the run's facts.
  labelled(label: string, value: string, size: number = SIZES.body): void {
    this.use('bold', size);
    this.ensureSpace(size * 2);
    const labelWidth = 96;
    const top = this.y;
    this.doc.text(label, this.left, top, { width: labelWidth - 6 });
    const afterLabel = this.y;
    this.use('body', size);
    this.doc.text(keepUnits(value), this.left + labelWidth, top, { width: this.width - labelWidth });
    this.y = Math.max(afterLabel, this.y) + size * 0.25;
  }

  image(png: Buffer, width: number, height: number): void {
    this.ensureSpace(height + 6);
    this.doc.image(png, this.left + (this.width - width) / 2, this.y, { width, height });
    this.y = this.y + height + 6;
  }

  // The running header and the page numbers, written on every page once all pages exist; then the bytes.
  async finish(): Promise<{ bytes: Uint8Array; pages: number }> {
    const range = this.doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      this.doc.switchToPage(i);
      const page = this.doc.page;
      // Text below the bottom margin would start a new page: the margin is lifted while the foot is written.
      const bottomMargin = page.margins.bottom;
      page.margins.bottom = 0;
      this.use('body', SIZES.small - 0.5, COLOURS.muted);
      const footY = page.height - 36;
      // pdfkit wraps any text given a width; a height of one line makes it cut a long title short with "…" instead.
      const oneLine = (SIZES.small - 0.5) * 1.3;
      this.doc.text(this.meta.footer, this.left, footY, { width: this.width - 80, height: oneLine, ellipsis: true });
      const number = this.meta.pageNumber(i + 1, range.count);
      this.doc.text(number, this.left + this.width - this.doc.widthOfString(number), footY, { lineBreak: false });
      if (i > range.start) this.doc.text(this.meta.header, this.left, 30, { width: this.width, height: oneLine, align: 'right', ellipsis: true });
      page.margins.bottom = bottomMargin;
    }
    this.doc.end();
    await this.ended;
    const total = this.chunks.reduce((n, c) => n + c.length, 0);
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const c of this.chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    return { bytes, pages: range.count };
  }
}
