// cuBLAS and NVRTC where the loader cannot see them: a process started without the loader's cache
// (tests/gpu/cuda-libraries/outside-loader.ts) gets them only from the folders the compute host finds (on the GPU
// machine, the CUDA 13 wheels of PyTorch's environment, whose python3 is first on PATH, else the toolkit's
// /usr/local/cuda/lib64), and both work from there: NVRTC compiles with its builtins, a cuBLAS GEMM verifies.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import type { CudaInventory } from '../../main/common/device-report.ts';
import { gemmTolerance } from '../../native/index.ts';
import { skipWithoutGpu } from './helpers.ts';

const LOADER = '/lib64/ld-linux-x86-64.so.2';
const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'cuda-libraries', 'outside-loader.ts');

// The driver's own libraries stay reachable: without the cache, only through LD_LIBRARY_PATH.
function driverDir(): string | null {
  const cache = spawnSync('ldconfig', ['-p'], { encoding: 'utf8' }).stdout ?? '';
  const path = /libcuda\.so\.1 \(libc6,x86-64\) => (\S+)/.exec(cache)?.[1];
  return path ? dirname(path) : null;
}

describe('cuBLAS and NVRTC outside the loader\'s path', { skip: skipWithoutGpu || (!existsSync(LOADER) && `no ${LOADER}`) }, () => {
  it('are found in the folders the compute host finds, and work from there', () => {
    const driver = driverDir();
    assert.ok(driver, 'libcuda.so.1 is in the loader\'s cache');
    const r = spawnSync(LOADER, ['--inhibit-cache', process.execPath, CHILD], { encoding: 'utf8', env: { ...process.env, LD_LIBRARY_PATH: driver }, timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    const line = JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as { dirs: string[]; libraries: CudaInventory['libraries']; compiled: { ok: boolean; log: string; bytes: number }; gemm: { implementation: string; error: number } };
    const { cublas, nvrtc } = line.libraries;
    for (const lib of [cublas, nvrtc]) {
      assert.ok(lib.found, `${lib.reason ?? ''}; searched ${line.dirs.join(', ')}`);
      assert.ok(line.dirs.some((d) => lib.path?.startsWith(`${d}/`)), `${lib.path ?? ''} is in one of ${line.dirs.join(', ')}`);
    }
    assert.ok(line.compiled.ok && line.compiled.bytes > 0, `NVRTC compiled: ${line.compiled.log}`);
    assert.match(line.gemm.implementation, /^cuBLAS \d+\.\d+\.\d+ cublasGemmEx/);
    assert.ok(line.gemm.error < gemmTolerance('fp32', 256), `GEMM relative error ${line.gemm.error}`);
  });
});
