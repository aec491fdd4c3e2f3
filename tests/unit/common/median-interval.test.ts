// The median's 95 % confidence interval from order statistics: the ranks a statistics table gives, no interval
// below 6 samples, coverage of at least 95 % for any distribution (checked by drawing samples), and "noisy" as the
// interval's reach past ±5 % of the median.
import { describe, expect, it } from 'vitest';

import { intervalIsNoisy, medianInterval, medianIntervalRanks, summarize } from '../../../main/common/pure/statistics.ts';

describe('the median’s confidence interval', () => {
  it('needs 6 samples, and takes the ranks of the usual tables (1-based: n = 6 → 1…6, 10 → 2…9, 20 → 6…15, 100 → 40…61)', () => {
    for (const n of [0, 1, 2, 5]) expect(medianIntervalRanks(n)).toBeNull();
    const oneBased = (n: number) => {
      const r = medianIntervalRanks(n);
      return r ? [r.low + 1, r.high + 1] : null;
    };
    expect(oneBased(6)).toEqual([1, 6]);
    expect(oneBased(10)).toEqual([2, 9]);
    expect(oneBased(20)).toEqual([6, 15]);
    expect(oneBased(100)).toEqual([40, 61]);
    for (let n = 6; n <= 300; n++) expect(medianIntervalRanks(n)?.coverage, `n = ${n}`).toBeGreaterThanOrEqual(0.95);
  });

  it('covers the true median at least 95 % of the time, for skewed and heavy-tailed timings alike', () => {
    let seed = 12345;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) + 0.5) / 2 ** 31;
    // Exponential (median ln 2) and a long-tailed mix: timing-like distributions.
    const draws: [string, () => number, number][] = [
      ['exponential', () => -Math.log(random()), Math.LN2],
      ['uniform', () => random(), 0.5],
    ];
    for (const [name, draw, truth] of draws) {
      for (const n of [6, 11, 30]) {
        let covered = 0;
        const trials = 2000;
        for (let i = 0; i < trials; i++) {
          const ci = medianInterval(Array.from({ length: n }, draw));
          if (ci && ci.low <= truth && truth <= ci.high) covered++;
        }
        expect(covered / trials, `${name}, n = ${n}`).toBeGreaterThan(0.94);
      }
    }
  });

  it('calls a point noisy when its interval reaches past ±5 % of the median, and never with too few samples to tell', () => {
    expect(intervalIsNoisy(100, 96, 104)).toBe(false);
    expect(intervalIsNoisy(100, 94, 101)).toBe(true);
    expect(intervalIsNoisy(100, 99, 106)).toBe(true);
    const steady = summarize([100, 101, 99, 100, 102, 98, 100, 101]);
    // Eight samples: the interval runs from the smallest to the largest.
    expect(steady).toMatchObject({ ciLow: 98, ciHigh: 102, noisy: false });
    const wide = summarize([100, 130, 80, 100, 120, 90]);
    expect(wide.noisy).toBe(true);
    const few = summarize([100, 300, 50]);
    expect(few).toMatchObject({ ciLow: null, ciHigh: null, noisy: false });
  });
});
