// What every chart of a run shares: its inputs, the shape of its result, the y axis in the lab's quantity, values as
// the tooltip prints them, and the options that do not depend on the kind of chart.
import type { ChartConfiguration, Point } from 'chart.js';

import type { ChartTheme } from './palette.ts';
import type { YQuantity } from './points.ts';
import type { Translate } from './text.ts';
import { formatAxisNumber, formatMs, formatMsCompact, formatRate, formatTimes } from '../../main/common/format.ts';

export interface ChartInputs {
  theme: ChartTheme;
  t: Translate;
}

export type LineConfig = ChartConfiguration<'line', Point[]>;
export type BarConfig = ChartConfiguration<'bar', (number | null)[], string | string[]>;
export type RunChartConfig = LineConfig | BarConfig;

export interface RunChart {
  config: RunChartConfig;
  // Said under the chart: series waived and why, failed points, break-even bounds, what the lines mean.
  notes: string[];
  // Points drawn as a value: measured, verified, and with whatever they are compared with measured too.
  drawnPoints: number;
  // One sentence for the canvas's aria-label.
  description: string;
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

// A log y axis once the values drawn span two decades (a GPU 300× faster than a CPU flattens the CPU's bars to
// nothing on a linear axis); linear from zero otherwise, so that bar lengths compare.
export function wantsLogY(values: readonly number[]): boolean {
  const positive = values.filter((v) => Number.isFinite(v) && v > 0);
  if (positive.length < 2) return false;
  return Math.max(...positive) / Math.min(...positive) >= 100;
}

// A value as a bar's label or an axis tick: short, in the quantity's unit where the axis title does not carry it.
export function shortValue(quantity: YQuantity, value: number): string {
  if (quantity === 'ms') return formatMsCompact(value);
  return quantity === 'speedup' ? `${formatAxisNumber(value)}×` : formatAxisNumber(value);
}

export interface LogRange {
  min: number;
  max: number;
  ticks: number[];
}

// A log axis from the decade below the smallest value (so that the smallest bar still has a length) to 40 % above the
// largest (room for its whisker and label), ticked at 1, 2 and 5 times each power of ten, or at the powers of ten
// alone where that would make more than 12 ticks.
export function logRange(values: readonly number[]): LogRange | null {
  const positive = values.filter((v) => Number.isFinite(v) && v > 0);
  if (positive.length === 0) return null;
  const min = 10 ** Math.floor(Math.log10(Math.min(...positive)) + 1e-9);
  const max = Math.max(...positive) * 1.4;
  const decades: number[] = [];
  for (let d = min; d <= max * 1.0001; d *= 10) decades.push(d);
  const fine = decades.flatMap((d) => [d, 2 * d, 5 * d]).filter((v) => v <= max * 1.0001);
  return { min, max, ticks: fine.length > 12 ? decades : fine };
}

export function yScale(quantity: YQuantity, values: readonly number[], inputs: ChartInputs) {
  const { theme, t } = inputs;
  const title = yTitle(quantity, t);
  const range = wantsLogY(values) ? logRange(values) : null;
  const common = {
    ticks: { color: theme.muted, callback: (value: number | string) => shortValue(quantity, Number(value)) },
    grid: { color: theme.grid },
    border: { color: theme.muted },
  };
  if (!range) return { ...common, type: 'linear' as const, beginAtZero: true, grace: '12%', title: { display: true, text: title, color: theme.text } };
  return {
    ...common,
    type: 'logarithmic' as const,
    min: range.min,
    max: range.max,
    afterBuildTicks: (axis: { ticks: { value: number }[] }) => {
      axis.ticks = range.ticks.map((value) => ({ value }));
    },
    title: { display: true, text: t('results.chart.axis.logScale', { title }), color: theme.text },
  };
}

// Animation off: a chart that redraws as points stream in must not replay its entry each time (the caller may turn
// it on). Sizes follow the container.
export function baseOptions(theme: ChartTheme) {
  // 16 px on the right: the last size's tick label is centred on the plot's edge and would be cut in half.
  return { animation: false as const, responsive: true, maintainAspectRatio: false, color: theme.text, layout: { padding: { right: 16 } } };
}

// Under the plot: how the spread is drawn, and what a speedup is.
export function subtitle(lines: string[], theme: ChartTheme) {
  return { display: lines.length > 0, text: lines, position: 'bottom' as const, color: theme.muted, font: { size: 11 }, padding: { top: 6 } };
}

export function legendLabels(theme: ChartTheme): { color: string; usePointStyle: boolean; boxHeight: number } {
  return { color: theme.text, usePointStyle: true, boxHeight: 8 };
}
