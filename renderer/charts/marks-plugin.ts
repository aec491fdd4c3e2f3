// What Chart.js does not draw by itself and a run's chart needs: vertical lines at break-even sizes with their labels,
// horizontal reference lines (a target speedup), and min–max whiskers on bars. An inline plugin that travels inside
// each configuration, so that the renderer and the headless PDF writer draw the same marks; its options are plain
// data (Chart.js would call any function in them as a scriptable option).
import type { ChartType, Plugin } from 'chart.js';

import type { Box, Obstacles, Segment } from './label-placement.ts';
import { alongHorizontal, besideVertical, placeLabel } from './label-placement.ts';

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

// An element of a dataset as Chart.js lays it out: a line's point (x, y; `skip` where its value is missing) or a bar
// (x, y at its value, `base` at its foot, `width`).
interface MarkElement {
  x: number;
  y: number;
  skip?: boolean;
  base?: number;
  width?: number;
  options?: { radius?: number };
}

// The part of a chart the marks read, whatever its type.
export interface MarkChart {
  scales: Record<string, { getPixelForValue(value: number): number } | undefined>;
  chartArea: { top: number; bottom: number; left: number; right: number };
  data: { datasets: readonly { borderWidth?: unknown; pointRadius?: unknown; showLine?: unknown }[] };
  isDatasetVisible(datasetIndex: number): boolean;
  getDatasetMeta(datasetIndex: number): { type?: string; data: MarkElement[] };
}

const LINE_HEIGHT = 16;
const PAD = 3;
// Kept clear around a marker, beyond its radius.
const MARKER_CLEARANCE = 2;

// What a label must not cover: each visible series' line segments and markers, and its bars. A band's two invisible
// lines (no border, no markers) are not drawn as lines and are left out; a gap in a line (a point not drawn) breaks it.
export function seriesObstacles(chart: MarkChart): Obstacles {
  const o: Obstacles = { segments: [], dots: [], boxes: [] };
  chart.data.datasets.forEach((ds, i) => {
    if (!chart.isDatasetVisible(i)) return;
    const meta = chart.getDatasetMeta(i);
    if (meta.type === 'bar') {
      for (const el of meta.data) {
        if (el.skip || !Number.isFinite(el.x) || !Number.isFinite(el.y) || el.base === undefined) continue;
        const width = el.width ?? 0;
        o.boxes.push({ left: el.x - width / 2, top: Math.min(el.y, el.base), width, height: Math.abs(el.base - el.y) });
      }
      return;
    }
    if (ds.borderWidth === 0 && ds.pointRadius === 0) return;
    let previous: MarkElement | null = null;
    for (const el of meta.data) {
      const drawn = !el.skip && Number.isFinite(el.x) && Number.isFinite(el.y);
      if (!drawn) {
        previous = null;
        continue;
      }
      const radius = el.options?.radius ?? (typeof ds.pointRadius === 'number' ? ds.pointRadius : 3);
      if (radius > 0) o.dots.push({ x: el.x, y: el.y, r: radius + MARKER_CLEARANCE });
      if (previous && ds.showLine !== false && ds.borderWidth !== 0) o.segments.push({ x1: previous.x, y1: previous.y, x2: el.x, y2: el.y });
      previous = el;
    }
  });
  return o;
}

export interface PlacedLabels {
  // One box per mark, in the marks' order; null where the mark lies off the plot.
  horizontal: (Box | null)[];
  vertical: (Box | null)[];
}

// Where each reference line's and each break-even's label goes (label-placement.ts): clear of the series, the
// markers, the other marks' lines and the labels placed before it; reference lines' labels first.
export function placeMarkLabels(chart: MarkChart, o: Partial<RunMarksOptions>, measure: (text: string) => number): PlacedLabels {
  const area = chart.chartArea;
  const xScale = chart.scales.x;
  const yScale = chart.scales.y;
  const xs = (o.vertical ?? []).map((m) => {
    const px = xScale?.getPixelForValue(m.x) ?? Number.NaN;
    return Number.isFinite(px) && px >= area.left - 1 && px <= area.right + 1 ? px : null;
  });
  const ys = (o.horizontal ?? []).map((m) => {
    const py = yScale?.getPixelForValue(m.y) ?? Number.NaN;
    return Number.isFinite(py) && py >= area.top - 1 && py <= area.bottom + 1 ? py : null;
  });
  const series = seriesObstacles(chart);
  const verticalLines = xs.map((px) => (px === null ? null : { x1: px, y1: area.top, x2: px, y2: area.bottom }));
  const horizontalLines = ys.map((py) => (py === null ? null : { x1: area.left, y1: py, x2: area.right, y2: py }));
  const placed: Box[] = [];
  const place = (candidates: Box[], fallback: Box, ownLine: Segment | null): Box => {
    const lines = [...verticalLines, ...horizontalLines].filter((l): l is Segment => l !== null && l !== ownLine);
    const chosen = placeLabel(candidates, { segments: [...series.segments, ...lines], dots: series.dots, boxes: [...series.boxes, ...placed] });
    const box = chosen?.box ?? fallback;
    placed.push(box);
    return box;
  };
  const size = (text: string) => ({ width: measure(text) + 2 * PAD, height: LINE_HEIGHT - 2 });
  const horizontal = (o.horizontal ?? []).map((m, i) => {
    const py = ys[i];
    if (py === null || py === undefined) return null;
    const s = size(m.label);
    const fallback = { left: area.left + 4, top: py - LINE_HEIGHT < area.top ? py + 2 : py - LINE_HEIGHT, ...s };
    return place(alongHorizontal(py, s, area), fallback, horizontalLines[i] ?? null);
  });
  const vertical = (o.vertical ?? []).map((m, i) => {
    const px = xs[i];
    if (px === null || px === undefined) return null;
    const s = size(m.label);
    const fallback = { left: px + PAD + s.width > area.right ? px - PAD - s.width : px + PAD, top: area.bottom - LINE_HEIGHT - PAD, ...s };
    return place(besideVertical(px, s, area, PAD), fallback, verticalLines[i] ?? null);
  });
  return { horizontal, vertical };
}

function dashedLine(ctx: MarkCanvas, colour: string, width: number, dash: number[], from: [number, number], to: [number, number]): void {
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  ctx.beginPath();
  ctx.moveTo(...from);
  ctx.lineTo(...to);
  ctx.stroke();
}

// The marks' lines, every one of them before any label, so that no line runs through a label: reference values
// across the plot dotted, break-even sizes up it dashed.
function drawLines(ctx: MarkCanvas, chart: MarkChart, o: Partial<RunMarksOptions>, placed: PlacedLabels): void {
  const { top, bottom, left, right } = chart.chartArea;
  const x = chart.scales.x;
  const y = chart.scales.y;
  (o.horizontal ?? []).forEach((m, i) => {
    if (!y || !placed.horizontal[i]) return;
    const py = y.getPixelForValue(m.y);
    dashedLine(ctx, m.colour, 1, [2, 3], [left, py], [right, py]);
  });
  (o.vertical ?? []).forEach((m, i) => {
    if (!x || !placed.vertical[i]) return;
    const px = x.getPixelForValue(m.x);
    dashedLine(ctx, m.colour, 1.5, [6, 4], [px, top], [px, bottom]);
  });
}

function drawLabels(ctx: MarkCanvas, o: Partial<RunMarksOptions>, placed: PlacedLabels): void {
  const background = o.labelBackground ?? 'transparent';
  const marks: { label: string; colour: string }[] = [...(o.horizontal ?? []), ...(o.vertical ?? [])];
  [...placed.horizontal, ...placed.vertical].forEach((box, i) => {
    const m = marks[i];
    if (!box || !m) return;
    ctx.setLineDash([]);
    ctx.fillStyle = background;
    ctx.fillRect(box.left, box.top, box.width, box.height);
    ctx.fillStyle = m.colour;
    ctx.fillText(m.label, box.left + PAD, box.top + 1);
  });
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
    // Within the plot: the axis holds every whisker, but a zero sample has no place on a log axis.
    const { top, bottom } = chart.chartArea;
    const within = (px: number) => Math.min(bottom, Math.max(top, Number.isFinite(px) ? px : bottom));
    const low = within(y.getPixelForValue(w.low));
    const high = within(y.getPixelForValue(w.high));
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
  const placed = placeMarkLabels(chart, options, (text) => ctx.measureText(text).width);
  drawLines(ctx, chart, options, placed);
  drawLabels(ctx, options, placed);
  if (options.empty) {
    const { top, bottom, left, right } = chart.chartArea;
    ctx.fillStyle = options.emptyColour ?? options.whiskerColour ?? '#000';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(options.empty, (left + right) / 2, (top + bottom) / 2);
  }
  ctx.restore();
}
