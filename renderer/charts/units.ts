// Formats the quantities the labs report the way a reader expects them: a time in the unit that gives 3–4
// significant digits, bandwidth in GB/s (10⁹ bytes, as nvbandwidth and the vendors' datasheets count), sizes in
// binary units (KiB, MiB, GiB, as the transfer lab's sizes are powers of two). Each writes its decimal separator in
// `locale`, the current number locale where the caller names none (main/common/locale.ts): "1,5 ms" in Spanish. The
// same functions write the PDF report, where main points the number locale at the report's language.

import { localizeDecimal, numberLocale, type Locale } from '../../main/common/locale.ts';

function formatMsEn(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const abs = Math.abs(ms);
  if (abs >= 1000) return `${(ms / 1000).toPrecision(4)} s`;
  if (abs >= 1) return `${ms.toPrecision(4)} ms`;
  if (abs >= 1e-3) return `${(ms * 1e3).toPrecision(4)} µs`;
  return `${(ms * 1e6).toPrecision(3)} ns`;
}

// int8 GEMM does integer multiply-adds: its rate is counted in OP/s, never FLOP/s.
export type RateUnit = 'GB/s' | 'GFLOP/s' | 'GOP/s';
const TERA_UNITS: Record<RateUnit, string> = { 'GB/s': 'TB/s', 'GFLOP/s': 'TFLOP/s', 'GOP/s': 'TOP/s' };

function formatRateEn(value: number, unit: RateUnit): string {
  if (!Number.isFinite(value)) return '—';
  if (value >= 1000) return `${(value / 1000).toPrecision(4)} ${TERA_UNITS[unit]}`;
  return `${value.toPrecision(4)} ${unit}`;
}

const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

function formatBytesEn(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = Number.isInteger(value) ? String(value) : value.toPrecision(3);
  return `${digits} ${BINARY_UNITS[unit]}`;
}

// 0.823 → "82 %"; one decimal below 10 % and from 99 % (99.6 % of the time is not 100 %); "< 0.1 %" for a share
// that is not zero but would round to it.
function formatPercentEn(fraction: number): string {
  if (!Number.isFinite(fraction)) return '—';
  const pct = fraction * 100;
  if (pct === 0) return '0 %';
  if (Math.abs(pct) < 0.1) return '< 0.1 %';
  return Math.abs(pct) < 10 || (pct >= 99 && pct < 100) ? `${pct.toFixed(1)} %` : `${Math.round(pct)} %`;
}

// A speedup or a ratio: "0.93×", "12.4×", "310×"; two significant digits would hide 1.04× against 0.96×. Below 0.1
// two significant digits, "0.0017×": a GPU 600 times slower than the CPU at 100 elements is not "0.00×".
function formatTimesEn(ratio: number): string {
  if (!Number.isFinite(ratio)) return '—';
  if (ratio >= 100) return `${Math.round(ratio)}×`;
  if (ratio >= 10) return `${ratio.toFixed(1)}×`;
  if (ratio > 0 && ratio < 0.1) return `${Number(ratio.toPrecision(2))}×`;
  return `${ratio.toFixed(2)}×`;
}

// A count of elements: 2 100 000 → "2.1 M", 45 000 → "45 k", 512 → "512".
function formatCountEn(value: number): string {
  if (!Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  const short = (v: number): string => String(Number(v.toPrecision(3)));
  if (abs >= 1e9) return `${short(value / 1e9)} G`;
  if (abs >= 1e6) return `${short(value / 1e6)} M`;
  if (abs >= 1e3) return `${short(value / 1e3)} k`;
  return short(value);
}

// Three significant digits without trailing zeros, for axis ticks: 0.25, 12.5, 1500, 2.5e-5 → "0.000025".
function compact(value: number): string {
  return String(Number(value.toPrecision(3)));
}

// An axis tick: short, no unit (the axis title carries it); from 1000 with k/M/G, so that one axis reads alike.
function formatAxisNumberEn(value: number): string {
  if (!Number.isFinite(value)) return '';
  return Math.abs(value) >= 1e3 ? formatCountEn(value) : compact(value);
}

// A time on an axis tick: the unit chosen as formatMs chooses it, three significant digits: "250 µs", "1.5 ms", "12 s".
function formatMsCompactEn(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  const abs = Math.abs(ms);
  if (ms === 0) return '0';
  if (abs >= 1000) return `${compact(ms / 1000)} s`;
  if (abs >= 1) return `${compact(ms)} ms`;
  if (abs >= 1e-3) return `${compact(ms * 1e3)} µs`;
  return `${compact(ms * 1e6)} ns`;
}

// A size on a sweep's x axis, in the quantity's unit: bytes in KiB/MiB/GiB, elements as 1 k / 1 M, N as a number.
export type SizeQuantity = 'bytes' | 'elements' | 'matrix-n';

function formatSizeEn(quantity: SizeQuantity, value: number): string {
  switch (quantity) {
    case 'bytes':
      return formatBytesEn(value);
    case 'elements':
      return formatCountEn(value);
    case 'matrix-n':
      return compact(value);
  }
}

// A relative error: "1.2e-7"; 0 is exact (int8 sums), null is a result that was not a finite number.
function formatRelativeErrorEn(error: number | null): string {
  if (error === null) return '—';
  return error === 0 ? '0' : error.toExponential(1);
}

// A tolerance as it is chosen, a power of ten with up to three significant digits: "1e-5", "3.05e-5", "1e-12".
function formatToleranceEn(tolerance: number): string {
  if (!Number.isFinite(tolerance)) return '—';
  return tolerance === 0 ? '0' : Number(tolerance.toPrecision(3)).toExponential();
}

// The exported formatters: each above, its decimal point a comma in Spanish.
export const formatMs = (ms: number, locale: Locale = numberLocale()): string => localizeDecimal(formatMsEn(ms), locale);
export const formatRate = (value: number, unit: RateUnit, locale: Locale = numberLocale()): string => localizeDecimal(formatRateEn(value, unit), locale);
export const formatBytes = (bytes: number, locale: Locale = numberLocale()): string => localizeDecimal(formatBytesEn(bytes), locale);
export const formatPercent = (fraction: number, locale: Locale = numberLocale()): string => localizeDecimal(formatPercentEn(fraction), locale);
export const formatTimes = (ratio: number, locale: Locale = numberLocale()): string => localizeDecimal(formatTimesEn(ratio), locale);
export const formatCount = (value: number, locale: Locale = numberLocale()): string => localizeDecimal(formatCountEn(value), locale);
export const formatAxisNumber = (value: number, locale: Locale = numberLocale()): string => localizeDecimal(formatAxisNumberEn(value), locale);
export const formatMsCompact = (ms: number, locale: Locale = numberLocale()): string => localizeDecimal(formatMsCompactEn(ms), locale);
export const formatSize = (quantity: SizeQuantity, value: number, locale: Locale = numberLocale()): string =>
  localizeDecimal(formatSizeEn(quantity, value), locale);
export const formatRelativeError = (error: number | null, locale: Locale = numberLocale()): string => localizeDecimal(formatRelativeErrorEn(error), locale);
export const formatTolerance = (tolerance: number, locale: Locale = numberLocale()): string => localizeDecimal(formatToleranceEn(tolerance), locale);
