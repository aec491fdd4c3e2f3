import { describe, expect, it } from 'vitest';

import { quantile, summarize } from '../../../main/common/pure/statistics.ts';

describe('summarize', () => {
  it('gives NumPy-style linear quantiles, mean and sample standard deviation', () => {
    const s = summarize([4, 1, 3, 2]);
    expect(s.count).toBe(4);
    expect(s.median).toBe(2.5);
    expect(s.min).toBe(1);
    expect(s.max).toBe(4);
    expect(s.mean).toBe(2.5);
    // numpy.std([1, 2, 3, 4], ddof=1) = 1.2909944…
    expect(s.std).toBeCloseTo(1.2909944487358056, 12);
    // numpy.percentile([1, 2, 3, 4], [25, 75, 95]) = 1.75, 3.25, 3.85
    expect(s.q1).toBeCloseTo(1.75, 12);
    expect(s.q3).toBeCloseTo(3.25, 12);
    expect(s.p95).toBeCloseTo(3.85, 12);
    expect(s.iqr).toBeCloseTo(1.5, 12);
  });

  it('flags a series whose IQR is over 10 % of its median as noisy, and a steady one as not', () => {
    expect(summarize([10, 10.1, 9.9, 10, 10.05, 9.95]).noisy).toBe(false);
    expect(summarize([10, 12, 8, 10, 13, 7]).noisy).toBe(true);
    // Too few samples to judge.
    expect(summarize([1, 5, 9]).noisy).toBe(false);
  });

  it('handles one sample and none without inventing numbers', () => {
    const one = summarize([3.5]);
    expect([one.median, one.min, one.max, one.p95, one.std]).toEqual([3.5, 3.5, 3.5, 3.5, 0]);
    const none = summarize([]);
    expect(none.count).toBe(0);
    expect(Number.isNaN(none.median)).toBe(true);
    expect(Number.isNaN(quantile([], 0.5))).toBe(true);
  });

  it('does not reorder the caller’s samples', () => {
    const samples = [3, 1, 2];
    summarize(samples);
    expect(samples).toEqual([3, 1, 2]);
  });
});
