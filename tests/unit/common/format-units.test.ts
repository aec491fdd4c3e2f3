// The renderer's number formats added for charts: sizes in their quantity's unit, compact axis ticks, integer-op
// rates, relative errors; in Spanish with a decimal comma, given or from the app's number locale.
import { afterEach, describe, expect, it } from 'vitest';

import { setNumberLocale } from '../../../main/common/pure/locale.ts';
import {
  formatAxisNumber,
  formatBytes,
  formatMs,
  formatMsCompact,
  formatPercent,
  formatRate,
  formatRelativeError,
  formatSize,
  formatTimes,
  formatTolerance,
  unitFor,
} from '../../../main/common/pure/format.ts';

describe('chart units', () => {
  it('writes sizes in the unit of their quantity', () => {
    expect(formatSize('bytes', 1024)).toBe('1 KiB');
    expect(formatSize('bytes', 256 * 1024 * 1024)).toBe('256 MiB');
    expect(formatSize('elements', 1_000_000)).toBe('1 M');
    expect(formatSize('elements', 135_526.39)).toBe('136 k');
    expect(formatSize('matrix-n', 331.98)).toBe('332');
  });

  it('keeps axis ticks short and alike', () => {
    expect([0.01, 0.5, 12.5, 999, 1000, 50_000].map((v) => formatAxisNumber(v))).toEqual(['0.01', '0.5', '12.5', '999', '1 k', '50 k']);
    expect([0.0118, 0.342, 16.3, 115, 6860].map((v) => formatMsCompact(v))).toEqual(['11.8 µs', '342 µs', '16.3 ms', '115 ms', '6.86 s']);
  });

  it('keeps two significant digits for ratios far below 1, and the old form elsewhere', () => {
    expect([0.0017, 0.0546, 0.24, 1.66, 48.57, 310.2].map((v) => formatTimes(v))).toEqual(['0.0017×', '0.055×', '0.24×', '1.66×', '48.6×', '310×']);
  });

  it('counts int8 in operations per second and writes relative errors in exponent form', () => {
    expect(formatRate(1_374_169.6, 'GOP/s')).toBe('1,374 TOP/s');
    expect(formatRate(47_094.5, 'GFLOP/s')).toBe('47.09 TFLOP/s');
    expect([1.7191e-6, 0, null].map((v) => formatRelativeError(v))).toEqual(['1.7e-6', '0', '—']);
  });

  it('writes a tolerance as a power of ten with up to three significant digits', () => {
    expect([1e-5, 2 ** -15, 1e-12, 0].map((v) => formatTolerance(v))).toEqual(['1e-5', '3.05e-5', '1e-12', '0']);
  });
});

describe('chart units in Spanish', () => {
  afterEach(() => setNumberLocale('en'));

  it('writes the decimal comma where the locale is given', () => {
    expect(formatRate(1080.4, 'GFLOP/s', 'es')).toBe('1,08 TFLOP/s');
    expect(formatRate(2970, 'GB/s', 'es')).toBe('2,97 TB/s');
    expect(formatMs(0.0812, 'es')).toBe('81,2 µs');
    expect(formatTimes(4.8, 'es')).toBe('4,80×');
    expect(formatPercent(0.055, 'es')).toBe('5,5 %');
    expect(formatBytes(1536, 'es')).toBe('1,5 KiB');
    expect(formatSize('elements', 1_500_000, 'es')).toBe('1,5 M');
    expect(formatRelativeError(1.7191e-6, 'es')).toBe('1,7e-6');
    expect(formatTolerance(2 ** -15, 'es')).toBe('3,05e-5');
  });

  it('follows the app’s number locale, as the language switch sets it, and keeps whole numbers as they are', () => {
    setNumberLocale('es');
    expect([0.5, 12.5, 1000, 2500].map((v) => formatAxisNumber(v))).toEqual(['0,5', '12,5', '1 k', '2,5 k']);
    expect(formatMsCompact(1.5)).toBe('1,5 ms');
    expect(formatSize('matrix-n', 5000)).toBe('5000');
    setNumberLocale('en');
    expect(formatMsCompact(1.5)).toBe('1.5 ms');
  });
});

describe('units beside a count', () => {
  it('take the form the locale’s plural rules pick: 1 run, 2 runs, 1 ejecución, 0 ejecuciones', () => {
    const runs = { unit: 'runs', unitOne: 'run' };
    expect([1, 2, 0].map((n) => unitFor(runs, n, 'en'))).toEqual(['run', 'runs', 'runs']);
    const es = { unit: 'ejecuciones', unitOne: 'ejecución' };
    expect([1, 2, 0, 1.5].map((n) => unitFor(es, n, 'es'))).toEqual(['ejecución', 'ejecuciones', 'ejecuciones', 'ejecuciones']);
    // A list, or a unit with one form, stays as it is.
    expect(unitFor(runs, [1], 'en')).toBe('runs');
    expect(unitFor({ unit: 'log10 elements' }, 1, 'en')).toBe('log10 elements');
  });
});
