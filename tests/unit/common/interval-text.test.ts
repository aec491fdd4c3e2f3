// How a median's interval is printed, on generated samples: "±x %" only where the interval is about symmetric and
// never at ±100 % or beyond, and then x covers both of its sides; otherwise its two ends, "[low, high]" ("[low; high]"
// in Spanish, whose decimal sign is a comma). The results table and the noisy-points finding print it so in both
// languages.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { formatInterval, formatMs } from '../../../main/common/pure/format.ts';
import { translator } from '../../../main/common/pure/i18n/index.ts';
import type { Locale } from '../../../main/common/pure/locale.ts';
import type { PointResult } from '../../../main/common/run-record.ts';
import { summarize, type SampleStats } from '../../../main/common/pure/statistics.ts';
import { findingText } from '../../../main/labs/lab-text.ts';
import { runFindings } from '../../../main/runs/run-findings.ts';
import { resultRow } from '../../../main/common/pure/charts/result-rows.ts';
import { findLab } from '../../../main/labs/index.ts';

// Samples of a time: a body around a median and a tail of slow outliers, as a busy machine gives them.
// (Integers drawn and scaled: fast-check's doubles cluster at their bounds, and would give mostly equal samples.)
const samples = fc
  .record({
    median: fc.integer({ min: 1, max: 10_000_000 }).map((k) => k / 1000),
    spread: fc.integer({ min: 0, max: 300 }).map((k) => k / 1000),
    body: fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 6, maxLength: 60 }),
    tail: fc.array(fc.integer({ min: 0, max: 200_000 }), { maxLength: 20 }),
  })
  .map(({ median, spread, body, tail }) => [...body.map((u) => median * (1 + (spread * u) / 1000)), ...tail.map((k) => median * (1 + k / 1000))]);

// What a printed interval says, read back: the percent of "±x %" as a fraction, or the two ends' texts.
function readBack(text: string, locale: Locale): { half: number } | { low: string; high: string } {
  const pm = /^±(< )?([\d.,]+) %$/.exec(text);
  if (pm) return { half: Number((pm[2] ?? '').replace(locale === 'es' ? ',' : /,/g, locale === 'es' ? '.' : '')) / 100 };
  const range = (locale === 'es' ? /^\[(.+); (.+)\]$/ : /^\[(.+), (.+)\]$/).exec(text);
  if (!range) throw new Error(`not an interval: ${text}`);
  return { low: range[1] ?? '', high: range[2] ?? '' };
}

// A median's interval from its statistics, where it has one.
function intervalOf(s: SampleStats): { low: number; high: number } | null {
  return s.ciLow === null || s.ciLow === undefined || s.ciHigh === null || s.ciHigh === undefined ? null : { low: s.ciLow, high: s.ciHigh };
}

function checkInterval(text: string, median: number, low: number, high: number, locale: Locale): void {
  const read = readBack(text, locale);
  if ('half' in read) {
    // "±x %": below ±100 %, and x (rounded as printed) reaches both ends, less the rounding of the last digit.
    expect(read.half).toBeLessThan(1);
    const printedPrecision = read.half < 0.1 ? 0.0005 : 0.005;
    expect(median * (1 + read.half + printedPrecision)).toBeGreaterThanOrEqual(high);
    expect(median * (1 - read.half - printedPrecision)).toBeLessThanOrEqual(low);
    // About symmetric: the nearer side at least two thirds of the farther, unless both are within ±2 %.
    const down = (median - low) / median;
    const up = (high - median) / median;
    if (Math.max(down, up) > 0.02) expect(Math.min(down, up) * 1.5).toBeGreaterThanOrEqual(Math.max(down, up) - 1e-12);
  } else {
    expect(read).toEqual({ low: formatMs(low, locale), high: formatMs(high, locale) });
  }
}

describe('a median’s interval as it is printed', () => {
  it('is ±x % only where about symmetric and under ±100 %, covering both sides; else its two ends, in both languages', () => {
    fc.assert(
      fc.property(samples, (xs) => {
        const s = summarize(xs);
        const ci = intervalOf(s);
        if (!ci) return;
        for (const locale of ['en', 'es'] as const) checkInterval(formatInterval(s.median, ci.low, ci.high, formatMs, locale), s.median, ci.low, ci.high, locale);
      }),
      { numRuns: 500 },
    );
  });

  it('reads so in the results table and in the finding that names the noisiest point, in both languages', () => {
    const lab = findLab('matmul')?.descriptor;
    if (!lab) throw new Error('no matmul lab');
    fc.assert(
      fc.property(samples, (xs) => {
        const stats = summarize(xs);
        const ci = intervalOf(stats);
        if (!ci) return;
        const point = {
          key: 'cpu-blas',
          series: 'cpu-blas',
          label: 'CPU BLAS',
          x: null,
          device: 'cpu',
          status: 'ok',
          reason: null,
          error: null,
          work: { flops: 0, bytes: 0, elements: 0 },
          implementation: null,
          threads: null,
          warmup: 1,
          repeats: xs.length,
          clock: 'host',
          hostMs: xs,
          deviceMs: null,
          stats,
          gflops: null,
          gbps: null,
          verification: null,
          telemetry: null,
        } as PointResult;
        for (const locale of ['en', 'es'] as const) {
          const row = resultRow(point, lab, undefined, translator(locale));
          // The table formats in the number locale of the caller: English here.
          if (locale === 'en') checkInterval(row.interval, stats.median, ci.low, ci.high, 'en');
          const noisy = runFindings([point]).find((f) => f.id === 'noisy');
          if (!stats.noisy) continue;
          const text = noisy ? findingText(noisy, locale) : '';
          const printed = /, (±[^)]*|\[[^\]]*\])\)/.exec(text)?.[1] ?? '';
          checkInterval(printed, stats.median, ci.low, ci.high, locale);
          expect(text).not.toMatch(/±\s?\d{3,}/);
        }
      }),
      { numRuns: 300 },
    );
  });
});
