// Shared arithmetic of lab analyses: medians of good points, speedups, rates against peaks, and break-even sizes
// interpolated on log-log axes between measured sizes.
import { msg, n } from '../common/pure/message.ts';
import type { FormattedNumber, Message, MessageValue } from '../common/pure/message.ts';
import { agreementOf, estimateOf, ratioIsLoose, speedupRange, timeRatio, type Ratio } from '../common/pure/claims.ts';
import type { DeviceSummary } from '../common/devices.ts';
import type { Finding, FindingInterval, FindingUnit, PointResult } from '../common/run-record.ts';

export function okMedian(p: PointResult | undefined): number | null {
  return p && p.status === 'ok' && p.stats ? p.stats.median : null;
}

export function find(points: readonly PointResult[], series: string, x: number | null = null): PointResult | undefined {
  return points.find((p) => p.series === series && (x === null || p.x === x));
}

export function seriesPoints(points: readonly PointResult[], series: string): PointResult[] {
  return points.filter((p) => p.series === series && p.x !== null).sort((a, b) => (a.x ?? 0) - (b.x ?? 0));
}

// How many times faster `fast` is than `slow` (ratio of median times), or null when either did not measure.
export function speedup(slow: PointResult | undefined, fast: PointResult | undefined): number | null {
  const s = okMedian(slow);
  const f = okMedian(fast);
  return s !== null && f !== null && f > 0 ? s / f : null;
}

export interface Curve {
  x: number[];
  y: number[];
}

// The speedup of `fast` over `slow` at every size both measured.
export function speedupCurve(points: readonly PointResult[], slowSeries: string, fastSeries: string): Curve {
  const curve: Curve = { x: [], y: [] };
  for (const slow of seriesPoints(points, slowSeries)) {
    const s = speedup(slow, find(points, fastSeries, slow.x));
    if (s !== null && slow.x !== null) {
      curve.x.push(slow.x);
      curve.y.push(s);
    }
  }
  return curve;
}

export type BreakEven =
  | { kind: 'between'; size: number }
  // Already at or above the target at the smallest measured size.
  | { kind: 'below-range'; size: number }
  // Never reached; the best speedup measured and where.
  | { kind: 'never'; best: number; at: number }
  | { kind: 'no-data' };

// The smallest size where y reaches `target`: between two measured sizes x0 < x1 with y0 < target ≤ y1, log y is
// taken as linear in log x, so log x* = log x0 + (log target − log y0)/(log y1 − log y0) · (log x1 − log x0).
export function breakEven(curve: Curve, target: number): BreakEven {
  const { x, y } = curve;
  if (x.length === 0) return { kind: 'no-data' };
  if ((y[0] ?? 0) >= target) return { kind: 'below-range', size: x[0] ?? 0 };
  for (let i = 1; i < x.length; i++) {
    const y0 = y[i - 1] ?? 0;
    const y1 = y[i] ?? 0;
    const x0 = x[i - 1] ?? 1;
    const x1 = x[i] ?? 1;
    if (y0 < target && y1 >= target) {
      const t = (Math.log(target) - Math.log(y0)) / (Math.log(y1) - Math.log(y0));
      return { kind: 'between', size: Math.exp(Math.log(x0) + t * (Math.log(x1) - Math.log(x0))) };
    }
  }
  let best = 0;
  let at = x[0] ?? 0;
  y.forEach((v, i) => {
    if (v > best) {
      best = v;
      at = x[i] ?? at;
    }
  });
  return { kind: 'never', best, at };
}

// Where `gpu` becomes `target` times as fast as `cpu`, with where it can lie within the medians' uncertainty: the
// crossings of the most and the least favourable speedups (common/pure/claims.ts speedupRange), an end null where that
// curve does not cross between two measured sizes.
export interface Crossing {
  curve: Curve;
  b: BreakEven;
  low: number | null;
  high: number | null;
}

export function crossingOf(points: readonly PointResult[], cpu: string, gpu: string, target: number): Crossing {
  const curve = speedupCurve(points, cpu, gpu);
  const range = speedupRange(points, cpu, gpu);
  const earliest = breakEven(range.high, target);
  const latest = breakEven(range.low, target);
  return { curve, b: breakEven(curve, target), low: earliest.kind === 'between' ? earliest.size : null, high: latest.kind === 'between' ? latest.size : null };
}

// A break-even as a run's summary stores it: `size` only where it was found between two measured sizes; otherwise
// the bound the measurements give, never as if it were the value. Reached at the smallest size: the break-even is at
// most that size. Never reached: if it exists at all, it lies above the largest size measured.
export interface BreakEvenSummary {
  size: number | null;
  atMost: number | null;
  above: number | null;
}

export function breakEvenSummary(b: BreakEven, curve: Curve): BreakEvenSummary {
  switch (b.kind) {
    case 'between':
      return { size: b.size, atMost: null, above: null };
    case 'below-range':
      return { size: null, atMost: b.size, above: null };
    case 'never':
      return { size: null, atMost: null, above: curve.x.at(-1) ?? null };
    case 'no-data':
      return { size: null, atMost: null, above: null };
  }
}

// y at size `at`, interpolated on log-log axes between the measured sizes around it; null outside the range.
export function interpolateLogLog(curve: Curve, at: number): number | null {
  const { x, y } = curve;
  for (let i = 0; i < x.length; i++) {
    const xi = x[i] ?? 0;
    if (xi === at) return y[i] ?? null;
    if (i > 0 && (x[i - 1] ?? 0) < at && at < xi) {
      const x0 = x[i - 1] ?? 1;
      const y0 = y[i - 1] ?? 1;
      const y1 = y[i] ?? 1;
      const t = (Math.log(at) - Math.log(x0)) / (Math.log(xi) - Math.log(x0));
      return Math.exp(Math.log(y0) + t * (Math.log(y1) - Math.log(y0)));
    }
  }
  return null;
}

export function bestRate(points: readonly PointResult[], series: string, rate: 'gbps' | 'gflops'): PointResult | null {
  let best: PointResult | null = null;
  for (const p of points) {
    if (p.series !== series || p.status !== 'ok') continue;
    if ((p[rate] ?? -1) > (best?.[rate] ?? -1)) best = p;
  }
  return best;
}

// The series of `keys` the run measured, from the fastest to the slowest (DESIGN §10, "Baselines": the CPU side of a
// comparison is the fastest CPU series measured), by the geometric mean of their median times over the sizes they all
// measured; in the order given where they share none. `ratio`: the fastest one's times over the next one's there
// (below 1), where there is a next one and a size they share.
export function rankBySpeed(points: readonly PointResult[], keys: readonly string[]): { ranked: string[]; ratio: number | null } {
  // A lab of one size (matmul) has its points at x = null.
  const sizesOf = (key: string): (number | null)[] => points.filter((p) => p.series === key && okMedian(p) !== null).map((p) => p.x);
  const measured = keys.filter((key) => sizesOf(key).length > 0);
  const common = sizesOf(measured[0] ?? '').filter((x) => measured.every((key) => sizesOf(key).includes(x)));
  if (common.length === 0) return { ranked: measured, ratio: null };
  const logMean = (key: string): number => common.reduce<number>((sum, x) => sum + Math.log(okMedian(find(points, key, x)) ?? 1), 0) / common.length;
  const ranked = [...measured].sort((a, b) => logMean(a) - logMean(b));
  const [first, second] = ranked;
  return { ranked, ratio: first !== undefined && second !== undefined ? Math.exp(logMean(first) - logMean(second)) : null };
}

// The library a CPU GEMM point ran on, as its record names it: "OpenBLAS 0.3.26" out of "OpenBLAS 0.3.26 NO_LAPACKE
// DYNAMIC_ARCH … (libopenblas.so.0)" or "OpenBLAS 0.3.26 from NumPy's wheel; 16 threads, …" (host/blas-choice.ts), its
// build options and origin left out; null where the record names none.
export function blasLibrary(p: PointResult | undefined): string | null {
  const words = (p?.implementation?.split(';')[0]?.split(' from ')[0] ?? '').trim().split(/\s+/);
  const end = words.findIndex((w) => /[_=(]/.test(w));
  const name = (end < 0 ? words : words.slice(0, end)).join(' ');
  return name === '' ? null : name;
}

// GPU Lab's own CPU GEMM as a finding names it: with the library the run used where the record says which.
export function ownBlasName(p: PointResult | undefined): Message {
  const library = blasLibrary(p);
  return library === null ? msg('common.cpu.ownBlasUnnamed') : msg('common.cpu.ownBlas', { library });
}

// The CPU series a comparison reads against, named: the fastest of `keys` the run measured (marked so where there
// are others), and the others beside it.
export interface CpuSide {
  key: string;
  name: Message;
  others: { key: string; name: Message }[];
}

export function cpuSide(points: readonly PointResult[], keys: readonly string[], nameOf: (key: string) => Message): CpuSide | null {
  const [first, ...rest] = rankBySpeed(points, keys).ranked;
  if (first === undefined) return null;
  const others = rest.map((key) => ({ key, name: nameOf(key) }));
  return { key: first, name: others.length > 0 ? msg('common.cpu.fastest', { cpu: nameOf(first) }) : nameOf(first), others };
}

// A ratio of two medians as a sentence may state it: alone where the range their intervals allow stays within ±5 % of
// it, else with that range ("7.25× (6.0× to 9.9×)"), as common/pure/claims.ts ratioIsLoose decides.
export function ratioValue(r: Ratio): Message | FormattedNumber {
  return ratioIsLoose(r) ? msg('common.ratio.ranged', { ratio: n.times(r.value), low: n.times(r.low), high: n.times(r.high) }) : n.times(r.value);
}

// How many times longer `slow` takes than `fast` (a speedup), as ratioValue writes it; null where either has no time.
export function speedupValue(slow: PointResult | undefined, fast: PointResult | undefined): Message | FormattedNumber | null {
  const s = estimateOf(slow);
  const f = estimateOf(fast);
  return s && f ? ratioValue(timeRatio(f, s)) : null;
}

// A CPU point's rate against the memory bandwidth the compute host measured on this CPU (host/cpu-bandwidth.ts):
// above it, the arrays cannot all have come from main memory, and where they fit in the last-level cache, the clause
// says that is where they sat. '' at or below that bandwidth, or where it was not measured.
export function cacheClause(p: PointResult | undefined, cpu: DeviceSummary | null | undefined): Message | '' {
  const memory = cpu?.peakMemoryGBps;
  if (!p?.gbps || !cpu || cpu.details.peakMemorySource !== 'measured' || typeof memory !== 'number' || !(p.gbps > memory)) return '';
  const cache = cpu.details.l3CacheBytes;
  if (typeof cache === 'number' && cache > 0 && p.work.bytes <= cache) return msg('common.cpu.inCache', { memory: n.rate(memory, 'GB/s'), bytes: n.bytes(p.work.bytes), cache: n.bytes(cache) });
  return msg('common.cpu.aboveMemory', { memory: n.rate(memory, 'GB/s') });
}

// A finding: its sentence as a message of the labs' catalog (common/pure/i18n/*/lab-*.ts), rendered in the reader's
// language when shown, and the figure it is about with its unit's id.
export function finding(id: string, message: Message, value: number | null = null, unit: FindingUnit = 'none', tone: 'info' | 'warning' = 'info'): Finding {
  return { id, message, value, unit, tone };
}

// A finding with the interval its value can lie in (run-record.ts); unchanged where there is none to give.
export function withInterval(f: Finding, interval: FindingInterval | null): Finding {
  return interval && f.value !== null ? { ...f, interval } : f;
}

// How many times faster `fast` is than `slow` (speedup()), as far as the two medians' intervals allow: the slowest
// `slow` over the fastest `fast` at one end, the other way round at the other (claims.ts, timeRatio).
export function speedupInterval(slow: PointResult | undefined, fast: PointResult | undefined): FindingInterval | null {
  const s = estimateOf(slow);
  const f = estimateOf(fast);
  if (!s || !f) return null;
  const r = timeRatio(f, s);
  return { low: r.low, high: r.high };
}

// A point's rate (its work over its median time) over the median's interval: work ÷ the slowest time the interval
// allows, to work ÷ the fastest.
export function rateInterval(p: PointResult | undefined, rate: 'gbps' | 'gflops'): FindingInterval | null {
  const e = estimateOf(p);
  const value = p?.[rate];
  if (!e || value === null || value === undefined || e.low <= 0) return null;
  return { low: (value * e.median) / e.high, high: (value * e.median) / e.low };
}

// a ÷ b, each within its interval: the smallest a over the largest b, to the largest a over the smallest b (open where
// a side of either is).
export function quotientInterval(a: FindingInterval | null, b: FindingInterval | null): FindingInterval | null {
  if (!a || !b) return null;
  return {
    low: a.low === null || b.high === null || b.high <= 0 ? null : a.low / b.high,
    high: a.high === null || b.low === null || b.low <= 0 ? null : a.high / b.low,
  };
}

// A Python peer against GPU Lab's series that measures the same thing (NumPy's GEMM and the engine's BLAS, torch's
// and cuBLAS, their copies), as common/pure/claims.ts agreementOf judges the two intervals: agreeing within the closest margin
// the range of their ratio allows (up to `margin`, 10 % unless the lab holds the two closer), a difference wherever the
// intervals separate (in percent while the ratio stays within 0.5× to 1.5×, flagged where it reaches past the margin),
// and too noisy to say otherwise. No cause is named: the run cannot tell one.
export function agreementFinding(id: string, peer: PointResult | undefined, ours: PointResult | undefined, names: { peer: Message; ours: Message }, margin = 0.1): Finding | null {
  const ep = estimateOf(peer);
  const eo = estimateOf(ours);
  if (!ep || !eo) return null;
  const a = agreementOf(eo, ep, margin);
  const r = a.ratio;
  const values = { peer: names.peer, ours: names.ours, peerTime: n.ms(ep.median), oursTime: n.ms(eo.median), ratio: n.times(r.value), low: n.times(r.low), high: n.times(r.high) };
  const found = (key: string, extra: Record<string, MessageValue>, tone: 'info' | 'warning'): Finding => finding(id, msg(`common.peers.${key}`, { ...values, ...extra }), r.value, 'times', tone);
  switch (a.kind) {
    case 'agree':
      return found('agree', { within: n.sig(a.within * 100) }, 'info');
    case 'unclear':
      return found('unclear', { margin: n.sig(margin * 100) }, 'warning');
    case 'differ': {
      const tone = a.beyond ? 'warning' : 'info';
      if (r.low < 0.5 || r.high > 1.5) return found(a.order, {}, tone);
      const [least, most] = a.order === 'faster' ? [1 - r.high, 1 - r.low] : [r.low - 1, r.high - 1];
      const key = `${a.order === 'faster' ? 'lessTime' : 'moreTime'}${a.beyond ? '' : 'Small'}`;
      return found(key, { least: n.percent(least), most: n.percent(most) }, tone);
    }
  }
}

// A sweep's agreement: the peer series against ours at the largest size both measured, where the work and not the
// fixed costs sets the time; each named with that size (`size` formats it in the lab's unit).
export function sweepAgreement(points: readonly PointResult[], series: { peer: string; ours: string }, names: { peer: Message; ours: Message }, size: (x: number) => MessageValue, margin?: number): Finding | null {
  const ours = seriesPoints(points, series.ours).filter((p) => p.status === 'ok');
  const last = seriesPoints(points, series.peer).filter((p) => p.status === 'ok' && ours.some((o) => o.x === p.x)).at(-1);
  if (!last || last.x === null) return null;
  const at = size(last.x);
  const named = { peer: msg('common.run.point', { series: names.peer, size: at }), ours: msg('common.run.point', { series: names.ours, size: at }) };
  return agreementFinding(`${series.peer}-agreement`, last, find(points, series.ours, last.x), named, margin);
}
