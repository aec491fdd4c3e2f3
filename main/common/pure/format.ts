// The one formatter of numbers and units, for the app, the CLI, the PDF and the findings alike, so that a number
// reads the same wherever it is shown. The digits come from Intl.NumberFormat in the reader's locale ("1,235 ms"
// in Spanish), the current number locale where the caller names none (locale.ts), and so do the thousands separators:
// "1,980 MHz" and "5,000,000" in English, "1980 MHz" and "5.000.000" in Spanish (which groups from five digits). One
// precision rule:
//
//   times and rates   four significant digits (trailing zeros dropped, so that a sentence reads "42.5 µs"), in the
//                     unit that keeps them readable: "1.235 ms", "46.82 TFLOP/s"
//                     (a rate from 1000 G-units reads in T-units: "1.117 TB/s", never "1117 GB/s")
//   counts, sizes     three significant digits with k/M/G (elements) or KiB/MiB/GiB (bytes): "2.1 M", "1.5 GiB"
//   percents          whole, with one decimal below 10 % and from 99 % to 100 % ("99.6 %" is not "100 %")
//   ratios            two decimals below 10× ("0.95×", "1.50×"), one to 100×, whole beyond; two significant digits
//                     below 0.1× ("0.0017×")
//   axis ticks        three significant digits, no unit
//   whole numbers     as they are, grouped: a matrix size "N = 4,096", a clock "1,980 MHz"
//   break-evens       two significant digits, whole: "N ≈ 310", "430 k elements" (an interpolated size is never
//                     known to three)
//   intervals         "±1.3 %" where the median's interval is about symmetric, else "[957.8 µs, 1.057 ms]"
import { numberLocale, type Locale } from './locale.ts';

const formats = new Map<string, Intl.NumberFormat>();

function nf(locale: Locale, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}:${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    formats.set(key, f);
  }
  return f;
}

// `digits` significant digits, trailing zeros dropped: sig(0.25) = "0.25", sig(1234.5, 4) = "1235".
export function sig(value: number, digits = 3, locale: Locale = numberLocale()): string {
  if (!Number.isFinite(value)) return '—';
  return nf(locale, { maximumSignificantDigits: digits }).format(value);
}

function fixed(value: number, decimals: number, locale: Locale): string {
  return nf(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

// A count of elements: 2 100 000 → "2.1 M", 45 000 → "45 k", 512 → "512".
export function formatCount(value: number, locale: Locale = numberLocale()): string {
  if (!Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${sig(value / 1e9, 3, locale)} G`;
  if (abs >= 1e6) return `${sig(value / 1e6, 3, locale)} M`;
  if (abs >= 1e3) return `${sig(value / 1e3, 3, locale)} k`;
  return sig(value, 3, locale);
}

const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

// 1024 → "1 KiB"; 1610612736 → "1.5 GiB"; a whole number of its unit stays whole.
export function formatBytes(bytes: number, locale: Locale = numberLocale()): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? fixed(value, 0, locale) : sig(value, 3, locale)} ${BINARY_UNITS[unit]}`;
}

export function formatMs(ms: number, locale: Locale = numberLocale()): string {
  if (!Number.isFinite(ms)) return '—';
  const abs = Math.abs(ms);
  if (abs >= 1000) return `${sig(ms / 1000, 4, locale)} s`;
  if (abs >= 1) return `${sig(ms, 4, locale)} ms`;
  if (abs >= 1e-3) return `${sig(ms * 1e3, 4, locale)} µs`;
  return `${sig(ms * 1e6, 3, locale)} ns`;
}

// int8 GEMM does integer multiply-adds: its rate is counted in OP/s, never FLOP/s.
export type RateUnit = 'GB/s' | 'GFLOP/s' | 'GOP/s';
const TERA: Record<RateUnit, string> = { 'GB/s': 'TB/s', 'GFLOP/s': 'TFLOP/s', 'GOP/s': 'TOP/s' };

// A rate given in G-units; no prefix past T ("1420 TOP/s", not "1.42 POP/s"), so that every rate of one chart or
// table reads in the same unit.
export function formatRate(value: number, unit: RateUnit, locale: Locale = numberLocale()): string {
  if (!Number.isFinite(value)) return '—';
  if (value >= 1000) return `${sig(value / 1000, 4, locale)} ${TERA[unit]}`;
  return `${sig(value, 4, locale)} ${unit}`;
}

// 0.823 → "82 %"; one decimal below 10 % and from 99 % to 100 %; "< 0.1 %" for a share that is not zero but would
// round to it.
export function formatPercent(fraction: number, locale: Locale = numberLocale()): string {
  if (!Number.isFinite(fraction)) return '—';
  const pct = fraction * 100;
  const abs = Math.abs(pct);
  if (pct === 0) return '0 %';
  if (abs < 0.1) return `${pct < 0 ? '> −' : '< '}${fixed(0.1, 1, locale)} %`;
  return abs < 10 || (abs >= 99 && abs < 100) ? `${fixed(pct, 1, locale)} %` : `${fixed(pct, 0, locale)} %`;
}

// A speedup or a ratio: "0.93×", "1.50×", "12.4×", "310×"; below 0.1 two significant digits: a GPU 600 times
// slower than the CPU at 100 elements is "0.0017×", not "0.00×".
export function formatTimes(ratio: number, locale: Locale = numberLocale()): string {
  if (!Number.isFinite(ratio)) return '—';
  if (ratio >= 100) return `${fixed(ratio, 0, locale)}×`;
  if (ratio >= 10) return `${fixed(ratio, 1, locale)}×`;
  if (ratio > 0 && ratio < 0.1) return `${sig(ratio, 2, locale)}×`;
  return `${fixed(ratio, 2, locale)}×`;
}

// An axis tick: short, no unit (the axis title carries it); from 1000 with k/M/G, so that one axis reads alike.
export function formatAxisNumber(value: number, locale: Locale = numberLocale()): string {
  if (!Number.isFinite(value)) return '';
  return Math.abs(value) >= 1e3 ? formatCount(value, locale) : sig(value, 3, locale);
}

// A time on an axis tick: the unit chosen as formatMs chooses it, three significant digits: "250 µs", "1.5 ms".
export function formatMsCompact(ms: number, locale: Locale = numberLocale()): string {
  if (!Number.isFinite(ms)) return '';
  const abs = Math.abs(ms);
  if (ms === 0) return '0';
  if (abs >= 1000) return `${sig(ms / 1000, 3, locale)} s`;
  if (abs >= 1) return `${sig(ms, 3, locale)} ms`;
  if (abs >= 1e-3) return `${sig(ms * 1e3, 3, locale)} µs`;
  return `${sig(ms * 1e6, 3, locale)} ns`;
}

// The unit beside a count, in the plural form the locale's rules pick for it: "1 run", "2 runs", "1 ejecución".
export function unitFor(p: { unit: string; unitOne?: string }, count: unknown, locale: Locale = numberLocale()): string {
  if (typeof count !== 'number' || !p.unitOne) return p.unit;
  return new Intl.PluralRules(locale).select(count) === 'one' ? p.unitOne : p.unit;
}

// A size on a sweep's x axis, in the quantity's unit: bytes in KiB/MiB/GiB, elements as 1 k / 1 M, N as a number.
export type SizeQuantity = 'bytes' | 'elements' | 'matrix-n';

export function formatSize(quantity: SizeQuantity, value: number, locale: Locale = numberLocale()): string {
  switch (quantity) {
    case 'bytes':
      return formatBytes(value, locale);
    case 'elements':
      return formatCount(value, locale);
    case 'matrix-n':
      return formatWhole(value, locale);
  }
}

// A whole number, rounded, with the language's thousands separators: a matrix size, a clock in MHz, a count of cores.
export function formatWhole(value: number, locale: Locale = numberLocale()): string {
  if (!Number.isFinite(value)) return '—';
  return fixed(Math.round(value), 0, locale);
}

// A break-even size: interpolated between two measured sizes, so two significant digits, and whole (a matrix size of
// 99.1 is no size): N ≈ 310, 430 k elements, 2.1 MiB.
export function formatBreakEven(quantity: SizeQuantity, value: number, locale: Locale = numberLocale()): string {
  if (!Number.isFinite(value)) return '—';
  const rounded = Math.max(1, Math.round(Number(value.toPrecision(2))));
  switch (quantity) {
    case 'bytes':
      return formatBytes(rounded, locale);
    case 'elements':
      return formatCount(rounded, locale);
    case 'matrix-n':
      return formatWhole(rounded, locale);
  }
}

// A median's 95 % confidence interval: "±x %" (the farther side) where its two sides are about equal, within a
// factor 1.5 of each other, or both within the ±2 % the engine samples to (too tight for their shape to matter); else
// the interval itself, "[low, high]" ("[low; high]" where the decimal sign is a comma). Never "±" at 100 % or more: a
// time cannot fall below zero, so an interval that reaches that far above it is lopsided.
export function formatInterval(median: number, low: number, high: number, format: (x: number, locale: Locale) => string = formatMs, locale: Locale = numberLocale()): string {
  if (![median, low, high].every(Number.isFinite) || !(median > 0)) return '—';
  const down = Math.max(0, (median - low) / median);
  const up = Math.max(0, (high - median) / median);
  const far = Math.max(down, up);
  const near = Math.min(down, up);
  if (far < 1 && (far <= 0.02 || far <= 1.5 * near)) return `±${formatPercent(far, locale)}`;
  const separator = fixed(1.5, 1, locale).includes(',') ? ';' : ',';
  return `[${format(low, locale)}${separator} ${format(high, locale)}]`;
}

// Scientific notation with `digits` significant digits, as toExponential writes it: "1.2e-7", "1.0e-7" with
// `keepZeros`, "1e-7" without ("1,2e-7" in Spanish).
function exponential(value: number, digits: number, keepZeros: boolean, locale: Locale): string {
  const [mantissa = '', exponent = '+0'] = value.toExponential(digits - 1).split('e');
  const m = nf(locale, { maximumSignificantDigits: digits, ...(keepZeros ? { minimumSignificantDigits: digits } : {}) }).format(Number(mantissa));
  return `${m}e${exponent}`;
}

// A relative error: "1.2e-7"; 0 is exact (int8 sums), null is a result that was not a finite number.
export function formatRelativeError(error: number | null, locale: Locale = numberLocale()): string {
  if (error === null || !Number.isFinite(error)) return '—';
  return error === 0 ? '0' : exponential(error, 2, true, locale);
}

// A tolerance as it is chosen, a power of ten with up to three significant digits: "1e-5", "3.05e-5", "1e-12".
export function formatTolerance(tolerance: number, locale: Locale = numberLocale()): string {
  if (!Number.isFinite(tolerance)) return '—';
  return tolerance === 0 ? '0' : exponential(tolerance, 3, false, locale);
}

// A finding's figure in its unit (run-record.ts, FINDING_UNITS), as its sentence writes it: a matrix size N whole.
export function formatFindingValue(value: number, unit: string, locale: Locale = numberLocale()): string {
  switch (unit) {
    case 'times':
      return formatTimes(value, locale);
    case 'GB/s':
    case 'GFLOP/s':
    case 'GOP/s':
      return formatRate(value, unit, locale);
    case 'share':
      return formatPercent(value, locale);
    case 'N':
    case 'points':
      return fixed(Math.round(value), 0, locale);
    case 'elements':
      return formatCount(value, locale);
    case 'bytes':
      return formatBytes(value, locale);
    case 'ms':
      return formatMs(value, locale);
    default:
      return sig(value, 3, locale);
  }
}
