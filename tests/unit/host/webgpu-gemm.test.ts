// The WGSL GEMM on this machine's real adapter (lavapipe through Vulkan, or Dawn's OpenGL ES backend; the suite's
// title names it): the naive and tiled kernels, resident and with the copies, in f32 and (where the adapter has
// shader-f16) in f16, each checked against the float64 reference on a grid of sampled entries with the dtype's
// tolerance, as on CUDA; a product too large for one storage binding bound in bands and still right; cuBLAS and the
// types WGSL lacks refused by name. The bands themselves: fast-check over sizes, alignments and limits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { LIMITS, MEASUREMENT } from '../../../main/common/measurement.ts';
import type { MeasurementInput } from '../../../main/common/measurement.ts';
import { adapterName } from '../../../main/common/webgpu-adapters.ts';
import { measure } from '../../../main/host/ops/index.ts';
import { webgpuAdapters } from '../../../main/host/webgpu/dawn.ts';
import { gemmBands } from '../../../main/host/webgpu/gemm.ts';

const search = await webgpuAdapters();
const adapter = search.adapters[0];
const f16 = adapter?.features.includes('shader-f16') === true;
const ctx = { signal: new AbortController().signal, onProgress: (): void => undefined };
const run = (m: Record<string, unknown>): ReturnType<typeof measure> => measure(MEASUREMENT.parse({ device: 'webgpu:0', op: 'gemm', warmup: 1, repeats: 2, seed: 7, budgetSeconds: 0.2, ...m } as MeasurementInput), ctx);

describe(`the WGSL GEMM on ${adapter ? `${adapterName(adapter.facts)} through ${adapter.backend}` : 'no adapter'}`, () => {
  // Sizes that are not multiples of a tile (64) or a workgroup's edge (16): the edges of C must be written too.
  it.each([
    ['naive', 'fp32', 'resident'],
    ['tiled', 'fp32', 'resident'],
    ['naive', 'fp32', 'with-copies'],
    ['tiled', 'fp32', 'with-copies'],
    ['naive', 'fp16', 'resident'],
    ['tiled', 'fp16', 'resident'],
    ['tiled', 'fp16', 'with-copies'],
  ])('%s, %s, %s: C of 70×67 with K = 83 within the tolerance of the float64 reference', async (variant, dtype, path) => {
    if (dtype === 'fp16' && !f16) return;
    const r = await run({ variant, dtype, path, m: 70, n: 67, k: 83 });
    expect(r.verification).toMatchObject({ passed: true, total: 70 * 67 });
    expect(r.verification?.checked).toBe(64);
    expect(r.implementation).toContain(`WGSL ${variant}${dtype === 'fp16' ? ' in f16' : ''} (shaders/wgsl/gemm.wgsl)`);
    // The f16 product is f16's: its error is that of f16 inputs and output, far above f32's.
    if (dtype === 'fp16') expect(r.verification?.relativeError).toBeGreaterThan(1e-5);
    else expect(r.verification?.relativeError).toBeLessThan(1e-5);
  });

  it('binds A and C in bands of rows where they exceed maxStorageBufferBindingSize, and the product is still right', async () => {
    const limit = adapter?.limits.maxStorageBufferBindingSize ?? 0;
    // A of LIMITS.matrixOrder rows (the most a matrix has), just over the limit.
    const k = Math.ceil((limit * 1.05) / (LIMITS.matrixOrder * 4));
    expect(k).toBeLessThanOrEqual(LIMITS.matrixOrder);
    const r = await run({ variant: 'naive', dtype: 'fp32', m: LIMITS.matrixOrder, n: 16, k, warmup: 0, repeats: 1, cold: true });
    expect(r.implementation).toMatch(/, A and C bound in 2 bands of rows(,|$)/);
    expect(r.verification).toMatchObject({ passed: true });
  }, 120_000);

  it('binds B in bands of K where it exceeds the limit, the later bands adding to C', async () => {
    const limit = adapter?.limits.maxStorageBufferBindingSize ?? 0;
    const n = Math.ceil((limit * 1.05) / (LIMITS.matrixOrder * 4));
    expect(n).toBeLessThanOrEqual(LIMITS.matrixOrder);
    const r = await run({ variant: 'naive', dtype: 'fp32', m: 16, n, k: LIMITS.matrixOrder, warmup: 0, repeats: 1, cold: true });
    expect(r.implementation).toMatch(/, B in 2 bands of rows \(K\)(,|$)/);
    expect(r.verification).toMatchObject({ passed: true });
  }, 120_000);

  it('makes a cold measurement’s pipeline anew and counts its making in the one sample, which is still verified', async () => {
    const r = await run({ variant: 'tiled', dtype: 'fp32', m: 16, n: 16, k: 16, warmup: 0, repeats: 1, cold: true });
    expect(r.hostMs).toHaveLength(1);
    expect(r.implementation).toMatch(/, its pipeline made anew within the first sample$/);
    expect(r.verification).toMatchObject({ passed: true });
    const warm = await run({ variant: 'tiled', dtype: 'fp32', m: 16, n: 16, k: 16 });
    expect(warm.implementation).not.toContain('made anew');
  });

  it('refuses cuBLAS and the types WGSL has no arithmetic for, naming them', async () => {
    await expect(run({ variant: 'cublas', dtype: 'fp32', m: 64, n: 64, k: 64 })).rejects.toThrow(/WebGPU device \(webgpu:0\) does not run cuBLAS \(NVIDIA’s library, for CUDA only\)/);
    await expect(run({ variant: 'tiled', dtype: 'bf16', m: 64, n: 64, k: 64 })).rejects.toThrow(/does not run bf16 GEMM \(WGSL has f32 and f16 only\)/);
    await expect(run({ variant: 'blas', dtype: 'fp32', m: 64, n: 64, k: 64 })).rejects.toThrow(/does not run the CPU's blas GEMM/);
  });
});

describe('the bands a GEMM is bound in', () => {
  it('cover every row of A and C and every row of B once, each within the limit and starting at an aligned byte', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 5000 }), fc.constantFrom(2, 4), fc.constantFrom(16, 64, 256), fc.integer({ min: 4096, max: 1 << 22 }), (m, n, k, bytes, align, most) => {
        const limit = Math.floor(most / 4) * 4;
        let bands: ReturnType<typeof gemmBands>;
        try {
          bands = gemmBands({ m, n, k }, bytes, limit, align, 'webgpu:0');
        } catch (err) {
          // Refused only where not one aligned row fits.
          expect((err as Error).message).toMatch(/cannot be bound on webgpu:0: not even \d+ rows/);
          return;
        }
        const check = (list: { start: number; count: number }[], total: number, rowBytes: number[]): void => {
          let next = 0;
          for (const b of list) {
            expect(b.start).toBe(next);
            expect(b.count).toBeGreaterThan(0);
            for (const row of rowBytes) {
              expect((b.start * row) % align).toBe(0);
              expect(Math.ceil((b.count * row) / 4) * 4).toBeLessThanOrEqual(limit);
            }
            next += b.count;
          }
          expect(next).toBe(total);
        };
        check(bands.rows, m, [k * bytes, n * bytes]);
        check(bands.depth, k, [n * bytes]);
      }),
    );
  });
});
