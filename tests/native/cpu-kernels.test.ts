import { describe, expect, it } from 'vitest';

import { benchmark, createHostBuffer } from '../../native/index.ts';
import type { ElementBuffer } from '../../native/index.ts';
import { freshSeed, relativeError } from './helpers.ts';

const SIZES = [1, 7, 1000, 1_000_003];
const THREADS = [undefined, 2, 3, 7];

function poisoned(dtype: 'fp32' | 'fp64', n: number): ElementBuffer {
  return createHostBuffer(dtype, n).fillRandom(0xbad, { low: 1e6, high: 2e6 });
}

describe('CPU elementwise kernels against a plain reference', () => {
  for (const op of ['add', 'mul', 'exp'] as const) {
    it.each(SIZES)(`${op} at %i elements, single thread and threads agree with the reference`, async (n) => {
      const seed = freshSeed();
      const x = createHostBuffer('fp32', n).fillRandom(seed, { low: -4, high: 4 });
      const y = createHostBuffer('fp32', n).fillRandom(seed + 1, { low: -4, high: 4 });
      const xs = x.toFloat64();
      const ys = y.toFloat64();
      const ref = xs.map((v, i) => (op === 'add' ? v + (ys[i] ?? 0) : op === 'mul' ? v * (ys[i] ?? 0) : Math.exp(v)));
      const outputs: Float32Array[] = [];
      for (const variant of ['single', 'threads'] as const) {
        for (const threads of variant === 'single' ? [undefined] : THREADS) {
          const out = poisoned('fp32', n);
          const spec = op === 'exp' ? { op, variant, x, out, threads } : { op, variant, a: x, b: y, out, threads };
          const r = await benchmark(spec, { warmup: 0, repeats: 1 });
          expect(r.hostMs).toHaveLength(1);
          const got = out.read() as Float32Array;
          expect(relativeError(got, ref), `${op} n=${n} ${variant} threads=${threads} seed=${seed}`).toBeLessThan(1e-6);
          outputs.push(got);
        }
      }
      // Splitting the range over threads must not change a single bit.
      for (const o of outputs.slice(1)) expect(Buffer.from(o.buffer).equals(Buffer.from(outputs[0]?.buffer ?? new ArrayBuffer(0)))).toBe(true);
    });
  }

  it('exp saturates like expf and keeps NaN', async () => {
    const x = createHostBuffer('fp32', 4);
    x.write(new Float32Array([Number.NaN, 100, -200, 0]));
    const out = poisoned('fp32', 4);
    await benchmark({ op: 'exp', variant: 'single', x, out }, { warmup: 0, repeats: 1 });
    const got = out.read();
    expect(Number.isNaN(got[0])).toBe(true);
    expect(got[1]).toBe(Infinity);
    expect(got[2]).toBe(0);
    expect(got[3]).toBe(1);
  });
});

// The largest difference between `got` and `ref`, in units of the last place of each element's terms
// (|a·x²| + |b·y| + |c|): the error a change of rounding in those terms can make, however much they cancel.
function ulpsOfTerms(got: Float64Array, ref: Float64Array, xs: Float64Array, ys: Float64Array, [a, b, c]: [number, number, number]): number {
  let worst = 0;
  for (let i = 0; i < ref.length; i++) {
    const x = xs[i] ?? 0;
    const terms = Math.abs(a * x * x) + Math.abs(b * (ys[i] ?? 0)) + Math.abs(c);
    worst = Math.max(worst, Math.abs((got[i] ?? Number.NaN) - (ref[i] ?? 0)) / (Number.EPSILON * terms));
  }
  return worst;
}

describe('CPU vector function z = a·x² + b·y + c (fp64)', () => {
  it.each(SIZES)('at %i elements matches the reference exactly, single and threads', async (n) => {
    const seed = freshSeed();
    const x = createHostBuffer('fp64', n).fillRandom(seed, { low: -10, high: 10 });
    const y = createHostBuffer('fp64', n).fillRandom(seed + 7, { low: -10, high: 10 });
    const [a, b, c] = [3.5, 2.8, 10];
    const xs = x.toFloat64();
    const ys = y.toFloat64();
    const ref = xs.map((v, i) => a * v * v + b * (ys[i] ?? 0) + c);
    const results: Float64Array[] = [];
    for (const variant of ['single', 'threads'] as const) {
      const out = poisoned('fp64', n);
      await benchmark({ op: 'vector-function', variant, x, y, out, a, b, c }, { warmup: 0, repeats: 1 });
      // Same operations in the same order as the reference, in fp64: any difference beyond fused multiply-add
      // contraction is a bug. A contraction rounds a product once less, so an element may differ by a few units in
      // the last place of its terms' magnitudes, not of the result's: where a·x² + b·y nearly cancels c, that is a
      // large error relative to z (seed 1445880795: 1.1e-15 at one element).
      const got = out.read() as Float64Array;
      expect(ulpsOfTerms(got, ref, xs, ys, [a, b, c]), `${variant} seed=${seed}`).toBeLessThanOrEqual(4);
      results.push(got);
    }
    expect(Array.from(results[1] ?? []), 'threads differ from the single-thread loop').toEqual(Array.from(results[0] ?? []));
  });
});
