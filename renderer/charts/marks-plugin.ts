// What Chart.js does not draw by itself and a run's chart needs: vertical lines at break-even sizes with their labels,
// horizontal reference lines (a target speedup), and min–max whiskers on bars. An inline plugin that travels inside
// each configuration, so that the renderer and the headless PDF writer draw the same marks; its options are plain
// data (Chart.js would call any function in them as a scriptable option).
import type { ChartType, Plugin } from 'chart.js';

export interface VerticalMark {
  x: number;
  label: string;
  colour: string;
}

export interface HorizontalMark {
  y: number;
  label: string;
  colour: string;
}

export interface Whisker {
  dataset: number;
  index: number;
  low: number;
  high: number;
}

// A bar's value written above it (above its whisker, `at`), for a reader of the printed report without a tooltip.
export interface BarLabel {
  dataset: number;
  index: number;
  at: number;
  text: string;
}

export interface RunMarksOptions {
  vertical: VerticalMark[];
  horizontal: HorizontalMark[];
  whiskers: Whisker[];
  barLabels: BarLabel[];
  whiskerColour: string;
  labelBackground: string;
  font: string;
  // Written in the middle of the plot when nothing is drawn; '' otherwise.
  empty: string;
  emptyColour: string;
}

declare module 'chart.js' {
  // Chart.js's own declaration names the parameter TType; a merged declaration must name it the same.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface PluginOptionsByType<TType extends ChartType> {
    runMarks?: Partial<RunMarksOptions>;
  }
}

// The part of a 2D canvas context the marks use: chart.ctx is a browser's context or @napi-rs/canvas's, and this
// folder compiles without the DOM's types. Styles are written, never read, so they are typed loosely.
interface MarkCanvas {
  save(): void;
  restore(): void;
  beginPath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  stroke(): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  fillText(text: string, x: number, y: number): void;
  measureText(text: string): { width: number };
  setLineDash(segments: number[]): void;
  strokeStyle: unknown;
  fillStyle: unknown;
  lineWidth: number;
  font: unknown;
  textBaseline: unknown;
  textAlign: unknown;
}

// The part of a chart the marks read, whatever its type.
interface MarkChart {
  scales: Record<string, { getPixelForValue(value: number): number } | undefined>;
  chartArea: { top: number; bottom: number; left: number; right: number };
  isDatasetVisible(datasetIndex: number): boolean;
  getDatasetMeta(datasetIndex: number): { data: { x: number; y: number }[] };
}

const LINE_HEIGHT = 16;
const PAD = 3;

function drawVertical(ctx: MarkCanvas, chart: MarkChart, marks: readonly VerticalMark[], o: Partial<RunMarksOptions>): void {
  const x = chart.scales.x;
  const { top, bottom, left, right } = chart.chartArea;
  if (!x) return;
  marks.forEach((m, i) => {
    const px = x.getPixelForValue(m.x);
    if (!Number.isFinite(px) || px < left - 1 || px > right + 1) return;
    ctx.strokeStyle = m.colour;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([6, 4]);
    ctx.beginPath();
    ctx.moveTo(px, top);
    ctx.lineTo(px, bottom);
    ctx.stroke();
    // Labels stack up from the bottom of the plot, one row per line, so that two break-evens close together stay
    // readable (the bottom of a log axis is where the fewest lines run); each sits right of its line, or left where
    // it would leave the plot.
    const width = ctx.measureText(m.label).width;
    const tx = px + PAD + width + PAD > right ? px - PAD - width - PAD : px + PAD;
    const ty = bottom - (i + 1) * LINE_HEIGHT - PAD;
    ctx.setLineDash([]);
    ctx.fillStyle = o.labelBackground ?? 'transparent';
    ctx.fillRect(tx - 1, ty, width + 2 * PAD, LINE_HEIGHT - 2);
    ctx.fillStyle = m.colour;
    ctx.fillText(m.label, tx + PAD - 1, ty + 1);
  });
}

function drawHorizontal(ctx: MarkCanvas, chart: MarkChart, marks: readonly HorizontalMark[], o: Partial<RunMarksOptions>): void {
  const y = chart.scales.y;
  const { top, bottom, left, right } = chart.chartArea;
  if (!y) return;
  for (const m of marks) {
    const py = y.getPixelForValue(m.y);
    if (!Number.isFinite(py) || py < top - 1 || py > bottom + 1) continue;
    ctx.strokeStyle = m.colour;
    ctx.lineWidth = 1;
    ctx.setLineDash([2, 3]);
    ctx.beginPath();
    ctx.moveTo(left, py);
    ctx.lineTo(right, py);
    ctx.stroke();
    ctx.setLineDash([]);
    const width = ctx.measureText(m.label).width;
    const ty = py - LINE_HEIGHT < top ? py + 2 : py - LINE_HEIGHT;
    ctx.fillStyle = o.labelBackground ?? 'transparent';
    ctx.fillRect(left + 4, ty, width + 2 * PAD, LINE_HEIGHT - 2);
    ctx.fillStyle = m.colour;
    ctx.fillText(m.label, left + 4 + PAD, ty + 1);
  }
}

function drawWhiskers(ctx: MarkCanvas, chart: MarkChart, whiskers: readonly Whisker[], colour: string): void {
  const y = chart.scales.y;
  if (!y) return;
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1.5;
  ctx.setLineDash([]);
  for (const w of whiskers) {
    if (!chart.isDatasetVisible(w.dataset)) continue;
    const bar = chart.getDatasetMeta(w.dataset).data[w.index];
    if (!bar) continue;
    const low = y.getPixelForValue(w.low);
    const high = y.getPixelForValue(w.high);
    // Caps a third of the bar's width, at most 8 px either side.
    const barWidth = (bar as unknown as { width?: number }).width ?? 12;
    const cap = Math.min(8, barWidth / 3);
    ctx.beginPath();
    ctx.moveTo(bar.x, low);
    ctx.lineTo(bar.x, high);
    ctx.moveTo(bar.x - cap, low);
    ctx.lineTo(bar.x + cap, low);
    ctx.moveTo(bar.x - cap, high);
    ctx.lineTo(bar.x + cap, high);
    ctx.stroke();
  }
}

function drawBarLabels(ctx: MarkCanvas, chart: MarkChart, labels: readonly BarLabel[], colour: string): void {
  const y = chart.scales.y;
  if (!y) return;
  ctx.fillStyle = colour;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  for (const l of labels) {
    const bar = chart.isDatasetVisible(l.dataset) ? chart.getDatasetMeta(l.dataset).data[l.index] : undefined;
    if (bar) ctx.fillText(l.text, bar.x, y.getPixelForValue(l.at) - 3);
  }
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
}

export function runMarksPlugin<T extends ChartType>(): Plugin<T, Partial<RunMarksOptions>> {
  return {
    id: 'runMarks',
    afterDatasetsDraw(chart, _args, options) {
      draw(chart, chart.ctx, options);
    },
  };
}

function draw(chart: MarkChart, ctx: MarkCanvas, options: Partial<RunMarksOptions>): void {
  ctx.save();
  ctx.font = options.font ?? '12px sans-serif';
  ctx.textBaseline = 'top';
  drawWhiskers(ctx, chart, options.whiskers ?? [], options.whiskerColour ?? '#000');
  drawBarLabels(ctx, chart, options.barLabels ?? [], options.whiskerColour ?? '#000');
  drawHorizontal(ctx, chart, options.horizontal ?? [], options);
  drawVertical(ctx, chart, options.vertical ?? [], options);
  if (options.empty) {
    const { top, bottom, left, right } = chart.chartArea;
    ctx.fillStyle = options.emptyColour ?? options.whiskerColour ?? '#000';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(options.empty, (left + right) / 2, (top + bottom) / 2);
  }
  ctx.restore();
}
