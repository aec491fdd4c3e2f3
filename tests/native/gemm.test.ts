import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { benchmark, blasInfo, createHostBuffer } from '../../native/index.ts';
import { expectCode, freshSeed, relativeError } from './helpers.ts';

function naiveGemm(a: Float64Array, b: Float64Array, m: number, n: number, k: number): Float64Array {
  const c = new Float64Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let p = 0; p < k; p++) {
      const aip = a[i * k + p] ?? 0;
      for (let j = 0; j < n; j++) c[i * n + j] = (c[i * n + j] ?? 0) + aip * (b[p * n + j] ?? 0);
    }
  }
  return c;
}

// Awkward shapes: 1, primes, one past a power of two, and the seed's 1000; plus non-square ones.
const SHAPES: Array<[number, number, number]> = [
  [1, 1, 1],
  [7, 7, 7],
  [129, 129, 129],
  [7, 129, 33],
  [130, 5, 257],
  [1000, 1000, 1000],
];

describe('CPU GEMM against a naive fp64 reference', () => {
  const variants = blasInfo().available ? (['blas', 'blocked'] as const) : (['blocked'] as const);

  it('finds the system BLAS on this machine (OpenBLAS is installed by .ci/run)', () => {
    const info = blasInfo();
    expect(info.available, info.reason ?? '').toBe(true);
    expect(info.name).toMatch(/OpenBLAS|CBLAS/);
  });

  for (const dtype of ['fp32', 'fp64'] as const) {
    it.each(SHAPES)(`${dtype} m=%i n=%i k=%i`, async (m, n, k) => {
      const seed = freshSeed();
      const a = createHostBuffer(dtype, m * k).fillRandom(seed, { low: -1, high: 1 });
      const b = createHostBuffer(dtype, k * n).fillRandom(seed + 1, { low: -1, high: 1 });
      const ref = naiveGemm(a.toFloat64(), b.toFloat64(), m, n, k);
      const blockedByThreads: number[][] = [];
      for (const variant of variants) {
        for (const threads of [1, 3]) {
          const out = createHostBuffer(dtype, m * n).fillRandom(0xbad, { low: 1e6, high: 2e6 });
          const r = await benchmark({ op: 'gemm', variant, a, b, out, m, n, k, threads }, { warmup: 0, repeats: 1 });
          expect(r.implementation).toMatch(variant === 'blas' ? /OpenBLAS|CBLAS/ : /built-in blocked GEMM/);
          // fp32: √k·u growth with room for the summation order; fp64 far tighter.
          const tol = dtype === 'fp32' ? 8 * Math.sqrt(k) * 2 ** -24 + 1e-6 : 1e-13;
          expect(relativeError(out.toFloat64(), ref), `${variant} threads=${threads} seed=${seed}`).toBeLessThan(tol);
          if (variant === 'blocked') blockedByThreads.push(Array.from(out.toFloat64()));
        }
      }
      // The built-in kernel splits rows between threads without changing any element's summation order.
      expect(blockedByThreads[1]).toEqual(blockedByThreads[0]);
    });
  }

  it('refuses mismatched shapes and dtypes naming the argument', async () => {
    const a = createHostBuffer('fp32', 6);
    const b = createHostBuffer('fp32', 6);
    const out = createHostBuffer('fp32', 4);
    await expectCode(() => benchmark({ op: 'gemm', variant: 'blocked', a, b, out, m: 2, n: 2, k: 4 }), 'LENGTH_MISMATCH', ['`a`', 'm·k = 8', '6']);
    const d = createHostBuffer('fp64', 6);
    await expectCode(() => benchmark({ op: 'gemm', variant: 'blocked', a, b: d, out, m: 2, n: 2, k: 3 }), 'DTYPE_MISMATCH', ['`b`', 'fp64']);
    await expectCode(() => benchmark({ op: 'gemm', variant: 'blocked', a, b, out, m: 2 ** 31, n: 1, k: 1 }), 'SIZE_UNSUPPORTED', ['`m`']);
    await expectCode(() => benchmark({ op: 'gemm', variant: 'cublas' as never, a, b, out, m: 2, n: 2, k: 3 }), 'INVALID_ARGUMENT', ['`variant`', 'blas, blocked']);
    const h = createHostBuffer('fp16', 6);
    await expectCode(() => benchmark({ op: 'gemm', variant: 'blas', a: h, b: h, out, m: 2, n: 2, k: 3 }), 'DTYPE_MISMATCH', ['`a`']);
  });

  it('without a system BLAS, reports why and GEMM still runs on the built-in kernel', () => {
    const script = `
      const { blasInfo, benchmark, createHostBuffer } = await import(${JSON.stringify(fileURLToPath(new URL('../../native/index.ts', import.meta.url)))});
      const a = createHostBuffer('fp32', 4).fillRandom(1), out = createHostBuffer('fp32', 4);
      const r = await benchmark({ op: 'gemm', variant: 'blocked', a, b: a, out, m: 2, n: 2, k: 2 }, { repeats: 1 });
      let refused = '';
      try { await benchmark({ op: 'gemm', variant: 'blas', a, b: a, out, m: 2, n: 2, k: 2 }); } catch (e) { refused = e.code; }
      console.log(JSON.stringify({ info: blasInfo(), impl: r.implementation, refused }));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, GPU_LAB_BLAS: 'none' },
      encoding: 'utf8',
    });
    expect(child.status, child.stderr).toBe(0);
    const result = JSON.parse(child.stdout) as { info: { available: boolean; reason: string }; impl: string; refused: string };
    expect(result.info.available).toBe(false);
    expect(result.info.reason).toContain('GPU_LAB_BLAS=none');
    expect(result.impl).toBe('built-in blocked GEMM');
    expect(result.refused).toBe('BLAS_UNAVAILABLE');
  });
});
