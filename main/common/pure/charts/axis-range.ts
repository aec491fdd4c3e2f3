// The value axis's bounds, computed from everything a chart draws (bars or medians, whiskers, bands, reference lines),
// so that nothing drawn leaves the plot: Chart.js left alone sizes an axis to its datasets' values only, and a whisker
// to a slow sample (93 ms over bars of 50 ms) ran off its top. Linear from zero, or logarithmic from a power of ten
// below the smallest value (never at or below 0); either way with headroom above the largest value, room for the
// value written over a bar. The ticks are chosen here too, at round values: 1, 2 or 5 times a power of ten.

// The share of the axis's span (of its decades, on a log axis) left above the largest value: a bar's value is written
// over its whisker, a line's topmost marker needs only its radius.
export type AxisKind = 'bars' | 'lines';

export const HEADROOM: Record<AxisKind, number> = { bars: 0.12, lines: 0.06 };

export interface AxisRange {
  log: boolean;
  min: number;
  max: number;
  ticks: number[];
}

function finite(values: readonly number[]): number[] {
  return values.filter((v) => Number.isFinite(v));
}

function positive(values: readonly number[]): number[] {
  return values.filter((v) => Number.isFinite(v) && v > 0);
}

// Rounded to twelve significant digits: 0.1 × 3 is 0.3 as a tick, not 0.30000000000000004.
const tidy = (v: number): number => Number(v.toPrecision(12));

// The round step (1, 2 or 5 times a power of ten) that cuts `span` into about `parts` intervals.
export function niceStep(span: number, parts = 6): number {
  const raw = span / parts;
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const decade = 10 ** Math.floor(Math.log10(raw));
  const f = raw / decade;
  return tidy((f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * decade);
}

// From zero (or below it, for a negative value), to a round value at least HEADROOM of the span above the largest.
export function linearRange(values: readonly number[], headroom = HEADROOM.bars): AxisRange | null {
  const v = finite(values);
  if (v.length === 0) return null;
  const lo = Math.min(0, ...v);
  const hi = Math.max(0, ...v);
  const span = hi - lo > 0 ? hi - lo : Math.max(Math.abs(hi), 1);
  const step = niceStep(span * (1 + 2 * headroom));
  const max = tidy(Math.ceil((hi + headroom * span) / step) * step);
  const min = lo < 0 ? tidy(Math.floor((lo - headroom * span) / step) * step) : 0;
  const ticks: number[] = [];
  for (let i = Math.round(min / step); i <= Math.round(max / step); i++) ticks.push(tidy(i * step));
  return { log: false, min, max, ticks };
}

// From the power of ten at least a tenth of a decade below the smallest positive value (so that the smallest bar
// still has a length), to HEADROOM of the decades spanned above the largest. Ticked at 1, 2 and 5 times each power
// of ten, or at the powers of ten alone where that would make more than 12 ticks. Values at or below 0 cannot be
// drawn on it and are left out (a whisker to a zero sample runs to the axis's foot).
export function logRange(values: readonly number[], headroom = HEADROOM.bars): AxisRange | null {
  const p = positive(values);
  if (p.length === 0) return null;
  const smallest = Math.min(...p);
  const largest = Math.max(...p);
  const min = tidy(10 ** Math.floor(Math.log10(smallest) - 0.1));
  const decades = Math.log10(largest / min);
  const max = largest * 10 ** (headroom * decades);
  const powers: number[] = [];
  for (let e = Math.round(Math.log10(min)); 10 ** e <= max; e++) powers.push(tidy(10 ** e));
  const fine = powers.flatMap((d) => [d, tidy(2 * d), tidy(5 * d)]).filter((t) => t <= max);
  return { log: true, min, max, ticks: fine.length > 12 ? powers : fine };
}

// Linear or logarithmic as the lab says (its chart descriptor's `y.log`), never as the values happen to spread: a
// lab's chart keeps its scale from one run to the next. Values at or below zero have no place on a log axis.
export function axisRange(values: readonly number[], log: boolean, kind: AxisKind): AxisRange | null {
  return log ? logRange(values, HEADROOM[kind]) : linearRange(values, HEADROOM[kind]);
}
