// Numbers as findings and tables print them: three significant figures, SI prefixes for counts, binary prefixes
// for memory sizes, times in the unit that keeps them readable.

export function sig(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const text = value.toPrecision(digits);
  return text.includes('e') ? String(Number(text)) : String(Number(text));
}

// 2_100_000 → "2.1 M"; 45_000 → "45 k".
export function formatCount(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${sig(value / 1e9)} G`;
  if (abs >= 1e6) return `${sig(value / 1e6)} M`;
  if (abs >= 1e3) return `${sig(value / 1e3)} k`;
  return sig(value);
}

// 1024 → "1 KiB"; 1073741824 → "1 GiB".
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${sig(v)} ${units[u]}`;
}

export function formatMs(ms: number): string {
  if (ms >= 1000) return `${sig(ms / 1000)} s`;
  if (ms >= 1) return `${sig(ms)} ms`;
  if (ms >= 1e-3) return `${sig(ms * 1e3)} µs`;
  return `${sig(ms * 1e6)} ns`;
}

// A rate given in G-units: "634 GFLOP/s", "46.8 TFLOP/s", and no prefix past T ("1420 TOP/s", not "1.42 POP/s"), so
// that every rate of one chart or table reads in the same unit.
export type RateUnit = 'GB/s' | 'GFLOP/s' | 'GOP/s';
const TERA: Record<RateUnit, string> = { 'GB/s': 'TB/s', 'GFLOP/s': 'TFLOP/s', 'GOP/s': 'TOP/s' };

export function formatRate(value: number, unit: RateUnit): string {
  if (value >= 1000) return `${sig(value / 1000)} ${TERA[unit]}`;
  return `${sig(value)} ${unit}`;
}

// Whole percents, except near the ends, where rounding would hide what matters: from 99 % one decimal (99.8 % of the
// time is not 100 %), below 1 % one decimal, and "< 0.1 %" for a share that is not zero but rounds to it.
export function formatPercent(fraction: number): string {
  const pct = fraction * 100;
  const abs = Math.abs(pct);
  if (!Number.isFinite(pct)) return `${pct} %`;
  if (pct === 0) return '0 %';
  if (abs < 0.05) return `${pct < 0 ? '> −0.1' : '< 0.1'} %`;
  if (abs < 1 || (abs >= 99 && abs < 100)) return `${pct.toFixed(1)} %`;
  return `${Math.round(pct)} %`;
}

// Two significant digits (three from 10×), except near 1, where two would print "1×" for 0.96× and 1.04× alike
// and a slower series would read as a tie: there three, trailing zeros kept ("1.00×", "0.953×", "1.04×").
export function formatTimes(ratio: number): string {
  if (ratio >= 0.95 && ratio < 1.05) return `${ratio.toPrecision(3)}×`;
  return `${sig(ratio, ratio >= 10 ? 3 : 2)}×`;
}
