// The report's fonts: DejaVu Sans and DejaVu Sans Mono from the dejavu-fonts-ttf npm package, embedded in every PDF
// (pdfkit subsets them) and registered with the headless canvas that draws the charts, so that accents, ≈ × µ ² ³ ✓
// and the charts' labels look the same on every machine, whatever fonts it has. Read once per process, as bytes: a
// path inside a packaged app's archive is readable through Node's fs but not by the canvas's native code.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { GlobalFonts } from '@napi-rs/canvas';

export type ReportFont = 'body' | 'bold' | 'oblique' | 'mono';

const FILES: Record<ReportFont, string> = {
  body: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  oblique: 'DejaVuSans-Oblique.ttf',
  mono: 'DejaVuSansMono.ttf',
};

// The family the charts are drawn in. The marks plugin asks for "sans-serif": that name is registered too, so that
// the canvas never falls back to whatever the system calls sans-serif (or to nothing, on a machine without fonts).
export const CHART_FONT_FAMILY = 'DejaVu Sans';

let loaded: Record<ReportFont, Uint8Array> | null = null;
let canvasReady = false;

function fontDir(): string {
  // The package has no entry point; its package.json locates it wherever npm put it.
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
}

export function reportFonts(): Record<ReportFont, Uint8Array> {
  if (loaded) return loaded;
  const dir = fontDir();
  const read = (name: string): Uint8Array => new Uint8Array(readFileSync(join(dir, name)));
  loaded = { body: read(FILES.body), bold: read(FILES.bold), oblique: read(FILES.oblique), mono: read(FILES.mono) };
  return loaded;
}

export function registerCanvasFonts(): void {
  if (canvasReady) return;
  const fonts = reportFonts();
  const body = Buffer.from(fonts.body);
  const bold = Buffer.from(fonts.bold);
  GlobalFonts.register(body, CHART_FONT_FAMILY);
  GlobalFonts.register(bold, CHART_FONT_FAMILY);
  GlobalFonts.register(body, 'sans-serif');
  canvasReady = true;
}
