import { describe, expect, it } from 'vitest';

import { sampleIndices, verifyElementwise, verifyGemm } from '../../../main/host/verify.ts';
import { createHostBuffer, gemmTolerance, verify } from '../../../native/index.ts';

describe('verification', () => {
  it('passes a right GEMM without listing near-zero entries as mismatches', () => {
    // Entries of A·B with signed random inputs straddle zero; a per-entry relative test would flag them.
    const n = 64;
    const a = createHostBuffer('fp32', n * n).fillRandom(11, { low: -1, high: 1 });
    const b = createHostBuffer('fp32', n * n).fillRandom(12, { low: -1, high: 1 });
    const av = a.toFloat64();
    const bv = b.toFloat64();
    const c = createHostBuffer('fp32', n * n);
    const cv = new Float32Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let p = 0; p < n; p++) s += (av[i * n + p] ?? 0) * (bv[p * n + j] ?? 0);
        cv[i * n + j] = s;
      }
    }
    c.write(cv);
    const v = verifyGemm(a, b, c, n, n, n, gemmTolerance('fp32', n));
    expect(v.passed).toBe(true);
    expect(v.mismatches).toEqual([]);
    expect(v.method).toBe('sampled');
    // One wrong entry inside the sampled grid fails it and is named.
    const [row = 0] = sampleIndices(n, 8, 7);
    const [col = 0] = sampleIndices(n, 8, 11);
    c.write(new Float32Array([(cv[row * n + col] ?? 0) + 5]), row * n + col);
    const bad = verifyGemm(a, b, c, n, n, n, gemmTolerance('fp32', n));
    expect(bad.passed).toBe(false);
    expect(bad.mismatches[0]?.index).toBe(row * n + col);
  });

  it('never passes NaN, and catches an unwritten (poisoned) element', () => {
    expect(verify([1, Number.NaN], [1, 2], 1e-5).passed).toBe(false);
    const x = createHostBuffer('fp32', 100).fillRandom(1);
    const out = createHostBuffer('fp32', 100);
    out.write(x.read() as Float32Array);
    out.write(new Float32Array([-1e6]), 42);
    const v = verifyElementwise(out, [x], ([value = Number.NaN]) => value, 0);
    expect(v.passed).toBe(false);
    expect(v.mismatches.map((m) => m.index)).toEqual([42]);
  });
});
