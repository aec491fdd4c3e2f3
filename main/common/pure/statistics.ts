// Summary statistics of a series of timing samples. Quantiles interpolate linearly between order statistics
// (NumPy's default, "linear"), so p50 of [1, 2, 3, 4] is 2.5. The median carries its 95 % confidence interval, from
// order statistics (no assumption about the distribution of the samples), and "noisy" is that interval's width.

// The shape lives in main/common (it is part of every run record the renderer reads).
export type { SampleStats } from '../run-record.ts';
import type { Clock } from '../measurement.ts';
import type { SampleStats } from '../run-record.ts';

// A median is "noisy" when its 95 % confidence interval reaches further than this share of it on either side: the
// uncertainty of the number itself (README.md, "How a number is made"), not the spread of the machine.
export const NOISY_INTERVAL_FRACTION = 0.05;

// The fewest samples that give a distribution-free 95 % interval of the median (with 5, the widest interval, from the
// smallest to the largest sample, covers the median with probability 1 − 2/2⁵ ≈ 94 %).
export const MIN_INTERVAL_SAMPLES = 6;

// Adaptive sampling (main/host/sampling.ts) stops once the median's interval lies within this share of it on either
// side, or at MAX_SAMPLES samples however noisy they are: past that the interval narrows too slowly to be worth it.
export const TARGET_INTERVAL_FRACTION = 0.02;
export const MAX_SAMPLES = 200;
// The least time budget a point gets (the lab runner's floor, and the sampler's where it shrinks a budget): a plan's
// few microsecond runs add up to less than one 5-ms batched sample on a busy machine, which would stop the point at one.
export const MIN_BUDGET_SECONDS = 0.05;

// P(B ≤ k) for B ~ Binomial(n, 1/2).
function binomialHalfCdf(n: number, k: number): number {
  let term = 0.5 ** n;
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term = (term * (n - i + 1)) / i;
    sum += term;
  }
  return sum;
}

// The order statistics that bound the median with at least `confidence` (distribution-free: the median lies between
// the k-th smallest and the k-th largest of n samples with probability 1 − 2·P(B ≤ k − 1), B ~ Binomial(n, ½)), as
// 0-based indices into the sorted samples; null with fewer than MIN_INTERVAL_SAMPLES samples.
export function medianIntervalRanks(n: number, confidence = 0.95): { low: number; high: number; coverage: number } | null {
  if (n < MIN_INTERVAL_SAMPLES) return null;
  const tail = (1 - confidence) / 2;
  let k = 1;
  while (k + 1 <= n / 2 && binomialHalfCdf(n, k) <= tail) k++;
  if (binomialHalfCdf(n, k - 1) > tail) return null;
  return { low: k - 1, high: n - k, coverage: 1 - 2 * binomialHalfCdf(n, k - 1) };
}

// The median's 95 % confidence interval [low, high], or null with fewer than MIN_INTERVAL_SAMPLES samples.
export function medianInterval(samples: readonly number[]): { low: number; high: number } | null {
  const sorted = [...samples].sort((a, b) => a - b);
  const ranks = medianIntervalRanks(sorted.length);
  if (!ranks) return null;
  return { low: sorted[ranks.low] ?? Number.NaN, high: sorted[ranks.high] ?? Number.NaN };
}

// Whether an interval reaches further than NOISY_INTERVAL_FRACTION of the median on either side.
export function intervalIsNoisy(median: number, low: number, high: number): boolean {
  return low < median * (1 - NOISY_INTERVAL_FRACTION) || high > median * (1 + NOISY_INTERVAL_FRACTION);
}

// How far the median's interval reaches from the median, as a share of it (0.013 for ±1.3 %), the farther side;
// null without an interval (fewer than MIN_INTERVAL_SAMPLES samples, or a record from before intervals).
export function intervalHalfWidth(s: Pick<SampleStats, 'median' | 'ciLow' | 'ciHigh'>): number | null {
  if (s.ciLow === null || s.ciLow === undefined || s.ciHigh === null || s.ciHigh === undefined || !(s.median > 0)) return null;
  return Math.max(s.median - s.ciLow, s.ciHigh - s.median) / s.median;
}

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
  const ranks = medianIntervalRanks(n);
  const ciLow = ranks ? (sorted[ranks.low] ?? Number.NaN) : null;
  const ciHigh = ranks ? (sorted[ranks.high] ?? Number.NaN) : null;
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
    ciLow,
    ciHigh,
    noisy: ciLow !== null && ciHigh !== null && intervalIsNoisy(median, ciLow, ciHigh),
  };
}

// Samples as a measurement returns them and a point keeps them: every sample on the host's clock, on CUDA events
// too where the device was timed, and the clock the point was measured on.
export interface TimedSamples {
  clock: Clock;
  hostMs: readonly number[];
  deviceMs: readonly number[] | null;
}

// The samples a point's figures come from, decided here once for the engine's sampling, the runner and every
// reader: the device's own times where the clock is CUDA events (and every sample has one), else the host's clock
// (`host`, and `host-nosync`, whose events are kept beside it to show what the launch hid).
export function countedSamples(t: TimedSamples): readonly number[] {
  return t.clock === 'events' && t.deviceMs !== null && t.deviceMs.length === t.hostMs.length ? t.deviceMs : t.hostMs;
}

// A point's statistics: its median with the median's interval, of the samples that count.
export function timedStatistics(t: TimedSamples): SampleStats {
  return summarize(countedSamples(t));
}

// Whether the median's interval lies within ±fraction of the median (never with fewer than MIN_INTERVAL_SAMPLES).
export function converged(samples: readonly number[], fraction = TARGET_INTERVAL_FRACTION): boolean {
  const s = summarize(samples);
  if (s.ciLow === null || s.ciLow === undefined || s.ciHigh === null || s.ciHigh === undefined) return false;
  return s.ciLow >= s.median * (1 - fraction) && s.ciHigh <= s.median * (1 + fraction);
}
