// What every chart of a run shares: its inputs, the shape of its result, the y axis in the lab's quantity, values as
// the tooltip prints them, and the options that do not depend on the kind of chart.
import type { ChartConfiguration, Point } from 'chart.js';

import type { RunRecord } from '../../main/common/run-record.ts';
import type { AxisKind } from './axis-range.ts';
import { axisRange } from './axis-range.ts';
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

// The y axis of a chart, bounded by every value it draws (`values`: bars or medians, whisker and band ends, reference
// lines), logarithmic where they span more than `kind` allows (axis-range.ts), its title saying so.
export function yScale(quantity: YQuantity, values: readonly number[], inputs: ChartInputs, kind: AxisKind) {
  const { theme, t } = inputs;
  const title = yTitle(quantity, t);
  const range = axisRange(values, kind);
  const common = {
    ticks: { color: theme.muted, callback: (value: number | string) => shortValue(quantity, Number(value)) },
    grid: { color: theme.grid },
    border: { color: theme.muted },
  };
  // Nothing drawn yet: Chart.js's own axis from zero.
  if (!range) return { ...common, type: 'linear' as const, beginAtZero: true, title: { display: true, text: title, color: theme.text } };
  return {
    ...common,
    type: range.log ? ('logarithmic' as const) : ('linear' as const),
    min: range.min,
    max: range.max,
    afterBuildTicks: (axis: { ticks: { value: number }[] }) => {
      axis.ticks = range.ticks.map((value) => ({ value }));
    },
    title: { display: true, text: range.log ? t('results.chart.axis.logScale', { title }) : title, color: theme.text },
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
