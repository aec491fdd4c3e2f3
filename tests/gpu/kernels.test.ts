// The hand-written kernels against fp64 CPU references, on fresh random inputs, poisoned outputs, at sizes that
// exercise the vector tails and partial tiles.
import { describe, it } from 'node:test';

import { ELEMENTWISE_TOLERANCE, benchmark, createDeviceBuffer, createHostBuffer, gemmTolerance, poison, relativeError } from '../../native/index.ts';
import type { DataPath, ElementBuffer } from '../../native/index.ts';
import { DEVICE, Owned, assertClose, gemmReference, skipWithoutGpu, twins } from './helpers.ts';

function out(owned: Owned, path: DataPath, dtype: 'fp32' | 'fp64', n: number): ElementBuffer {
  const buf = owned.add(path === 'with-copies' ? createHostBuffer(dtype, n) : createDeviceBuffer(dtype, n, DEVICE));
  poison(buf);
  return buf;
}

describe('elementwise kernels', { skip: skipWithoutGpu }, () => {
  for (const op of ['add', 'mul', 'exp'] as const) {
    for (const path of ['resident', 'with-copies'] as const) {
      it(`${op} (${path}) matches the fp64 reference within 1e-5 at 1, 3, 4097 and 1 000 003 elements`, async () => {
        for (const n of [1, 3, 4097, 1_000_003]) {
          const owned = new Owned();
          try {
            const x = twins(owned, 'fp32', n, { low: -4, high: 4 });
            const y = twins(owned, 'fp32', n, { low: -4, high: 4 });
            const o = out(owned, path, 'fp32', n);
            const pick = (t: typeof x) => (path === 'with-copies' ? t.host : t.dev);
            const spec = op === 'exp' ? { device: DEVICE, op, path, x: pick(x), out: o } : { device: DEVICE, op, path, a: pick(x), b: pick(y), out: o };
            await benchmark(spec, { warmup: 1, repeats: 2 });
            const xs = x.host.toFloat64();
            const ys = y.host.toFloat64();
            const ref = xs.map((v, i) => (op === 'exp' ? Math.exp(v) : op === 'add' ? v + (ys[i] ?? 0) : v * (ys[i] ?? 0)));
            assertClose(relativeError(o.toFloat64(), ref), ELEMENTWISE_TOLERANCE.fp32, `${op} n=${n}`, x.seed);
          } finally {
            owned.free();
          }
        }
      });
    }
  }
});

describe('vector function z = a·x² + b·y + c', { skip: skipWithoutGpu }, () => {
  // With the copies timed, the fused kernel.
  for (const [variant, path] of [['fused', 'resident'], ['unfused', 'resident'], ['fused', 'with-copies']] as const) {
    it(`${variant} (${path}) matches the fp64 reference at 1, 2, 7 and 5 000 001 elements`, async () => {
      const [a, b, c] = [3.5, 2.8, 10];
      for (const n of [1, 2, 7, 5_000_001]) {
        const owned = new Owned();
        try {
          const x = twins(owned, 'fp64', n, { low: -2, high: 2 });
          const y = twins(owned, 'fp64', n, { low: -2, high: 2 });
          const o = out(owned, path, 'fp64', n);
          const host = path === 'with-copies';
          await benchmark({ device: DEVICE, op: 'vector-function', variant, path, x: host ? x.host : x.dev, y: host ? y.host : y.dev, out: o, a, b, c }, { warmup: 1, repeats: 3 });
          const xs = x.host.toFloat64();
          const ys = y.host.toFloat64();
          const ref = xs.map((v, i) => a * v * v + b * (ys[i] ?? 0) + c);
          assertClose(relativeError(o.toFloat64(), ref), ELEMENTWISE_TOLERANCE.fp64, `${variant} ${path} n=${n}`, x.seed);
        } finally {
          owned.free();
        }
      }
    });
  }
});

describe('SGEMM kernels', { skip: skipWithoutGpu }, () => {
  // Partial tiles in every dimension, unaligned rows (k, n not multiples of 4), and one full-size square.
  const shapes = [
    [1, 1, 1],
    [33, 65, 17],
    [129, 127, 255],
    [200, 260, 64],
    [512, 512, 512],
  ] as const;
  for (const kind of ['naive', 'tiled'] as const) {
    it(`sgemm-${kind} matches the fp64 reference at ${shapes.map((s) => s.join('×')).join(', ')}`, async () => {
      for (const [m, n, k] of shapes) {
        const owned = new Owned();
        try {
          const a = twins(owned, 'fp32', m * k, { low: -1, high: 1 });
          const b = twins(owned, 'fp32', k * n, { low: -1, high: 1 });
          const o = out(owned, 'resident', 'fp32', m * n);
          await benchmark({ device: DEVICE, op: 'gemm', variant: kind, a: a.dev, b: b.dev, out: o, m, n, k }, { warmup: 0, repeats: 2 });
          const ref = gemmReference(a.host.toFloat64(), b.host.toFloat64(), m, n, k);
          assertClose(relativeError(o.toFloat64(), ref), gemmTolerance('fp32', k), `sgemm-${kind} ${m}×${n}×${k}`, a.seed);
        } finally {
          owned.free();
        }
      }
    });
  }

  // The largest m the facade lets through: 65535 blocks along the grid's y, 8 rows each (naive) or 128 (tiled).
  for (const [kind, m] of [['naive', 65_535 * 8], ['tiled', 65_535 * 128]] as const) {
    it(`sgemm-${kind} at the grid's y limit, m = ${m}, matches the fp64 reference`, async () => {
      const owned = new Owned();
      try {
        const [n, k] = [5, 3];
        const a = twins(owned, 'fp32', m * k, { low: -1, high: 1 });
        const b = twins(owned, 'fp32', k * n, { low: -1, high: 1 });
        const o = out(owned, 'resident', 'fp32', m * n);
        await benchmark({ device: DEVICE, op: 'gemm', variant: kind, a: a.dev, b: b.dev, out: o, m, n, k }, { warmup: 0, repeats: 1 });
        const ref = gemmReference(a.host.toFloat64(), b.host.toFloat64(), m, n, k);
        assertClose(relativeError(o.toFloat64(), ref), gemmTolerance('fp32', k), `sgemm-${kind} ${m}×${n}×${k}`, a.seed);
      } finally {
        owned.free();
      }
    });
  }
});
