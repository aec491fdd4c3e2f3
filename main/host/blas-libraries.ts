// Which BLAS libraries the CPU's GEMMs may run on, found as the CUDA wheels are found (cuda-library-dirs.ts): in the
// site-packages and prefix of the Python interpreter the peers run on (GPU_LAB_PYTHON, else python3), which is where
// the course's own NumPy, SciPy and PyTorch get theirs, then on the system loader's path. Why look beyond the system:
// on the GPU machine (Ubuntu 24.04, 16 Xeon cores with AVX-512) the system's OpenBLAS is 0.3.26, which runs every GEMM
// on all 16 threads, however small (0.3.27 capped the threads of small GEMMs), and did 469–479 GFLOP/s at N = 500–1000
// where NumPy's bundled scipy-openblas 0.3.34 on the same cores did about 960; at N = 5000 the system's did better.
// So every library found is opened, and which one runs a GEMM is measured (blas-choice.ts).
//
//   NumPy's bundled OpenBLAS   <site-packages>/numpy.libs/libscipy_openblas64_-<hash>.so  (symbols scipy_…64_, 64-bit ints)
//   SciPy's bundled OpenBLAS   <site-packages>/scipy.libs/libscipy_openblas-<hash>.so     (symbols scipy_…, 32-bit ints)
//   scipy-openblas wheels      <site-packages>/scipy_openblas64/lib/libscipy_openblas64_.so, scipy_openblas32/lib/…
//   MKL (pip's mkl, conda)     <prefix>/lib/libmkl_rt.so.2
//   PyTorch's BLAS             <site-packages>/torch/lib/libtorch_cpu.so: PyTorch's x86 wheels link MKL in statically
//                              and export some of its symbols (CBLAS, or the Fortran sgemm_/dgemm_; its threads then
//                              set through the OpenMP runtime PyTorch ships): what torch.matmul runs on the CPU, on
//                              the GPU machine 1.3–1.5× NumPy's OpenBLAS from N = 2000 on (1845 against 1206 GFLOP/s
//                              at N = 7000 fp32).
//   the system's               libopenblas.so.0, libblis.so.4, libmkl_rt.so.2, else libblas.so.3, by soname
//
// GPU_LAB_BLAS names the library to use instead of all this (a file), or `none` (the built-in blocked GEMM only).
import { execFile } from 'node:child_process';
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

import { openBlas } from '../../native/index.ts';
import type { BlasInfo } from '../../native/index.ts';
import { pythonCommand } from './python-worker.ts';

export const BLAS_ENV = 'GPU_LAB_BLAS';

// Where a library came from, as reports name it.
export type BlasOrigin = 'numpy' | 'scipy' | 'scipy-openblas' | 'torch' | 'mkl' | 'conda' | 'system' | 'named';

export interface BlasCandidate {
  path: string;
  origin: BlasOrigin;
}

export interface InterpreterPlaces {
  // The interpreter's site-packages (virtual environment, user and system ones), and its prefixes (sys.prefix and
  // sys.base_prefix), whose lib holds what pip's mkl or a conda environment installs.
  sitePackages: string[];
  prefixes: string[];
}

const PLACES_SCRIPT =
  'import json, site, sys; print(json.dumps({"sitePackages": site.getsitepackages() + [site.getusersitepackages()], "prefixes": [sys.prefix, sys.base_prefix]}))';
const PYTHON_TIMEOUT_MS = 5000;

// The system's libraries by soname, each family once; the generic CBLAS only where none of them is there.
export const SYSTEM_SONAMES = ['libopenblas.so.0', 'libblis.so.4', 'libmkl_rt.so.2', 'libmkl_rt.so'] as const;
export const GENERIC_SONAME = 'libblas.so.3';

// The places the interpreter answers with; none where there is no interpreter or it does not answer in time.
export function interpreterPlaces(env: NodeJS.ProcessEnv = process.env): Promise<InterpreterPlaces> {
  return new Promise((resolve) => {
    const none = { sitePackages: [], prefixes: [] };
    execFile(pythonCommand(env), ['-c', PLACES_SCRIPT], { env, timeout: PYTHON_TIMEOUT_MS, windowsHide: true }, (err, stdout) => {
      if (err) return resolve(none);
      try {
        const parsed = JSON.parse(stdout) as { sitePackages?: unknown; prefixes?: unknown };
        const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string' && isAbsolute(p)) : []);
        resolve({ sitePackages: strings(parsed.sitePackages), prefixes: strings(parsed.prefixes) });
      } catch {
        resolve(none);
      }
    });
  });
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function matching(dir: string, pattern: RegExp): string[] {
  return entries(dir).filter((f) => pattern.test(f)).map((f) => join(dir, f));
}

// The files in the interpreter's places: NumPy's (what the course's `A @ B` runs on), the scipy-openblas wheels,
// SciPy's, PyTorch's, then MKL installed on its own.
export function interpreterCandidates(places: InterpreterPlaces): BlasCandidate[] {
  const out: BlasCandidate[] = [];
  for (const sp of places.sitePackages) {
    out.push(...matching(join(sp, 'numpy.libs'), /^libscipy_openblas64_.*\.so$/).map((path) => ({ path, origin: 'numpy' as const })));
    for (const wheel of ['scipy_openblas64', 'scipy_openblas32']) {
      out.push(...matching(join(sp, wheel, 'lib'), /^libscipy_openblas.*\.so$/).map((path) => ({ path, origin: 'scipy-openblas' as const })));
    }
    out.push(...matching(join(sp, 'scipy.libs'), /^libscipy_openblas.*\.so$/).map((path) => ({ path, origin: 'scipy' as const })));
    out.push(...matching(join(sp, 'torch', 'lib'), /^libtorch_cpu\.so$/).map((path) => ({ path, origin: 'torch' as const })));
  }
  for (const prefix of places.prefixes) {
    out.push(...['libmkl_rt.so.2', 'libmkl_rt.so'].map((f) => ({ path: join(prefix, 'lib', f), origin: 'mkl' as const })));
  }
  return out;
}

// The candidates in order, each file once (a link and its target are one file), only files that exist; the system's
// sonames after them.
export function blasCandidates(env: NodeJS.ProcessEnv, places: InterpreterPlaces): BlasCandidate[] {
  const named = env[BLAS_ENV];
  if (named === 'none') return [];
  if (named && isAbsolute(named)) return [{ path: named, origin: 'named' }];
  const condaPrefix = env.CONDA_PREFIX && isAbsolute(env.CONDA_PREFIX) ? env.CONDA_PREFIX : null;
  const conda = condaPrefix ? ['libopenblas.so.0', 'libblis.so.4', 'libmkl_rt.so.2'].map((f) => ({ path: join(condaPrefix, 'lib', f), origin: 'conda' as const })) : [];
  const seen = new Set<string>();
  const files = [...interpreterCandidates(places), ...conda].filter((c) => {
    try {
      if (!statSync(c.path).isFile()) return false;
      const real = realpathSync(c.path);
      if (seen.has(real)) return false;
      seen.add(real);
      return true;
    } catch {
      return false;
    }
  });
  return [...files, ...SYSTEM_SONAMES.map((path) => ({ path, origin: 'system' as const }))];
}

export interface OpenedBlas extends BlasInfo {
  origin: BlasOrigin;
}

// Opens each candidate and keeps those that work: a family of the system's once (libmkl_rt.so after
// libmkl_rt.so.2 is the same library), the generic libblas.so.3 only where the system has none of the others, and
// none twice that reports the same build from the same place.
export function openCandidates(candidates: readonly BlasCandidate[], open: (path: string, origin: string) => BlasInfo = openBlas): OpenedBlas[] {
  const kept: OpenedBlas[] = [];
  const same = (a: BlasInfo, b: BlasInfo): boolean => a.origin === b.origin && a.family === b.family && a.config === b.config && a.version === b.version;
  const consider = (c: BlasCandidate): void => {
    const lib = open(c.path, c.origin);
    if (!lib.available || kept.some((k) => same(k, lib) || (c.origin === 'system' && k.origin === 'system' && k.family === lib.family))) return;
    kept.push({ ...lib, origin: c.origin });
  };
  for (const c of candidates) consider(c);
  if (candidates.some((c) => c.origin === 'system') && !kept.some((k) => k.origin === 'system')) consider({ path: GENERIC_SONAME, origin: 'system' });
  return kept;
}

// Where a library came from, in words for the devices list and the reports.
export function originText(lib: Pick<OpenedBlas, 'origin' | 'path'>): string {
  switch (lib.origin) {
    case 'numpy':
      return `NumPy's bundled copy, ${lib.path}`;
    case 'scipy':
      return `SciPy's bundled copy, ${lib.path}`;
    case 'scipy-openblas':
      return `the scipy-openblas wheel, ${lib.path}`;
    case 'torch':
      return `PyTorch's BLAS, linked into ${lib.path}`;
    case 'mkl':
      return `the Python environment's MKL, ${lib.path}`;
    case 'conda':
      return `the conda environment, ${lib.path}`;
    case 'named':
      return `named by ${BLAS_ENV}, ${lib.path}`;
    case 'system':
      return `the system's, ${lib.path}`;
  }
}
