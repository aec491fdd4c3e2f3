import { describe, expect, it } from 'vitest';

import { breakEven, interpolateLogLog } from '../../../main/labs/analysis.ts';

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

  it('reads the speedup at 1 M elements between measured sizes', () => {
    expect(interpolateLogLog({ x: [1e5, 1e7], y: [1, 100] }, 1e6)).toBeCloseTo(10, 6);
    expect(interpolateLogLog({ x: [1e5, 1e7], y: [1, 100] }, 1e8)).toBeNull();
  });
});
