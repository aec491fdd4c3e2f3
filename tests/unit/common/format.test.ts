import { describe, expect, it } from 'vitest';

import { formatBreakEven, formatPercent, formatRate, formatSize, formatTimes, formatWhole } from '../../../main/common/pure/format.ts';
import { setNumberLocale } from '../../../main/common/pure/locale.ts';
import { inReportLocale } from '../../../main/reports/report-locale.ts';

describe('percentages', () => {
  it.each([
    // 15.5 ms with copies, 31.8 µs resident: copies are 99.8 % of the time, which must not read as all of it.
    [(15.5 - 0.0318) / 15.5, '99.8 %'],
    [0.99, '99.0 %'],
    [0.9899, '99 %'],
    [0.87, '87 %'],
    [0.527, '53 %'],
    // Below 10 %, one decimal: the 7.6 % of a table is not the 8 % of a sentence.
    [0.084, '8.4 %'],
    [0.01, '1.0 %'],
    [0.0046, '0.5 %'],
    [0.0001, '< 0.1 %'],
    [0, '0 %'],
    [1, '100 %'],
    [1.5, '150 %'],
  ])('%f prints as %s', (fraction, text) => {
    expect(formatPercent(fraction)).toBe(text);
  });
});

describe('rates', () => {
  it('keeps tera as the largest prefix, so int8 on an H200 reads 1,417 TOP/s beside 749 TFLOP/s, to four digits each', () => {
    expect(formatRate(1_416_900, 'GOP/s')).toBe('1,417 TOP/s');
    // Spanish groups from five digits, with a point: 1417, 12.350.
    expect(formatRate(1_416_900, 'GOP/s', 'es')).toBe('1417 TOP/s');
    expect(formatRate(12_345_000, 'GOP/s', 'es')).toBe('12.350 TOP/s');
    expect(formatRate(749_000, 'GFLOP/s')).toBe('749 TFLOP/s');
    expect(formatRate(634, 'GFLOP/s')).toBe('634 GFLOP/s');
    // From 1000 G-units the rate reads in T-units: 1 TB/s, never 1 k GB/s.
    expect(formatRate(4210, 'GB/s')).toBe('4.21 TB/s');
    expect(formatRate(1000, 'GB/s')).toBe('1 TB/s');
  });

  it('gives a ratio below 10× two decimals, so that slower, level and faster read apart', () => {
    expect([0.953, 1, 1.04, 0.94, 1.06, 5.43, 48.61, 310.4, 0.0017].map((r) => formatTimes(r))).toEqual(['0.95×', '1.00×', '1.04×', '0.94×', '1.06×', '5.43×', '48.6×', '310×', '0.0017×']);
  });
});

describe('the number locale', () => {
  it('follows the process setting outside a report, also after a report has been written', () => {
    const rate = formatRate;
    try {
      expect(inReportLocale('es', () => rate(1083, 'GFLOP/s'))).toBe('1,083 TFLOP/s');
      setNumberLocale('es');
      expect(rate(2970, 'GB/s')).toBe('2,97 TB/s');
      expect(inReportLocale('en', () => rate(2970, 'GB/s'))).toBe('2.97 TB/s');
      setNumberLocale('en');
      expect(rate(2970, 'GB/s')).toBe('2.97 TB/s');
    } finally {
      setNumberLocale('en');
    }
  });
});

describe('whole numbers and break-evens', () => {
  it('groups thousands as each language does, the same for a clock, a size and a count', () => {
    expect([formatWhole(1980, 'en'), formatWhole(1980, 'es'), formatWhole(5_000_000, 'en'), formatWhole(5_000_000, 'es')]).toEqual(['1,980', '1980', '5,000,000', '5.000.000']);
    // A matrix size is whole: never "N = 99.1", never rounded to three digits ("4100" for 4096).
    expect([formatSize('matrix-n', 4096, 'en'), formatSize('matrix-n', 99.07, 'en')]).toEqual(['4,096', '99']);
  });

  it('writes an interpolated break-even to two significant digits, whole', () => {
    expect([306.2, 99.07, 1234, 9.5].map((n) => formatBreakEven('matrix-n', n, 'en'))).toEqual(['310', '99', '1,200', '10']);
    expect([426_400, 7450, 1_570_000].map((n) => formatBreakEven('elements', n, 'en'))).toEqual(['430 k', '7.5 k', '1.6 M']);
    expect(formatBreakEven('elements', 7450, 'es')).toBe('7,5 k');
  });
});
