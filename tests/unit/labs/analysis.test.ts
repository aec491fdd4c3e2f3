import { describe, expect, it } from 'vitest';

import { breakEven, breakEvenSummary, interpolateLogLog } from '../../../main/labs/analysis.ts';

describe('break-even interpolation', () => {
  it('interpolates log-log between the two sizes around the target', () => {
    // Speedup 1 at 10⁵ and 4 at 10⁷: on log-log axes 2 lies halfway, at 10⁶.
    const b = breakEven({ x: [1e3, 1e5, 1e7], y: [0.1, 1, 4] }, 2);
    expect(b.kind).toBe('between');
    if (b.kind === 'between') expect(b.size).toBeCloseTo(1e6, -2);
  });

  it('says when the target is reached at the smallest size or never', () => {
    expect(breakEven({ x: [100, 1000], y: [3, 5] }, 2)).toEqual({ kind: 'below-range', size: 100 });
    expect(breakEven({ x: [100, 1000, 10000], y: [0.2, 1.5, 0.9] }, 2)).toEqual({ kind: 'never', best: 1.5, at: 1000 });
    expect(breakEven({ x: [], y: [] }, 2)).toEqual({ kind: 'no-data' });
  });

  it('stores a break-even outside the measured range as a bound, never as the value', () => {
    const between = { x: [1e3, 1e5, 1e7], y: [0.1, 1, 4] };
    expect(breakEvenSummary(breakEven(between, 2), between).size).toBeCloseTo(1e6, -2);
    // 3× at 100 elements already: the 2× size is somewhere at or below 100, not 100.
    const below = { x: [100, 1000], y: [3, 5] };
    expect(breakEvenSummary(breakEven(below, 2), below)).toEqual({ size: null, atMost: 100, above: null });
    // Never 2×: if there is a 2× size, it is beyond 10 000.
    const never = { x: [100, 1000, 10000], y: [0.2, 1.5, 0.9] };
    expect(breakEvenSummary(breakEven(never, 2), never)).toEqual({ size: null, atMost: null, above: 10000 });
    const none = { x: [], y: [] };
    expect(breakEvenSummary(breakEven(none, 2), none)).toEqual({ size: null, atMost: null, above: null });
  });

  it('reads the speedup at 1 M elements between measured sizes', () => {
    expect(interpolateLogLog({ x: [1e5, 1e7], y: [1, 100] }, 1e6)).toBeCloseTo(10, 6);
    expect(interpolateLogLog({ x: [1e5, 1e7], y: [1, 100] }, 1e8)).toBeNull();
  });
});
