// The sampled checks read what they judge in as few copies as the cost of one makes worth it (on the GPU each copy is
// a synchronous transfer of its own): the same values as element-by-element reads, in spans where the sampled
// elements lie close together, the scattered ones gathered in one call where the array gathers.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';

import { ELEMENTWISE_TOLERANCE, readAt, sampleIndices, verifyElementwise, verifyGemm } from '../../../main/host/verify.ts';
import { MAX_GATHERED_ELEMENTS, createHostBuffer, gemmTolerance } from '../../../native/index.ts';
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

  it('gives each index its element read in spans alone, where the array does not gather (a peer\'s sampled output)', () => {
    const buffers = (['fp32', 'bf16', 'int8'] as DType[]).map((d) => createHostBuffer(d, 20_000).fillRandom(9));
    fc.assert(
      fc.property(fc.constantFrom(...buffers), fc.array(fc.integer({ min: 0, max: 19_999 }), { maxLength: 300 }), (b, indices) => {
        const spansOnly = { length: b.length, toFloat64: (start?: number, count?: number) => b.toFloat64(start, count) };
        expect(Array.from(readAt(spansOnly, indices))).toEqual(indices.map((i) => b.toFloat64(i, 1)[0]));
      }),
    );
  });

  it('gathers scattered samples of a device buffer in one call, and reads a dense run of them as a span', () => {
    // 10⁸ elements on the "device", each worth its index and a half: reads cost nothing here but are counted.
    const n = 100_000_000;
    const value = (i: number): number => i + 0.5;
    const device = {
      length: n,
      location: 'device' as const,
      toFloat64: vi.fn((start = 0, count = n - start) => Float64Array.from({ length: count }, (_, i) => value(start + i))),
      toFloat64At: vi.fn((indices: ArrayLike<number>) => Float64Array.from(indices, value)),
    };
    const samples = sampleIndices(n, 4096);
    expect(Array.from(readAt(device, samples))).toEqual(samples.map(value));
    // 4096 samples 24 000 elements apart on average: each a synchronous copy of its own read one by one.
    expect(device.toFloat64At).toHaveBeenCalledTimes(1);
    expect(device.toFloat64).not.toHaveBeenCalled();
    device.toFloat64At.mockClear();
    // A GEMM's row of 50 000 entries read whole, beside two scattered ones.
    const row = Array.from({ length: 50_000 }, (_, i) => 7_000_000 + i);
    const mixed = [90_000_000, ...row, 3];
    expect(Array.from(readAt(device, mixed))).toEqual(mixed.map(value));
    expect(device.toFloat64).toHaveBeenCalledTimes(1);
    expect(device.toFloat64).toHaveBeenCalledWith(7_000_000, 50_000);
    expect(device.toFloat64At).toHaveBeenCalledTimes(1);
    expect(Array.from(device.toFloat64At.mock.calls[0]?.[0] ?? [])).toEqual([3, 90_000_000]);
  });

  it('gathers more samples than one call takes in several, each within the bound', () => {
    const n = 2 ** 40;
    const device = {
      length: n,
      location: 'device' as const,
      toFloat64: vi.fn((start = 0, count = 1) => Float64Array.from({ length: count }, (_, i) => start + i)),
      toFloat64At: vi.fn((indices: ArrayLike<number>) => Float64Array.from(indices)),
    };
    const samples = Array.from({ length: MAX_GATHERED_ELEMENTS + 10 }, (_, i) => i * 1_000_003);
    expect(Array.from(readAt(device, samples))).toEqual(samples);
    expect(device.toFloat64At.mock.calls.map(([indices]) => indices.length)).toEqual([MAX_GATHERED_ELEMENTS, 10]);
    expect(device.toFloat64).not.toHaveBeenCalled();
  });

  it('reads a GEMM check\'s columns of B in a call or two, not one copy per element', () => {
    const n = 256;
    const a = createHostBuffer('fp32', n * n).fillRandom(1, { low: -1, high: 1 });
    const b = createHostBuffer('fp32', n * n).fillRandom(2, { low: -1, high: 1 });
    const c = createHostBuffer('fp32', n * n).fillRandom(3, { low: -1, high: 1 });
    const spans = vi.spyOn(b, 'toFloat64');
    const gathers = vi.spyOn(b, 'toFloat64At');
    const v = verifyGemm(a, b, c, n, n, n, gemmTolerance('fp32', n));
    // Random C is wrong: the check still judges it, on the values read.
    expect(v.passed).toBe(false);
    expect(v.checked).toBe(64);
    expect(spans.mock.calls.length + gathers.mock.calls.length).toBeLessThanOrEqual(2);
  });

  it('reads a sampled elementwise check in a few calls, and still catches a wrong element', () => {
    const n = (1 << 20) + 4096;
    const x = createHostBuffer('fp32', n).fillRandom(4);
    const out = createHostBuffer('fp32', n);
    out.write(x.read() as Float32Array);
    const spans = vi.spyOn(out, 'toFloat64');
    const gathers = vi.spyOn(out, 'toFloat64At');
    const ok = verifyElementwise(out, [x], ([v = Number.NaN]) => v, ELEMENTWISE_TOLERANCE.fp32);
    expect(ok).toMatchObject({ passed: true, method: 'sampled', checked: 4096 });
    // 4096 samples a KiB apart on average: gathered, not read a span or an element at a time.
    expect(spans.mock.calls.length + gathers.mock.calls.length).toBeLessThanOrEqual(2);
    // The last element is always among the samples.
    out.write(new Float32Array([5]), n - 1);
    const bad = verifyElementwise(out, [x], ([v = Number.NaN]) => v, ELEMENTWISE_TOLERANCE.fp32);
    expect(bad.passed).toBe(false);
    expect(bad.mismatches.map((m) => m.index)).toContain(n - 1);
  });
});
