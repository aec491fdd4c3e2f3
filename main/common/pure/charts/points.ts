// The arithmetic the charts and the tables share: which point a point is compared with, its speedup, its rate, and
// the value it is drawn at with its spread, in the quantity of the lab's chart.
import type { ChartDescriptor, LabDescriptor, SeriesDescriptor } from '../../lab-descriptor.ts';
import type { PointResult, RunRecord } from '../../run-record.ts';
import type { RateUnit } from '../format.ts';

export type YQuantity = ChartDescriptor['y']['quantity'];

export function pointsByKey(record: RunRecord): Map<string, PointResult> {
  return new Map(record.points.map((p) => [p.key, p]));
}

export function seriesOf(lab: LabDescriptor, seriesKey: string): SeriesDescriptor | undefined {
  return lab.series.find((s) => s.key === seriesKey);
}

// What follows the series in a point's key: "@1000000" for a size, "-fp32" for a type, "" for a series' only point.
export function keySuffix(point: Pick<PointResult, 'key' | 'series'>): string {
  return point.key.startsWith(point.series) ? point.key.slice(point.series.length) : '';
}

// The baseline's point of the same suffix: 'add-gpu-resident@1000000' ↔ 'add-cpu@1000000', 'gpu-fp32' ↔ 'cpu-fp32'.
export function baselineKey(lab: LabDescriptor, point: Pick<PointResult, 'key' | 'series'>): string | null {
  const baseline = seriesOf(lab, point.series)?.baseline;
  return baseline === undefined ? null : `${baseline}${keySuffix(point)}`;
}

export function baselinePoint(lab: LabDescriptor, byKey: ReadonlyMap<string, PointResult>, point: PointResult): PointResult | undefined {
  const key = baselineKey(lab, point);
  return key === null ? undefined : byKey.get(key);
}

function okMedian(p: PointResult | undefined): number | null {
  return p && p.status === 'ok' && p.stats && p.stats.median > 0 ? p.stats.median : null;
}

// How many times faster the point is than its baseline: baseline median ÷ point median.
export function speedupOver(point: PointResult, baseline: PointResult | undefined): number | null {
  const fast = okMedian(point);
  const slow = okMedian(baseline);
  return fast === null || slow === null ? null : slow / fast;
}

// The same arithmetic as shareOfPeak in main/common/run-record.ts, which the renderer may not import as a value (it
// comes with the record's schema library); tests/unit/renderer/charts holds the two together.
export function shareOfPeak(p: PointResult): number | null {
  if (!p.peak || p.status !== 'ok') return null;
  const rate = p.peak.unit === 'GB/s' ? p.gbps : p.gflops;
  return rate === null || p.peak.value <= 0 ? null : rate / p.peak.value;
}

// int8 GEMM counts integer operations: the dtypes lab's 'gpu-int8'.
export function countsIntegerOps(p: PointResult): boolean {
  return /(^|[-@])int8$/.test(p.key);
}

export interface PointRate {
  value: number;
  unit: RateUnit;
}

// The rate shown beside a point's time: the one the lab's chart measures; else the point's peak's unit; else the one
// that bounds the work: GFLOP/s from one FLOP per byte up (a GEMM does hundreds), GB/s below (an elementwise add
// does 1 FLOP per 12 bytes).
export function pointRate(p: PointResult, chartY: YQuantity): PointRate | null {
  const flops = p.gflops === null ? null : { value: p.gflops, unit: countsIntegerOps(p) ? ('GOP/s' as const) : ('GFLOP/s' as const) };
  const bytes = p.gbps === null ? null : { value: p.gbps, unit: 'GB/s' as const };
  if (chartY === 'GB/s') return bytes ?? flops;
  if (chartY === 'GFLOP/s' || chartY === 'TFLOP/s') return flops ?? bytes;
  if (p.peak) return p.peak.unit === 'GB/s' ? (bytes ?? flops) : (flops ?? bytes);
  return p.work.flops >= p.work.bytes ? (flops ?? bytes) : (bytes ?? flops);
}

// A point as drawn: y, the band (q1–q3) and the whiskers (min–max) in the chart's quantity.
export interface PlottedValue {
  y: number;
  low: number;
  high: number;
  min: number;
  max: number;
}

// A rate is work ÷ time, so the slower quartile is the lower rate: rate(t) = rate(median) · median / t. A speedup is
// baseline median ÷ time: the same shape, with the baseline's median as the work.
function inverse(scale: number, stats: NonNullable<PointResult['stats']>): PlottedValue {
  const at = (t: number): number => (t > 0 ? scale / t : scale / stats.median);
  return { y: scale / stats.median, low: at(stats.q3), high: at(stats.q1), min: at(stats.max), max: at(stats.min) };
}

export function plottedValue(p: PointResult, quantity: YQuantity, baseline?: PointResult): PlottedValue | null {
  const stats = p.status === 'ok' ? p.stats : null;
  if (!stats || !(stats.median > 0)) return null;
  switch (quantity) {
    case 'ms':
      return { y: stats.median, low: stats.q1, high: stats.q3, min: stats.min, max: stats.max };
    case 'GB/s':
      return p.gbps === null ? null : inverse(p.gbps * stats.median, stats);
    case 'GFLOP/s':
      return p.gflops === null ? null : inverse(p.gflops * stats.median, stats);
    case 'TFLOP/s':
      return p.gflops === null ? null : inverse((p.gflops / 1000) * stats.median, stats);
    case 'speedup': {
      const base = okMedian(baseline);
      return base === null ? null : inverse(base, stats);
    }
  }
}
