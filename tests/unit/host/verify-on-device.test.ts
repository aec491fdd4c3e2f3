// A check made on the GPU read as the run's verification: the device's counts as the three counts every reader says,
// and the first wrong elements listed from the window it sent back (with their row and column in a matrix), never
// more than ten, never one the device judged right. Generated answers (fast-check) as well as one by hand.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { deviceVerification } from '../../../main/host/verify-on-device.ts';
import type { DeviceCheckResult } from '../../../native/verify-output.ts';
import { verdictSentences } from '../../../main/common/pure/verification-verdict.ts';

const words = { method: 'every element, on the GPU', tolerance: 'exact', check: 'every-element', relativeTolerance: 0, cols: 100 } as const;

function answer(total: number, start: number, bad: number[], unwritten: number[] = []): DeviceCheckResult {
  const n = 64;
  return {
    total,
    wrong: bad.length,
    unwritten: unwritten.length,
    firstBad: bad.length ? start : -1,
    maxRelativeError: bad.length ? null : 0,
    rms: 1,
    window: {
      start,
      got: Float64Array.from({ length: n }, (_, j) => (unwritten.includes(j) ? Number.NaN : j)),
      expected: Float64Array.from({ length: n }, (_, j) => j + (bad.includes(j) ? 0.5 : 0)),
      bad: Uint8Array.from({ length: n }, (_, j) => (bad.includes(j) ? 1 : 0)),
      unwritten: Uint8Array.from({ length: n }, (_, j) => (unwritten.includes(j) ? 1 : 0)),
    },
  };
}

describe('a check made on the GPU, as a verification', () => {
  it('a clean output: every element checked, nothing listed, passed', () => {
    const v = deviceVerification({ total: 4096, wrong: 0, unwritten: 0, firstBad: -1, maxRelativeError: 3e-8, rms: 1, window: { start: 0, got: new Float64Array(), expected: new Float64Array(), bad: new Uint8Array(), unwritten: new Uint8Array() } }, words);
    expect(v).toMatchObject({ ok: true, checked: 4096, total: 4096, mismatchCount: 0, neverWritten: 0, mismatches: [], maxRelativeError: 3e-8, check: 'every-element', samples: null });
    expect(verdictSentences(v).map((s) => s.key)).toEqual(['passed']);
  });

  it('the wrong ones of the window listed with their place in the matrix, a never-written one as such', () => {
    const v = deviceVerification(answer(10_000, 250, [0, 3], [3]), words);
    expect(v.ok).toBe(false);
    expect(v.mismatches).toEqual([
      { index: 250, row: 2, col: 50, got: 0, expected: 0.5, unwritten: false },
      { index: 253, row: 2, col: 53, got: null, expected: 3.5, unwritten: true },
    ]);
    expect(verdictSentences(v).map((s) => s.key)).toEqual(['wrong', 'unwritten']);
  });

  it('for any answer: counts carried over, at most ten listed, each one the device judged wrong, in index order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 64, max: 1e9 }), fc.uniqueArray(fc.integer({ min: 0, max: 63 }), { maxLength: 40 }), (total, bad) => {
        const start = Math.min(total - 64, 1000);
        const v = deviceVerification(answer(total, start, [...bad].sort((x, y) => x - y)), { ...words, cols: null });
        expect(v.mismatchCount).toBe(bad.length);
        expect(v.checked).toBe(total);
        expect(v.ok).toBe(bad.length === 0);
        expect(v.mismatches.length).toBe(Math.min(10, bad.length));
        expect(v.mismatches.every((m) => bad.includes(m.index - start) && m.row === null)).toBe(true);
        expect(v.mismatches.map((m) => m.index)).toEqual([...v.mismatches.map((m) => m.index)].sort((x, y) => x - y));
      }),
    );
  });
});
