// The claims a sentence may make about measured numbers, each decided from the medians with their 95 % confidence
// intervals (common/pure/statistics.ts) rather than from the medians alone: which of two is faster, or that they cannot
// be told apart; whether a value lies within a spread of samples; whether a series grows or shrinks. A finding that
// states a direction, a membership or a trend asks here first, so that no sentence says more than its numbers do.
import type { PointResult } from '../run-record.ts';
import { summarize } from './statistics.ts';

// A measured time: its median, the interval the median lies in (its 95 % confidence interval; with fewer than 6
// samples, the whole range of the samples, the most that can be said), and the samples' range. Read off the point's
// statistics as stored: the runner computed them from the samples that count (statistics.ts timedStatistics).
export interface Estimate {
  median: number;
  low: number;
  high: number;
  min: number;
  max: number;
  samples: number;
}

export function estimateOf(p: PointResult | undefined): Estimate | null {
  if (!p || p.status !== 'ok' || !p.stats) return null;
  const s = p.stats;
  return { median: s.median, low: s.ciLow ?? s.min, high: s.ciHigh ?? s.max, min: s.min, max: s.max, samples: s.count };
}

// The same of bare samples (a kernel run's launches, which are no lab point): null where there are none.
export function estimateOfSamples(samples: readonly number[]): Estimate | null {
  const finite = samples.filter((s) => Number.isFinite(s));
  if (finite.length === 0) return null;
  const s = summarize(finite);
  return { median: s.median, low: s.ciLow ?? s.min, high: s.ciHigh ?? s.max, min: s.min, max: s.max, samples: s.count };
}

// A time against another: 'faster' where a's interval lies wholly below b's, 'slower' where wholly above, else the
// two cannot be told apart at this precision.
export type Order = 'faster' | 'slower' | 'indistinguishable';

export function compareTimes(a: Estimate, b: Estimate): Order {
  if (a.high < b.low) return 'faster';
  if (a.low > b.high) return 'slower';
  return 'indistinguishable';
}

// Two points' times compared as compareTimes does; null where either has no measured time.
export function comparePoints(a: PointResult | undefined, b: PointResult | undefined): Order | null {
  const ea = estimateOf(a);
  const eb = estimateOf(b);
  return ea && eb ? compareTimes(ea, eb) : null;
}

// How many times longer b takes than a (b ÷ a: above 1 where a is faster), with the range the two intervals allow.
export interface Ratio {
  value: number;
  low: number;
  high: number;
}

export function timeRatio(a: Estimate, b: Estimate): Ratio {
  return { value: b.median / a.median, low: b.low / a.high, high: b.high / a.low };
}

// A time against another that should match it (a Python peer against GPU Lab's series of the same work): the ratio of
// `other` to `ours` with the range the two intervals allow, and what that range shows.
//   'agree'    the intervals overlap and the whole range lies within ±`within` of 1, the smallest margin of AGREEMENT_STEPS
//              that holds it (as close as the data shows, never closer);
//   'differ'   the intervals separate: `other` is 'faster' or 'slower', by the range, whether small or not; `beyond` says
//              whether the range reaches past the margin the two are held to (a gap worth looking into) or not (a small,
//              steady difference);
//   'unclear'  the intervals overlap but the range reaches past the margin: too noisy to say whether they agree.
export const AGREEMENT_STEPS = [0.01, 0.02, 0.03, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5] as const;

export type Agreement =
  | { kind: 'agree'; ratio: Ratio; within: number }
  | { kind: 'differ'; ratio: Ratio; order: 'faster' | 'slower'; beyond: boolean }
  | { kind: 'unclear'; ratio: Ratio };

export function agreementOf(ours: Estimate, other: Estimate, margin = 0.1): Agreement {
  const ratio = timeRatio(ours, other);
  const order = compareTimes(other, ours);
  const reach = Math.max(1 - ratio.low, ratio.high - 1);
  if (order !== 'indistinguishable') return { kind: 'differ', ratio, order, beyond: reach > margin };
  const within = AGREEMENT_STEPS.find((step) => step <= margin + 1e-12 && reach <= step);
  return within === undefined ? { kind: 'unclear', ratio } : { kind: 'agree', ratio, within };
}

// A ratio as precise as its two intervals: the value alone where the range the intervals allow stays within ±5 % of it,
// else with that range ("8.84×, 6.0× to 9.9×"): a ratio of two noisy times is known no better than that.
export function ratioIsLoose(r: Ratio): boolean {
  return r.low < r.value * 0.95 || r.high > r.value * 1.05;
}

// Whether a single time lies within the spread of a series of samples: between its fastest and its slowest sample.
export function withinSpread(x: number, e: Estimate): boolean {
  return x >= e.min && x <= e.max;
}

// The direction of a series of ratios measured at growing sizes, judged on the measured values with their ranges:
// 'grows' where every step's range lies above the one before … 'shrinks' the other way, 'flat' where no step can be
// told apart, 'mixed' otherwise. Fewer than two values: 'flat'.
export type Trend = 'grows' | 'shrinks' | 'flat' | 'mixed';

export function trendOf(series: readonly Ratio[]): Trend {
  let up = 0;
  let down = 0;
  for (let i = 1; i < series.length; i++) {
    const prev = series[i - 1] as Ratio;
    const next = series[i] as Ratio;
    if (next.low > prev.high) up++;
    else if (next.high < prev.low) down++;
  }
  if (up > 0 && down === 0) return 'grows';
  if (down > 0 && up === 0) return 'shrinks';
  if (up === 0 && down === 0) return 'flat';
  return 'mixed';
}

// The speedup of `fast` over `slow` at every size both measured, as its lowest and highest value within the two
// medians' intervals: a crossing found on each bounds where the true crossing can lie.
export function speedupRange(points: readonly PointResult[], slowSeries: string, fastSeries: string): { low: { x: number[]; y: number[] }; high: { x: number[]; y: number[] } } {
  const low = { x: [] as number[], y: [] as number[] };
  const high = { x: [] as number[], y: [] as number[] };
  for (const slow of points) {
    if (slow.series !== slowSeries || slow.x === null) continue;
    const s = estimateOf(slow);
    const f = estimateOf(points.find((p) => p.series === fastSeries && p.x === slow.x));
    if (!s || !f) continue;
    const r = timeRatio(f, s);
    low.x.push(slow.x);
    low.y.push(r.low);
    high.x.push(slow.x);
    high.y.push(r.high);
  }
  return { low, high };
}

// A figure and the interval it lies in (a side null where the measurements leave it open).
export interface Bounded {
  value: number;
  low: number | null;
  high: number | null;
}

// Fewer students than this say nothing of what is usual in a class: no range, and nobody is flagged.
export const MIN_CLASS_STUDENTS = 5;

// What is usual for one figure in a class: the middle half of the students' values (one value a student), widened by
// one and a half times its width on each side (Tukey's fences). On a log scale where every value is positive, since
// break-even sizes, speedups and rates spread by factors, not by sums: a class's break-evens of 200 k to 800 k reach
// from 25 k to 6.4 M. Quartiles by linear interpolation between the sorted values.
export interface ClassRange {
  low: number;
  high: number;
  median: number;
  students: number;
}

function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const lo = sorted[below] ?? 0;
  const hi = sorted[Math.min(sorted.length - 1, below + 1)] ?? lo;
  return lo + (at - below) * (hi - lo);
}

export function classRange(values: readonly number[]): ClassRange | null {
  const finite = values.filter(Number.isFinite);
  if (finite.length < MIN_CLASS_STUDENTS) return null;
  const log = finite.every((v) => v > 0);
  const scaled = finite.map((v) => (log ? Math.log(v) : v)).sort((a, b) => a - b);
  const q1 = quantile(scaled, 0.25);
  const q3 = quantile(scaled, 0.75);
  const back = (v: number): number => (log ? Math.exp(v) : v);
  return { low: back(q1 - 1.5 * (q3 - q1)), high: back(q3 + 1.5 * (q3 - q1)), median: back(quantile(scaled, 0.5)), students: finite.length };
}

// Where a student's figure lies against the class's range: above or below only where its whole interval lies beyond
// the range; where any part of it reaches into the range (or is open toward it), it is not told apart from the class.
export type Placement = 'above' | 'below' | 'within';

export function placeAgainst(x: Bounded, range: ClassRange): Placement {
  if (x.low !== null && x.low > range.high) return 'above';
  if (x.high !== null && x.high < range.low) return 'below';
  return 'within';
}
