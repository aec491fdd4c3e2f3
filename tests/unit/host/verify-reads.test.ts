// The sampled checks read what they judge in as few copies as the cost of one makes worth it (on the GPU each copy is
// a synchronous transfer of its own): the same values as element-by-element reads, in spans where the sampled
// elements lie close together.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';

import { ELEMENTWISE_TOLERANCE, readAt, verifyElementwise, verifyGemm } from '../../../main/host/verify.ts';
import { createHostBuffer, gemmTolerance } from '../../../native/index.ts';
import type { DType } from '../../../native/index.ts';

describe('reading the sampled elements', () => {
  it('gives each index its element, in any order and with repeats, for every type', () => {
    const buffers = (['fp64', 'fp32', 'fp16', 'bf16', 'int8'] as DType[]).map((d) => createHostBuffer(d, 20_000).fillRandom(7));
    fc.assert(
      fc.property(fc.constantFrom(...buffers), fc.array(fc.integer({ min: 0, max: 19_999 }), { maxLength: 300 }), (b, indices) => {
        const got = readAt(b, indices);
        expect(Array.from(got)).toEqual(indices.map((i) => b.toFloat64(i, 1)[0]));
      }),
    );
  });

  it('reads a GEMM check\'s columns of B in a few spans, not one copy per element', () => {
    const n = 256;
    const a = createHostBuffer('fp32', n * n).fillRandom(1, { low: -1, high: 1 });
    const b = createHostBuffer('fp32', n * n).fillRandom(2, { low: -1, high: 1 });
    const c = createHostBuffer('fp32', n * n).fillRandom(3, { low: -1, high: 1 });
    const reads = vi.spyOn(b, 'toFloat64');
    const v = verifyGemm(a, b, c, n, n, n, gemmTolerance('fp32', n));
    // Random C is wrong: the check still judges it, on the values read.
    expect(v.passed).toBe(false);
    expect(v.checked).toBe(64);
    expect(reads.mock.calls.length).toBeLessThanOrEqual(2);
  });

  it('reads a sampled elementwise check in spans where its samples lie close, and still catches a wrong element', () => {
    const n = (1 << 20) + 4096;
    const x = createHostBuffer('fp32', n).fillRandom(4);
    const out = createHostBuffer('fp32', n);
    out.write(x.read() as Float32Array);
    const reads = vi.spyOn(out, 'toFloat64');
    const ok = verifyElementwise(out, [x], ([v = Number.NaN]) => v, ELEMENTWISE_TOLERANCE.fp32);
    expect(ok).toMatchObject({ passed: true, method: 'sampled', checked: 4096 });
    // 4096 samples a quarter of a KiB apart on average: most within one read of the one before.
    expect(reads.mock.calls.length).toBeLessThan(1024);
    // The last element is always among the samples.
    out.write(new Float32Array([5]), n - 1);
    const bad = verifyElementwise(out, [x], ([v = Number.NaN]) => v, ELEMENTWISE_TOLERANCE.fp32);
    expect(bad.passed).toBe(false);
    expect(bad.mismatches.map((m) => m.index)).toContain(n - 1);
  });
});
