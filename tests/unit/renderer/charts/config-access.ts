// Reading a chart configuration the way Chart.js would: the datasets of a line or bar chart, the marks, and the axis
// ticks its callbacks produce (the callbacks ignore Chart.js's `this`, so they are called as plain functions).
import type { Point } from 'chart.js';

import type { BarConfig, LineConfig, RunChart } from '../../../../renderer/charts/chart-common.ts';

export function lineConfig(chart: RunChart): LineConfig {
  if (chart.config.type !== 'line') throw new Error(`expected a line chart, got ${chart.config.type}`);
  return chart.config;
}

export function barConfig(chart: RunChart): BarConfig {
  if (chart.config.type !== 'bar') throw new Error(`expected a bar chart, got ${chart.config.type}`);
  return chart.config;
}

// The datasets a reader sees: the series' lines, not the two invisible lines of each band.
export function seriesLines(config: LineConfig): { label: string; data: Point[] }[] {
  return config.data.datasets.filter((d) => d.label !== '').map((d) => ({ label: d.label ?? '', data: d.data }));
}

export function bands(config: LineConfig, seriesLabel: string): { low: Point[]; high: Point[] } {
  const datasets = config.data.datasets;
  const i = datasets.findIndex((d) => d.label === seriesLabel);
  const low = datasets[i - 2];
  const high = datasets[i - 1];
  if (!low || !high) throw new Error(`no band before ${seriesLabel}`);
  return { low: low.data, high: high.data };
}

// The marks as the configuration holds them (every field optional, as Chart.js's option types make them).
export function marks(chart: RunChart) {
  return chart.config.options?.plugins?.runMarks ?? {};
}

type Formatter = (value: number) => unknown;
type TickBuilder = (axis: { ticks: { value: number }[] }) => void;

export function axisTicks(chart: RunChart, axisId: 'x' | 'y'): { type: string | undefined; labels: string[] } {
  const axis = chart.config.options?.scales?.[axisId];
  if (!axis) throw new Error(`no ${axisId} axis`);
  const built = { ticks: [] as { value: number }[] };
  (axis.afterBuildTicks as unknown as TickBuilder | undefined)?.(built);
  const format = axis.ticks?.callback as unknown as Formatter;
  return { type: axis.type, labels: built.ticks.map((tick) => String(format(tick.value))) };
}
