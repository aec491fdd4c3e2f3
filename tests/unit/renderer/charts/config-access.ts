// Reading a chart configuration the way Chart.js would: the datasets of a line or bar chart, the marks, and the axis
// ticks its callbacks produce (the callbacks ignore Chart.js's `this`, so they are called as plain functions).
import type { Point } from 'chart.js';

import type { BarConfig, LineConfig, RunChart } from '../../../../main/common/pure/charts/chart-common.ts';

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
type TickBuilder = (axis: { ticks: { value: number }[]; width: number; height: number; isHorizontal(): boolean }) => void;

// The axes a chart's values are read on: x for bars lying as rows, y otherwise, one y axis a panel in a chart of
// panels.
export function valueAxes(chart: RunChart): string[] {
  if (chart.config.type === 'bar' && chart.config.options?.indexAxis === 'y') return ['x'];
  return Object.keys(chart.config.options?.scales ?? {}).filter((id) => id.startsWith('y'));
}

export function valueAxis(chart: RunChart): string {
  const [first] = valueAxes(chart);
  if (first === undefined) throw new Error('no value axis');
  return first;
}

// The ticks an axis of `length` pixels gets (long enough for all of them by default).
export function axisTicks(chart: RunChart, axisId: string, length = 10_000): { type: string | undefined; labels: string[] } {
  const axis = chart.config.options?.scales?.[axisId];
  if (!axis) throw new Error(`no ${axisId} axis`);
  const built = { ticks: [] as { value: number }[], width: length, height: length, isHorizontal: () => axisId.startsWith('x') };
  (axis.afterBuildTicks as unknown as TickBuilder | undefined)?.(built);
  const format = axis.ticks?.callback as unknown as Formatter;
  return { type: axis.type, labels: built.ticks.map((tick) => String(format(tick.value))) };
}

export interface DrawnValues {
  // Every value the chart draws on its value axis: bars, medians, the bands' edges, whisker ends, the values written
  // over bars, reference lines.
  y: number[];
  // Every x value a sweep draws: its points' sizes and its break-even lines.
  x: number[];
}

// Read from the configuration as Chart.js and the marks plugin will draw it, not from the chart's own list of values.
export function drawnValues(chart: RunChart): DrawnValues {
  const y: number[] = [];
  const x: number[] = [];
  if (chart.config.type === 'bar') {
    // A bar's value, on its value axis whichever way the bars stand.
    for (const ds of chart.config.data.datasets) for (const v of ds.data) if (typeof v === 'number' && Number.isFinite(v)) y.push(v);
  } else {
    for (const ds of chart.config.data.datasets) {
      for (const p of ds.data) {
        if (p.y === null || !Number.isFinite(p.y)) continue;
        y.push(p.y);
        x.push(p.x ?? Number.NaN);
      }
    }
  }
  const m = marks(chart);
  for (const w of m.whiskers ?? []) y.push(w.low ?? Number.NaN, w.high ?? Number.NaN);
  for (const l of m.barLabels ?? []) y.push(l.at ?? Number.NaN);
  for (const h of m.horizontal ?? []) y.push(h.y ?? Number.NaN);
  for (const v of m.vertical ?? []) x.push(v.x ?? Number.NaN);
  return { y, x };
}

export interface ScaleBounds {
  type: string | undefined;
  min: number | undefined;
  max: number | undefined;
}

export function scaleBounds(chart: RunChart, axisId: string): ScaleBounds {
  const axis = chart.config.options?.scales?.[axisId] as { type?: string; min?: unknown; max?: unknown } | undefined;
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return { type: axis?.type, min: num(axis?.min), max: num(axis?.max) };
}
