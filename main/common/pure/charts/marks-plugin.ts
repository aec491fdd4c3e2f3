// What Chart.js does not draw by itself and a run's chart needs: vertical lines at break-even sizes with their labels,
// horizontal reference lines (a target speedup), and min–max whiskers on bars, upright or lying (a chart of rows). An
// inline plugin that travels inside each configuration, so that the renderer and the headless PDF writer draw the
// same marks; its options are plain data (Chart.js would call any function in them as a scriptable option). In a
// chart of panels (one y axis each, stacked), a mark names its panel's axis and stays inside the panel.
import type { ChartType, Plugin } from 'chart.js';

import type { Area, Box, Obstacles, Segment } from './label-placement.ts';
import { alongHorizontal, besideVertical, boxesOverlap, placeLabel } from './label-placement.ts';

type Size = { width: number; height: number };

// A box moved inside the area, as far as it fits.
function within(box: Box, area: Area): Box {
  return { ...box, left: Math.max(area.left, Math.min(box.left, area.right - box.width)), top: Math.max(area.top, Math.min(box.top, area.bottom - box.height)) };
}

export interface VerticalMark {
  x: number;
  // '' for a line without a label.
  label: string;
  // Said instead where the label finds no free place (a narrow chart): the size alone, the line's colour naming it.
  short?: string;
  colour: string;
  // The y axis of its panel; 'y' without.
  scale?: string;
}

export interface HorizontalMark {
  y: number;
  label: string;
  short?: string;
  colour: string;
  scale?: string;
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
// (x, y at its value, `base` at its foot, `width` across an upright bar, `height` across a lying one).
interface MarkElement {
  x: number;
  y: number;
  skip?: boolean;
  base?: number;
  width?: number;
  height?: number;
  options?: { radius?: number };
}

interface MarkScale {
  getPixelForValue(value: number): number;
  top?: number;
  bottom?: number;
}

// The part of a chart the marks read, whatever its type.
export interface MarkChart {
  // The canvas's width in CSS pixels.
  width: number;
  scales: Record<string, MarkScale | undefined>;
  chartArea: { top: number; bottom: number; left: number; right: number };
  options?: { indexAxis?: unknown };
  data: { datasets: readonly { borderWidth?: unknown; pointRadius?: unknown; showLine?: unknown }[] };
  isDatasetVisible(datasetIndex: number): boolean;
  getDatasetMeta(datasetIndex: number): { type?: string; data: MarkElement[] };
}

// Bars lying along the x axis: a chart of rows (indexAxis 'y').
function lying(chart: MarkChart): boolean {
  return chart.options?.indexAxis === 'y';
}

// The plot, or the panel of the y axis `scale` in a chart of panels.
function panelArea(chart: MarkChart, scale: string | undefined): MarkChart['chartArea'] {
  const s = chart.scales[scale ?? 'y'];
  const area = chart.chartArea;
  return { left: area.left, right: area.right, top: s?.top ?? area.top, bottom: s?.bottom ?? area.bottom };
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
        if (lying(chart)) {
          const height = el.height ?? 0;
          o.boxes.push({ left: Math.min(el.x, el.base), top: el.y - height / 2, width: Math.abs(el.base - el.x), height });
          continue;
        }
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

// A mark's label as placed: the words chosen (its label, or its short form where that alone finds a free place) and
// their box.
export interface PlacedLabel {
  text: string;
  box: Box;
}

export interface PlacedLabels {
  // One per mark, in the marks' order; null where the mark lies off the plot.
  horizontal: (PlacedLabel | null)[];
  vertical: (PlacedLabel | null)[];
}

// Where each reference line's and each break-even's label goes (label-placement.ts): clear of the series, the
// markers, the other marks' lines and the labels placed before it; reference lines' labels first.
export function placeMarkLabels(chart: MarkChart, o: Partial<RunMarksOptions>, measure: (text: string) => number): PlacedLabels {
  const xScale = chart.scales.x;
  const verticalAreas = (o.vertical ?? []).map((m) => panelArea(chart, m.scale));
  const horizontalAreas = (o.horizontal ?? []).map((m) => panelArea(chart, m.scale));
  const xs = (o.vertical ?? []).map((m, i) => {
    const px = xScale?.getPixelForValue(m.x) ?? Number.NaN;
    const area = verticalAreas[i] ?? chart.chartArea;
    return Number.isFinite(px) && px >= area.left - 1 && px <= area.right + 1 ? px : null;
  });
  const ys = (o.horizontal ?? []).map((m, i) => {
    const py = chart.scales[m.scale ?? 'y']?.getPixelForValue(m.y) ?? Number.NaN;
    const area = horizontalAreas[i] ?? chart.chartArea;
    return Number.isFinite(py) && py >= area.top - 1 && py <= area.bottom + 1 ? py : null;
  });
  const series = seriesObstacles(chart);
  const verticalLines = xs.map((px, i) => {
    const area = verticalAreas[i] ?? chart.chartArea;
    return px === null ? null : { x1: px, y1: area.top, x2: px, y2: area.bottom };
  });
  const horizontalLines = ys.map((py, i) => {
    const area = horizontalAreas[i] ?? chart.chartArea;
    return py === null ? null : { x1: area.left, y1: py, x2: area.right, y2: py };
  });
  const placed: Box[] = [];
  const size = (text: string) => ({ width: measure(text) + 2 * PAD, height: LINE_HEIGHT - 2 });
  // The label where it crosses least, else its short form where that crosses less; with no place inside the plot at
  // all, the short form at `fallback`, kept inside the plot.
  const place = (m: { label: string; short?: string }, area: Area, candidates: (s: Size) => Box[], fallback: (s: Size) => Box, ownLine: Segment | null): PlacedLabel => {
    const lines = [...verticalLines, ...horizontalLines].filter((l): l is Segment => l !== null && l !== ownLine);
    const obstacles = { segments: [...series.segments, ...lines], dots: series.dots, boxes: series.boxes, texts: placed };
    let best: { text: string; box: Box; crossings: number } | null = null;
    for (const text of m.short === undefined ? [m.label] : [m.label, m.short]) {
      const chosen = placeLabel(candidates(size(text)), obstacles);
      if (chosen && (!best || chosen.crossings < best.crossings)) best = { text, ...chosen };
      if (best?.crossings === 0) break;
    }
    const text = best?.text ?? m.short ?? m.label;
    const box = best?.box ?? within(fallback(size(text)), area);
    placed.push(box);
    return { text, box };
  };
  // A mark without a label (a reference line repeated in every panel, labelled in the first) gets a box of no size,
  // so that its line is drawn.
  const horizontal = (o.horizontal ?? []).map((m, i) => {
    const py = ys[i];
    const area = horizontalAreas[i] ?? chart.chartArea;
    if (py === null || py === undefined) return null;
    if (m.label === '') return { text: '', box: { left: area.left, top: py, width: 0, height: 0 } };
    const fallback = (s: Size) => ({ left: area.left + 4, top: py - LINE_HEIGHT < area.top ? py + 2 : py - LINE_HEIGHT, ...s });
    return place(m, area, (s) => alongHorizontal(py, s, area), fallback, horizontalLines[i] ?? null);
  });
  const vertical = (o.vertical ?? []).map((m, i) => {
    const px = xs[i];
    const area = verticalAreas[i] ?? chart.chartArea;
    if (px === null || px === undefined) return null;
    if (m.label === '') return { text: '', box: { left: px, top: area.bottom, width: 0, height: 0 } };
    const fallback = (s: Size) => ({ left: px + PAD + s.width > area.right ? px - PAD - s.width : px + PAD, top: area.bottom - LINE_HEIGHT - PAD, ...s });
    return place(m, area, (s) => besideVertical(px, s, area, PAD), fallback, verticalLines[i] ?? null);
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
  const x = chart.scales.x;
  (o.horizontal ?? []).forEach((m, i) => {
    const y = chart.scales[m.scale ?? 'y'];
    if (!y || !placed.horizontal[i]) return;
    const { left, right } = panelArea(chart, m.scale);
    const py = y.getPixelForValue(m.y);
    dashedLine(ctx, m.colour, 1, [2, 3], [left, py], [right, py]);
  });
  (o.vertical ?? []).forEach((m, i) => {
    if (!x || !placed.vertical[i]) return;
    const { top, bottom } = panelArea(chart, m.scale);
    const px = x.getPixelForValue(m.x);
    dashedLine(ctx, m.colour, 1.5, [6, 4], [px, top], [px, bottom]);
  });
}

function drawLabels(ctx: MarkCanvas, o: Partial<RunMarksOptions>, placed: PlacedLabels): void {
  const background = o.labelBackground ?? 'transparent';
  const marks: { colour: string }[] = [...(o.horizontal ?? []), ...(o.vertical ?? [])];
  [...placed.horizontal, ...placed.vertical].forEach((label, i) => {
    const m = marks[i];
    if (!label || !m || label.text === '') return;
    const { box } = label;
    ctx.setLineDash([]);
    ctx.fillStyle = background;
    ctx.fillRect(box.left, box.top, box.width, box.height);
    ctx.fillStyle = m.colour;
    ctx.fillText(label.text, box.left + PAD, box.top + 1);
  });
}

function drawWhiskers(ctx: MarkCanvas, chart: MarkChart, whiskers: readonly Whisker[], colour: string): void {
  const across = lying(chart);
  const value = chart.scales[across ? 'x' : 'y'];
  if (!value) return;
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1.5;
  ctx.setLineDash([]);
  const { top, bottom, left, right } = chart.chartArea;
  // Within the plot: the axis holds every whisker, but a zero sample has no place on a log axis.
  const within = across
    ? (px: number) => Math.min(right, Math.max(left, Number.isFinite(px) ? px : left))
    : (px: number) => Math.min(bottom, Math.max(top, Number.isFinite(px) ? px : bottom));
  for (const w of whiskers) {
    if (!chart.isDatasetVisible(w.dataset)) continue;
    const bar = chart.getDatasetMeta(w.dataset).data[w.index];
    if (!bar) continue;
    const low = within(value.getPixelForValue(w.low));
    const high = within(value.getPixelForValue(w.high));
    // Caps a third of the bar's thickness, at most 8 px either side.
    const cap = Math.min(8, ((across ? bar.height : bar.width) ?? 12) / 3);
    // Drawn as for an upright bar, in (along, across) coordinates swapped for a lying one.
    const at = (along: number, off: number): [number, number] => (across ? [along, bar.y + off] : [bar.x + off, along]);
    ctx.beginPath();
    ctx.moveTo(...at(low, 0));
    ctx.lineTo(...at(high, 0));
    ctx.moveTo(...at(low, -cap));
    ctx.lineTo(...at(low, cap));
    ctx.moveTo(...at(high, -cap));
    ctx.lineTo(...at(high, cap));
    ctx.stroke();
  }
}

// Over an upright bar's whisker, centred; past a lying bar's whisker's end, on its middle, pulled back inside the
// canvas where the end is near its edge. A value whose place another value already took (bars too narrow for their
// figures, in a narrow window) is left to the tooltip and the table rather than printed over it.
function drawBarLabels(ctx: MarkCanvas, chart: MarkChart, labels: readonly BarLabel[], colour: string): void {
  const across = lying(chart);
  const value = chart.scales[across ? 'x' : 'y'];
  if (!value) return;
  ctx.fillStyle = colour;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  const taken: Box[] = [];
  for (const l of labels) {
    const bar = chart.isDatasetVisible(l.dataset) ? chart.getDatasetMeta(l.dataset).data[l.index] : undefined;
    if (!bar) continue;
    const width = ctx.measureText(l.text).width;
    const end = value.getPixelForValue(l.at);
    const box = across
      ? { left: Math.min(end + 4, chart.width - width - 2), top: bar.y - LABEL_HEIGHT / 2, width, height: LABEL_HEIGHT }
      : { left: bar.x - width / 2, top: end - 3 - LABEL_HEIGHT, width, height: LABEL_HEIGHT };
    if (taken.some((b) => boxesOverlap(b, box))) continue;
    taken.push(box);
    ctx.fillText(l.text, box.left, box.top);
  }
}

// How tall a bar's value is written (11-pixel text), for telling two values apart.
const LABEL_HEIGHT = 13;

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
    // In lines the plot's width holds.
    const lines: string[] = [];
    for (const word of options.empty.split(' ')) {
      const last = lines.at(-1);
      if (last !== undefined && ctx.measureText(`${last} ${word}`).width <= right - left - 16) lines[lines.length - 1] = `${last} ${word}`;
      else lines.push(word);
    }
    lines.forEach((line, i) => ctx.fillText(line, (left + right) / 2, (top + bottom) / 2 + (i - (lines.length - 1) / 2) * LINE_HEIGHT));
  }
  ctx.restore();
}
