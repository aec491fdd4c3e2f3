// Numbers as findings and tables print them: three significant figures, SI prefixes for counts, binary prefixes
// for memory sizes, times in the unit that keeps them readable. Each writes its decimal separator in `locale`, the
// current number locale where the caller names none (locale.ts).
import { localizeDecimal, numberLocale, type Locale } from './locale.ts';

function sigEn(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  return String(Number(value.toPrecision(digits)));
}

export function sig(value: number, digits = 3, locale: Locale = numberLocale()): string {
  return localizeDecimal(sigEn(value, digits), locale);
}

// 2_100_000 → "2.1 M"; 45_000 → "45 k".
export function formatCount(value: number, locale: Locale = numberLocale()): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${sig(value / 1e9, 3, locale)} G`;
  if (abs >= 1e6) return `${sig(value / 1e6, 3, locale)} M`;
  if (abs >= 1e3) return `${sig(value / 1e3, 3, locale)} k`;
  return sig(value, 3, locale);
}

// 1024 → "1 KiB"; 1073741824 → "1 GiB".
export function formatBytes(bytes: number, locale: Locale = numberLocale()): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${sig(v, 3, locale)} ${units[u]}`;
}

export function formatMs(ms: number, locale: Locale = numberLocale()): string {
  if (ms >= 1000) return `${sig(ms / 1000, 3, locale)} s`;
  if (ms >= 1) return `${sig(ms, 3, locale)} ms`;
  if (ms >= 1e-3) return `${sig(ms * 1e3, 3, locale)} µs`;
  return `${sig(ms * 1e6, 3, locale)} ns`;
}

// A rate given in G-units: "634 GFLOP/s", "46.8 TFLOP/s", and no prefix past T ("1420 TOP/s", not "1.42 POP/s"), so
// that every rate of one chart or table reads in the same unit.
export type RateUnit = 'GB/s' | 'GFLOP/s' | 'GOP/s';
const TERA: Record<RateUnit, string> = { 'GB/s': 'TB/s', 'GFLOP/s': 'TFLOP/s', 'GOP/s': 'TOP/s' };

export function formatRate(value: number, unit: RateUnit, locale: Locale = numberLocale()): string {
  if (value >= 1000) return `${sig(value / 1000, 3, locale)} ${TERA[unit]}`;
  return `${sig(value, 3, locale)} ${unit}`;
}

// Whole percents, except near the ends, where rounding would hide what matters: from 99 % one decimal (99.8 % of the
// time is not 100 %), below 1 % one decimal, and "< 0.1 %" for a share that is not zero but rounds to it.
export function formatPercent(fraction: number, locale: Locale = numberLocale()): string {
  return localizeDecimal(percentEn(fraction), locale);
}

function percentEn(fraction: number): string {
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
export function formatTimes(ratio: number, locale: Locale = numberLocale()): string {
  if (ratio >= 0.95 && ratio < 1.05) return localizeDecimal(`${ratio.toPrecision(3)}×`, locale);
  return `${sig(ratio, ratio >= 10 ? 3 : 2, locale)}×`;
}
