// The addon's search for cuBLAS and NVRTC beyond the loader's path, with a real dlopen: stand-ins built here
// (tests/native/fake-cuda-libraries.ts) in the folders NVIDIA's wheels use, handed to the addon before it first opens
// a library, as the compute host does. The tests run in order: each library is opened once per process.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { buildInfo, cudaInventory, searchCudaLibrariesIn } from '../../native/index.ts';
import { FAKE_CUBLAS_VERSION, FAKE_NVRTC_VERSION, canBuildFakes, fakeCublas, fakeNvrtc, realOnesOnLoaderPath } from './fake-cuda-libraries.ts';
import { expectCode } from './helpers.ts';

describe.skipIf(!buildInfo().cuda || !canBuildFakes || realOnesOnLoaderPath)('cuBLAS and NVRTC outside the loader\'s path', () => {
  it('a folder that is not an absolute path is refused by name before the addon sees it', async () => {
    await expectCode(() => searchCudaLibrariesIn(['/opt/cuda/lib64', 'lib64']), 'INVALID_ARGUMENT', ['`dirs[1]`', '"lib64"', 'an absolute folder path']);
  });

  it('are opened from the folders given, in the wheels\' layouts, and the report says where', () => {
    const root = mkdtempSync(join(tmpdir(), 'gpu-lab-cudalibs-'));
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const nvrtc = fakeNvrtc(join(root, 'cu13-wheels/nvidia/cu13/lib'));
    const cublas = fakeCublas(join(root, 'cu12-wheels/nvidia/cublas/lib'));
    searchCudaLibrariesIn([empty, dirname(nvrtc.library), dirname(cublas)]);
    const { libraries } = cudaInventory();
    expect(libraries.nvrtc).toEqual({ found: true, soname: 'libnvrtc.so.13', path: nvrtc.library, version: FAKE_NVRTC_VERSION, reason: null, why: null, detail: null, searched: [] });
    expect(libraries.cublas).toEqual({ found: true, soname: 'libcublas.so.12', path: cublas, version: FAKE_CUBLAS_VERSION, reason: null, why: null, detail: null, searched: [] });
    // NVRTC dlopens its builtins by name when it compiles, which the loader cannot find in a wheel's folder (seen on
    // the GPU machine: "failed to open libnvrtc-builtins.so.13.0"): they are loaded from NVRTC's folder beforehand.
    expect(readFileSync('/proc/self/maps', 'utf8')).toContain(nvrtc.builtins);
  });

  it('folders given after the libraries were looked for are refused: they would never be searched', async () => {
    await expectCode(() => searchCudaLibrariesIn(['/opt/cuda/lib64']), 'NATIVE_ERROR', ['before the first library is opened']);
  });
});
