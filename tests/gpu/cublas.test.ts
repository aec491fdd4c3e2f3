// cuBLAS GEMM in every dtype against an fp64 CPU reference computed from the same (rounded) inputs; cuBLAS saxpy,
// sum and transpose (the playground's comparisons) at odd sizes against float64, directly and through the compute
// host's measurement.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { MEASUREMENT } from '../../main/common/measurement.ts';
import { measure } from '../../main/host/ops/index.ts';
import { exerciseDefinition } from '../../main/common/exercises.ts';
import { benchmark, createDeviceBuffer, createHostBuffer, gemmTolerance, poison, relativeError } from '../../native/index.ts';
import type { DType, GemmDtype } from '../../native/index.ts';
import { DEVICE, Owned, assertClose, freshSeed, gemmReference, skipWithoutGpu, twins } from './helpers.ts';

const PRECISIONS: GemmDtype[] = ['fp64', 'fp32', 'tf32', 'fp16', 'bf16', 'int8'];

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
        for (const path of ['resident', 'with-copies'] as const) {
          const owned = new Owned();
          try {
            const a = twins(owned, dtype, m * k, range);
            const b = twins(owned, dtype, k * n, range);
            const host = path === 'with-copies';
            const out = owned.add(host ? createHostBuffer(outType, m * n) : createDeviceBuffer(outType, m * n, DEVICE));
            poison(out);
            const spec = { device: DEVICE, op: 'gemm', variant: 'cublas', dtype: precision, path, a: host ? a.host : a.dev, b: host ? b.host : b.dev, out, m, n, k } as const;
            try {
              const r = await benchmark(spec, { warmup: 1, repeats: 2 });
              assert.match(r.implementation, /^cuBLAS \d+\.\d+\.\d+ cublasGemmEx/);
            } catch (err) {
              // int8 tensor-core GEMM is optional: some GPU and cuBLAS combinations refuse it.
              if (precision === 'int8' && (err as { code?: string }).code === 'UNSUPPORTED_OPERATION') {
                unsupported.push(`${m}×${n}×${k} ${path}`);
                t.diagnostic(`int8 GEMM ${m}×${n}×${k} unsupported: ${(err as Error).message}`);
                continue;
              }
              throw err;
            }
            const ref = gemmReference(a.host.toFloat64(), b.host.toFloat64(), m, n, k);
            assertClose(relativeError(out.toFloat64(), ref), gemmTolerance(precision, k), `${precision} ${path} ${m}×${n}×${k}`, a.seed);
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
      await assert.rejects(async () => benchmark({ device: DEVICE, op: 'gemm', variant: 'cublas', dtype: 'tf32', path: 'resident', a, b: a, out: a, m: 2, n: 2, k: 2 }), { code: 'DTYPE_MISMATCH' });
    } finally {
      owned.free();
    }
  });
});

// The first index where `got` and `want` differ, or -1.
function firstDifference(got: Float64Array, want: Float64Array): number {
  if (got.length !== want.length) return 0;
  return got.findIndex((v, i) => !(v === want[i]));
}

describe('cuBLAS saxpy, sum and transpose', { skip: skipWithoutGpu }, () => {
  it('saxpy at n = 1 000 003: out is a·x + y of the first execution after warm-up and repeats; x and y are untouched', async () => {
    const owned = new Owned();
    try {
      const n = 1_000_003;
      const a = 2.5;
      const x = twins(owned, 'fp32', n, { low: -1, high: 1 });
      const y = twins(owned, 'fp32', n, { low: -1, high: 1 });
      const out = owned.add(createDeviceBuffer('fp32', n, DEVICE));
      poison(out);
      const r = await benchmark({ device: DEVICE, op: 'blas1', routine: 'saxpy', x: x.dev, y: y.dev, out, a }, { warmup: 3, repeats: 20 });
      assert.match(r.implementation, /^cuBLAS \d+\.\d+\.\d+ cublasSaxpy_v2/);
      assert.equal(r.deviceMs?.length, 20);
      const xs = x.host.toFloat64();
      const ys = y.host.toFloat64();
      const ref = xs.map((v, i) => a * v + (ys[i] ?? Number.NaN));
      // One or two roundings of 2⁻²⁴ per element; out holding a second execution (y + 2a·x) would be off by ~0.9.
      assertClose(relativeError(out.toFloat64(), ref), 1e-6, 'saxpy', x.seed);
      assert.equal(firstDifference(x.dev.toFloat64(), xs), -1, 'x changed');
      assert.equal(firstDifference(y.dev.toFloat64(), ys), -1, 'y changed');
    } finally {
      owned.free();
    }
  });

  it('sum of whole numbers 0…3: exact at n = 1 000 003, within 1e-6 where the total passes 2²⁴ (n = 12 000 007)', async () => {
    for (const n of [1_000_003, 12_000_007]) {
      const owned = new Owned();
      try {
        const seed = freshSeed();
        const values = owned.add(createHostBuffer('fp32', n)).fillRandom(seed, { low: 0, high: 4 }).read();
        let total = 0;
        for (let i = 0; i < n; i++) {
          const v = Math.floor(values[i] ?? 0);
          values[i] = v;
          total += v;
        }
        const x = owned.add(createDeviceBuffer('fp32', n, DEVICE)).write(values);
        const out = owned.add(createDeviceBuffer('fp32', 1, DEVICE));
        poison(out);
        const r = await benchmark({ device: DEVICE, op: 'blas1', routine: 'sum', x, out }, { warmup: 3, repeats: 20 });
        assert.match(r.implementation, /cublasSasum_v2/);
        const got = out.toFloat64()[0] ?? Number.NaN;
        if (total <= 2 ** 24) assert.equal(got, total, `sum of ${n} (seed ${seed})`);
        else assertClose(Math.abs(got - total) / total, 1e-6, `sum of ${n}, total ${total}, got ${got}`, seed);
      } finally {
        owned.free();
      }
    }
  });

  it('transpose at N = 257 and N = 1031: out is exactly inᵀ, every element', async () => {
    for (const n of [257, 1031]) {
      const owned = new Owned();
      try {
        const input = twins(owned, 'fp32', n * n, { low: -1, high: 1 });
        const out = owned.add(createDeviceBuffer('fp32', n * n, DEVICE));
        poison(out);
        const r = await benchmark({ device: DEVICE, op: 'blas1', routine: 'transpose', in: input.dev, out, n }, { warmup: 3, repeats: 20 });
        assert.match(r.implementation, /cublasSgeam/);
        const v = input.host.toFloat64();
        const want = new Float64Array(n * n);
        for (let row = 0; row < n; row++) for (let col = 0; col < n; col++) want[col * n + row] = v[row * n + col] ?? Number.NaN;
        const bad = firstDifference(out.toFloat64(), want);
        assert.equal(bad, -1, `N = ${n}: element ${bad} (row ${Math.floor(bad / n)}, column ${bad % n}) differs (seed ${input.seed})`);
      } finally {
        owned.free();
      }
    }
  });

  it('as the playground measures them: each exercise’s cuBLAS built-in passes its float64 verification', async () => {
    for (const [id, size] of [['saxpy', 1_000_003], ['reduction', 1_000_003], ['transpose', 257]] as const) {
      const builtin = exerciseDefinition(id).builtins.find((b) => b.kind === 'cublas');
      assert.ok(builtin, `${id} has a cuBLAS built-in`);
      const m = MEASUREMENT.parse(builtin.measurement(size, DEVICE));
      const r = await measure(m, { signal: new AbortController().signal, onProgress: () => undefined });
      assert.ok(r.verification?.passed, `${id}: ${JSON.stringify(r.verification)}`);
      assert.equal(r.verification.checked, id === 'transpose' ? size * size : id === 'reduction' ? 1 : size);
      // The engine decides how many samples (main/host/sampling.ts): at least the six a median's interval needs.
      assert.equal(r.deviceMs?.length, r.sampling?.samples);
      assert.ok((r.sampling?.samples ?? 0) >= 6, `${id}: ${r.sampling?.samples} samples`);
    }
  });
});
