// What every chart of a run shares: its inputs, the shape of its result, the y axis in the lab's quantity, values as
// the tooltip prints them, and the options that do not depend on the kind of chart.
import type { ChartConfiguration, Point } from 'chart.js';

import type { RunRecord } from '../../run-record.ts';
import type { AxisKind } from './axis-range.ts';
import { axisRange } from './axis-range.ts';
import type { ChartTheme } from './palette.ts';
import type { YQuantity } from './points.ts';
import type { Translate } from './text.ts';
import { formatAxisNumber, formatMs, formatMsCompact, formatRate, formatTimes } from '../format.ts';

export interface ChartInputs {
  theme: ChartTheme;
  t: Translate;
}

export type LineConfig = ChartConfiguration<'line', Point[]>;
export type BarConfig = ChartConfiguration<'bar', (number | null)[], string | string[]>;
export type RunChartConfig = LineConfig | BarConfig;

export interface RunChart {
  config: RunChartConfig;
  // Said under the chart, where the words wrap as the page does: how to read it (what a line, a band, a whisker,
  // a speedup is), then series waived and why, failed points, break-even bounds.
  notes: string[];
  // Points drawn as a value: measured, verified, and with whatever they are compared with measured too.
  drawnPoints: number;
  // One sentence for the canvas's aria-label.
  description: string;
  // The least height it reads at, in CSS pixels (neededHeight).
  minHeight: number;
}

// A run still queued or going: its chart may say what has not happened "yet"; a run that ended says what did.
export function isLive(record: Pick<RunRecord, 'status'>): boolean {
  return record.status === 'queued' || record.status === 'running';
}

const Y_TITLE: Record<YQuantity, string> = {
  'GB/s': 'results.chart.axis.gbps',
  'GFLOP/s': 'results.chart.axis.gflops',
  'TFLOP/s': 'results.chart.axis.tflops',
  ms: 'results.chart.axis.ms',
  speedup: 'results.chart.axis.speedup',
};

export function yTitle(quantity: YQuantity, t: Translate): string {
  return t(Y_TITLE[quantity]);
}

// A value as the tooltip and the table print it, in the chart's quantity.
export function formatValue(quantity: YQuantity, value: number, integerOps = false): string {
  switch (quantity) {
    case 'ms':
      return formatMs(value);
    case 'GB/s':
      return formatRate(value, 'GB/s');
    case 'GFLOP/s':
      return formatRate(value, integerOps ? 'GOP/s' : 'GFLOP/s');
    case 'TFLOP/s':
      return formatRate(value * 1000, integerOps ? 'GOP/s' : 'GFLOP/s');
    case 'speedup':
      return formatTimes(value);
  }
}

// A value as a bar's label or an axis tick: short, in the quantity's unit where the axis title does not carry it.
export function shortValue(quantity: YQuantity, value: number): string {
  if (quantity === 'ms') return formatMsCompact(value);
  return quantity === 'speedup' ? `${formatAxisNumber(value)}×` : formatAxisNumber(value);
}

// The value axis of a chart (y of columns and sweeps, x of rows), bounded by every value it draws (`values`: bars or
// medians, whisker and band ends, reference lines), on the lab's scale (`log`), whatever the values a run happened to
// measure (axis-range.ts). Its title is written above the plot (valueTitle, plotTitle), not beside the axis.
export function valueScale(quantity: YQuantity, values: readonly number[], log: boolean, inputs: ChartInputs, kind: AxisKind) {
  const { theme } = inputs;
  // Nothing drawn yet: a decade (or 0 to 1) ticked as the axis will be, not Chart.js's own ticks at every tenth.
  const range = axisRange(values.some((v) => Number.isFinite(v) && (!log || v > 0)) ? values : [1, 10], log, kind);
  const common = {
    type: log ? ('logarithmic' as const) : ('linear' as const),
    ticks: { color: theme.muted, callback: (value: number | string) => shortValue(quantity, Number(value)) },
    grid: { color: theme.grid },
    border: { color: theme.muted },
  };
  if (!range) return common;
  return {
    ...common,
    min: range.min,
    max: range.max,
    afterBuildTicks: (axis: BuiltAxis) => {
      axis.ticks = fittingTicks(range.ticks, axis, (v) => shortValue(quantity, v), axisPlace(range.min, range.max, log)).map((value) => ({ value }));
    },
  };
}

// An axis as Chart.js hands it to afterBuildTicks: its length is known (the layout sets it before the ticks).
export interface BuiltAxis {
  ticks: { value: number }[];
  width: number;
  height: number;
  isHorizontal(): boolean;
}

// Where a value lies along an axis from `min` to `max`, as a share of its length.
export function axisPlace(min: number, max: number, log: boolean): (value: number) => number {
  if (log && min > 0 && max > min) return (v) => Math.log(v / min) / Math.log(max / min);
  return (v) => (max > min ? (v - min) / (max - min) : 0);
}

// The ticks the axis's length holds, each label at about 7 pixels a character across (12-pixel text) and 18 pixels
// up, each pair of neighbours (at their places: on a log axis 1, 2 and 5 are not evenly spaced) half of both apart
// with a gap: all of them; else on a log axis the powers of ten alone (1, 2, 5 crowd first); else every second,
// third… tick. A narrow window's chart thins its ticks instead of printing them over each other.
export function fittingTicks(ticks: readonly number[], axis: BuiltAxis, label: (value: number) => string, place: (value: number) => number): number[] {
  const horizontal = axis.isHorizontal();
  const length = horizontal ? axis.width : axis.height;
  const extent = (v: number): number => (horizontal ? 7 * label(v).length + 12 : 18);
  const fits = (ts: readonly number[]): boolean =>
    ts.every((v, i) => {
      const next = ts[i + 1];
      return next === undefined || Math.abs(place(next) - place(v)) * length >= (extent(v) + extent(next)) / 2;
    });
  if (fits(ticks)) return [...ticks];
  const powers = ticks.filter((v) => v > 0 && Number.isInteger(Math.round(Math.log10(v) * 1e9) / 1e9));
  const base = powers.length >= 2 ? powers : [...ticks];
  for (let every = 1; every < base.length; every++) {
    const thinned = base.filter((_, i) => i % every === 0);
    if (fits(thinned)) return thinned;
  }
  return base.slice(0, 1);
}

// The value axis's title: its quantity, which way is better, and its scale.
export function valueTitle(quantity: YQuantity, log: boolean, t: Translate): string {
  const title = yTitle(quantity, t);
  return log ? t('results.chart.axis.logScale', { title }) : title;
}

// The value axis's title across the top of the plot, from its left edge, below the legend (Chart.js's legend weighs
// 1000: a lighter box sits nearer the plot). Beside a rotated axis a title ran past the ends of a short plot, off the
// canvas and into the legend.
export function plotTitle(text: string, theme: ChartTheme) {
  return { display: true, text, align: 'start' as const, position: 'top' as const, weight: 500, color: theme.text, font: { size: 12, weight: 'normal' as const }, padding: { top: 2, bottom: 6 } };
}

// Animation off: a chart that redraws as points stream in must not replay its entry each time (the caller may turn
// it on). Sizes follow the container.
export function baseOptions(theme: ChartTheme) {
  // 16 px on the right: the last size's tick label is centred on the plot's edge and would be cut in half.
  return { animation: false as const, responsive: true, maintainAspectRatio: false, color: theme.text, layout: { padding: { left: 4, right: 16 } } };
}

export function legendLabels(theme: ChartTheme): { color: string; usePointStyle: boolean; boxHeight: number } {
  return { color: theme.text, usePointStyle: true, boxHeight: 8 };
}

// The least height of a plot of lines or columns that reads.
export const PLOT_HEIGHT = 200;

// The height a chart needs, in CSS pixels, beyond which its plot has room (rows of bars, panels): the legend's rows,
// at about 7 pixels a character in rows of 700, the title and the axis below. The app and the PDF draw it at least
// this tall; it depends on what the run planned, not on what has been measured, so a running chart keeps it.
export function neededHeight(legend: readonly string[], plot: number): number {
  const widths = legend.map((l) => 7 * l.length + 30);
  let rows = widths.length > 0 ? 1 : 0;
  let used = 0;
  for (const w of widths) {
    if (used > 0 && used + w > 700) {
      rows++;
      used = 0;
    }
    used += w;
  }
  return Math.round(90 + 22 * rows + plot);
}
