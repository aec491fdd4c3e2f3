// cuBLAS GEMM in every dtype against an fp64 CPU reference computed from the same (rounded) inputs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { benchmark, createDeviceBuffer, createHostBuffer, gemmTolerance, poison, relativeError } from '../../native/index.ts';
import type { DType, GemmPrecision } from '../../native/index.ts';
import { DEVICE, Owned, assertClose, gemmReference, skipWithoutGpu, twins } from './helpers.ts';

const PRECISIONS: GemmPrecision[] = ['fp64', 'fp32', 'tf32', 'fp16', 'bf16', 'int8'];

describe('cuBLAS GEMM', { skip: skipWithoutGpu }, () => {
  for (const precision of PRECISIONS) {
    it(`${precision}: relative error under ${gemmTolerance(precision, 512).toExponential(0)}, resident and with copies`, async (t) => {
      const dtype: DType = precision === 'tf32' ? 'fp32' : precision;
      const outType: DType = dtype === 'int8' ? 'fp32' : dtype;
      // Reduced precisions on [0, 1): with signed inputs the rounding of tf32 inputs alone comes near its 1e-3.
      const range = dtype === 'int8' ? { low: -8, high: 8 } : precision === 'fp32' || precision === 'fp64' ? { low: -1, high: 1 } : { low: 0, high: 1 };
      const unsupported: string[] = [];
      // int8 tensor cores want dimensions in multiples of 4; the other dtypes take any.
      const shapes = precision === 'int8' ? ([[256, 132, 300], [512, 512, 512]] as const) : ([[257, 131, 300], [512, 512, 512]] as const);
      for (const [m, n, k] of shapes) {
        for (const variant of ['resident', 'with-copies'] as const) {
          const owned = new Owned();
          try {
            const a = twins(owned, dtype, m * k, range);
            const b = twins(owned, dtype, k * n, range);
            const host = variant === 'with-copies';
            const out = owned.add(host ? createHostBuffer(outType, m * n) : createDeviceBuffer(outType, m * n, DEVICE));
            poison(out);
            const spec = { device: DEVICE, op: 'gemm', variant, math: precision === 'tf32' ? 'tf32' : 'default', a: host ? a.host : a.dev, b: host ? b.host : b.dev, out, m, n, k } as const;
            try {
              const r = await benchmark(spec, { warmup: 1, repeats: 2 });
              assert.match(r.implementation, /^cuBLAS \d+\.\d+\.\d+ cublasGemmEx/);
            } catch (err) {
              // int8 tensor-core GEMM is optional: some GPU and cuBLAS combinations refuse it.
              if (precision === 'int8' && (err as { code?: string }).code === 'UNSUPPORTED_OPERATION') {
                unsupported.push(`${m}×${n}×${k} ${variant}`);
                t.diagnostic(`int8 GEMM ${m}×${n}×${k} unsupported: ${(err as Error).message}`);
                continue;
              }
              throw err;
            }
            const ref = gemmReference(a.host.toFloat64(), b.host.toFloat64(), m, n, k);
            assertClose(relativeError(out.toFloat64(), ref), gemmTolerance(precision, k), `${precision} ${variant} ${m}×${n}×${k}`, a.seed);
          } finally {
            owned.free();
          }
        }
      }
      if (unsupported.length === 2 * shapes.length) t.skip(`int8 GEMM unsupported here (${unsupported.join(', ')})`);
    });
  }

  it('TF32 math is refused for anything but fp32 buffers', async () => {
    const owned = new Owned();
    try {
      const a = owned.add(createDeviceBuffer('fp16', 4, DEVICE));
      await assert.rejects(async () => benchmark({ device: DEVICE, op: 'gemm', variant: 'resident', math: 'tf32', a, b: a, out: a, m: 2, n: 2, k: 2 }), { code: 'DTYPE_MISMATCH' });
    } finally {
      owned.free();
    }
  });
});
