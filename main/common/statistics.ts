// Summary statistics of a series of timing samples. Quantiles interpolate linearly between order statistics
// (NumPy's default, "linear"), so p50 of [1, 2, 3, 4] is 2.5.

// The shape lives in main/common (it is part of every run record the renderer reads).
export type { SampleStats } from './run-record.ts';
import type { SampleStats } from './run-record.ts';

export const NOISE_IQR_FRACTION = 0.1;

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] ?? Number.NaN;
  const b = sorted[hi] ?? Number.NaN;
  return a + (b - a) * (pos - lo);
}

export function summarize(samples: readonly number[]): SampleStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const mean = n ? sorted.reduce((s, v) => s + v, 0) / n : Number.NaN;
  const variance = n > 1 ? sorted.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1) : 0;
  const median = quantile(sorted, 0.5);
  const q1 = quantile(sorted, 0.25);
  const q3 = quantile(sorted, 0.75);
  return {
    count: n,
    median,
    mean,
    std: Math.sqrt(variance),
    min: sorted[0] ?? Number.NaN,
    max: sorted[n - 1] ?? Number.NaN,
    p95: quantile(sorted, 0.95),
    q1,
    q3,
    iqr: q3 - q1,
    noisy: n >= 4 && q3 - q1 > NOISE_IQR_FRACTION * median,
  };
}
