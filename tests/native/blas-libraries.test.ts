// The BLAS libraries beyond the system's, found in an interpreter's site-packages as the compute host finds them and
// opened by the addon with a real dlopen: stand-ins built here (fake-blas-libraries.ts) with each family's names and
// integer width. A product through each must be right (a loader that passed 32-bit integers to NumPy's ILP64 library,
// or looked for the plain names in it, would get garbage or nothing), and each must be named as it is.
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { benchmark, createHostBuffer, openBlas } from '../../native/index.ts';
import { BLAS_ENV, blasCandidates, interpreterCandidates, openCandidates, originText } from '../../main/host/blas-libraries.ts';
import { canBuildFakes, fakeBlas } from './fake-blas-libraries.ts';
import { expectCode, freshSeed, relativeError } from './helpers.ts';

const root = mkdtempSync(join(tmpdir(), 'gpu-lab-blas-'));
const sp = join(root, 'venv/lib/python3.12/site-packages');
const prefix = join(root, 'venv');

// The product through `library` against a float64 one, at a shape where m, n and k differ.
async function productError(library: number, dtype: 'fp32' | 'fp64'): Promise<number> {
  const [m, n, k] = [37, 29, 53];
  const seed = freshSeed();
  const a = createHostBuffer(dtype, m * k).fillRandom(seed, { low: -1, high: 1 });
  const b = createHostBuffer(dtype, k * n).fillRandom(seed + 1, { low: -1, high: 1 });
  const out = createHostBuffer(dtype, m * n);
  await benchmark({ op: 'gemm', variant: 'blas', a, b, out, m, n, k, library, threads: 2 }, { warmup: 0, repeats: 1 });
  const [A, B] = [a.toFloat64(), b.toFloat64()];
  const ref = new Float64Array(m * n);
  for (let i = 0; i < m; i++) for (let q = 0; q < k; q++) for (let j = 0; j < n; j++) ref[i * n + j] = (ref[i * n + j] ?? 0) + (A[i * k + q] ?? 0) * (B[q * n + j] ?? 0);
  const err = relativeError(out.toFloat64(), ref);
  for (const x of [a, b, out]) x.free();
  return err;
}

describe.skipIf(!canBuildFakes)('BLAS libraries opened by path', () => {
  const numpy = fakeBlas(join(sp, 'numpy.libs'), 'libscipy_openblas64_-f4ke0001.so', { prefix: 'scipy_', suffix: '64_', ilp64: true, config: 'OpenBLAS 9.8.7  USE64BITINT DYNAMIC_ARCH NO_AFFINITY FakeLake MAX_THREADS=64', kernel: 'FakeLake' });
  const scipy = fakeBlas(join(sp, 'scipy.libs'), 'libscipy_openblas-f4ke0002.so', { prefix: 'scipy_', config: 'OpenBLAS 9.7.1.dev DYNAMIC_ARCH FakeLake MAX_THREADS=64', kernel: 'FakeLake' });
  const torch = fakeBlas(join(sp, 'torch/lib'), 'libtorch_cpu.so', { mkl: 'Intel(R) oneAPI Math Kernel Library Version 2099.1-Product Build 20990101 for Intel(R) 64 architecture applications' });
  const mkl = fakeBlas(join(prefix, 'lib'), 'libmkl_rt.so.2', { suffix: '_64', ilp64: true, mkl: 'Intel(R) oneAPI Math Kernel Library Version 2098.0-Product Build' });

  it('NumPy\'s bundled OpenBLAS: its scipy_…64_ names, 64-bit integers, version and kernel, and a right product', async () => {
    const lib = openBlas(numpy, 'numpy');
    expect(lib).toMatchObject({ available: true, family: 'OpenBLAS', version: '9.8.7', kernel: 'FakeLake', ilp64: true, symbol: 'scipy_cblas_sgemm64_', name: 'OpenBLAS 9.8.7 (FakeLake kernel, 64-bit integers)', threadsSettable: true });
    expect(await productError(lib.id, 'fp32')).toBeLessThan(1e-6);
    expect(await productError(lib.id, 'fp64')).toBeLessThan(1e-14);
  });

  it('SciPy\'s bundled OpenBLAS: scipy_ names without the suffix, 32-bit integers', async () => {
    const lib = openBlas(scipy, 'scipy');
    expect(lib).toMatchObject({ available: true, family: 'OpenBLAS', version: '9.7.1', ilp64: false, symbol: 'scipy_cblas_sgemm' });
    expect(await productError(lib.id, 'fp64')).toBeLessThan(1e-14);
  });

  it('MKL, linked into PyTorch or on its own: named by its version string; its _64 names taken as 64-bit', async () => {
    expect(openBlas(torch, 'torch')).toMatchObject({ available: true, family: 'MKL', version: '2099.1', ilp64: false, symbol: 'cblas_sgemm', threadsSettable: true });
    const rt = openBlas(mkl, 'mkl');
    expect(rt).toMatchObject({ available: true, family: 'MKL', version: '2098.0', ilp64: true, symbol: 'cblas_sgemm_64' });
    expect(await productError(rt.id, 'fp32')).toBeLessThan(1e-6);
  });

  it('a library with the Fortran interface alone, its threads through OpenMP: named as such, and a right product', async () => {
    const lib = openBlas(fakeBlas(join(root, 'fortran'), 'libtorch_cpu.so', { fortran: true, omp: true }), 'torch');
    expect(lib).toMatchObject({ available: true, family: 'BLAS', symbol: 'sgemm_', threadsSettable: true, defaultThreads: 4, name: 'BLAS' });
    expect(await productError(lib.id, 'fp32')).toBeLessThan(1e-6);
    expect(await productError(lib.id, 'fp64')).toBeLessThan(1e-14);
  });

  it('a file that is no BLAS, or no file, is answered with why, never an error; a GEMM asked of it is refused', async () => {
    const notBlas = openBlas(fakeBlas(join(root, 'other'), 'libnotblas.so', { noGemm: true }), 'named');
    expect(notBlas.available).toBe(false);
    expect(notBlas.reason).toContain('has no cblas_sgemm');
    const missing = openBlas(join(root, 'nowhere/libopenblas.so.0'), 'named');
    expect(missing).toMatchObject({ available: false });
    expect(missing.reason).toContain('nowhere/libopenblas.so.0');
    const a = createHostBuffer('fp32', 4);
    await expectCode(() => benchmark({ op: 'gemm', variant: 'blas', a, b: a, out: createHostBuffer('fp32', 4), m: 2, n: 2, k: 2, library: missing.id }, { warmup: 0, repeats: 1 }), 'BLAS_UNAVAILABLE', ['nowhere/libopenblas.so.0']);
    await expectCode(() => benchmark({ op: 'gemm', variant: 'blas', a, b: a, out: createHostBuffer('fp32', 4), m: 2, n: 2, k: 2, library: 99_999 }, { warmup: 0, repeats: 1 }), 'INVALID_ARGUMENT', ['`library`', '99999']);
    await expectCode(() => openBlas('libx.so', 'not a word'), 'INVALID_ARGUMENT', ['`origin`']);
  });

  it('the interpreter\'s places are searched as the CUDA wheels are, NumPy\'s first, each file once, the system\'s sonames last', () => {
    // The user site-packages holding a link to the same NumPy library: one file, found once.
    const user = join(root, 'user-site');
    mkdirSync(join(user, 'numpy.libs'), { recursive: true });
    symlinkSync(numpy, join(user, 'numpy.libs', 'libscipy_openblas64_-f4ke0001.so'));
    const places = { sitePackages: [sp, user], prefixes: [prefix] };
    expect(interpreterCandidates(places).map((c) => c.origin)).toEqual(['numpy', 'scipy', 'torch', 'numpy', 'mkl', 'mkl']);
    const found = blasCandidates({}, places);
    expect(found.map((c) => [c.origin, c.path])).toEqual([
      ['numpy', numpy],
      ['scipy', scipy],
      ['torch', torch],
      ['mkl', mkl],
      ['system', 'libopenblas.so.0'],
      ['system', 'libblis.so.4'],
      ['system', 'libmkl_rt.so.2'],
      ['system', 'libmkl_rt.so'],
    ]);
    expect(blasCandidates({ [BLAS_ENV]: 'none' }, places)).toEqual([]);
    expect(blasCandidates({ [BLAS_ENV]: mkl }, places)).toEqual([{ path: mkl, origin: 'named' }]);
  });

  it('opened, those that work are kept, each build once, and each says where it came from', () => {
    const again = join(root, 'again');
    mkdirSync(again);
    const copy = fakeBlas(again, 'libscipy_openblas64_-f4ke0001.so', { prefix: 'scipy_', suffix: '64_', ilp64: true, config: 'OpenBLAS 9.8.7  USE64BITINT DYNAMIC_ARCH NO_AFFINITY FakeLake MAX_THREADS=64', kernel: 'FakeLake' });
    const kept = openCandidates([
      { path: numpy, origin: 'numpy' },
      { path: copy, origin: 'numpy' },
      { path: torch, origin: 'torch' },
      { path: join(root, 'nowhere.so'), origin: 'mkl' },
    ]);
    expect(kept.map((l) => [l.origin, l.family])).toEqual([
      ['numpy', 'OpenBLAS'],
      ['torch', 'MKL'],
    ]);
    expect(originText(kept[0] ?? { origin: 'system', path: '' })).toBe(`NumPy's bundled copy, ${numpy}`);
    expect(originText(kept[1] ?? { origin: 'system', path: '' })).toBe(`PyTorch's BLAS, linked into ${torch}`);
  });
});
