// `gpu-lab devices --json` on a machine whose NVRTC is only in CUDA_PATH and whose cuBLAS, in a CUDA 13 wheel's
// folder, is broken: the compute host finds the folders, the addon really opens the stand-in NVRTC from there
// (tests/native/fake-cuda-libraries.ts), and the report says where, or why not and where it looked.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import type { CudaInventory } from '../../../main/common/device-report.ts';
import { buildInfo } from '../../../native/index.ts';
import { FAKE_NVRTC_VERSION, canBuildFakes, fakeNvrtc, realOnesOnLoaderPath } from '../../native/fake-cuda-libraries.ts';

const bin = fileURLToPath(new URL('../../../bin/gpu-lab.js', import.meta.url));

describe.skipIf(!buildInfo().cuda || !canBuildFakes || realOnesOnLoaderPath)('the libraries gpu-lab devices reports', () => {
  it('are found where CUDA_PATH points and where python3\'s site-packages hold NVIDIA\'s wheels, or said why not', () => {
    const root = mkdtempSync(join(tmpdir(), 'gpu-lab-devices-libs-'));
    const nvrtc = fakeNvrtc(join(root, 'cuda/lib64')).library;
    // A cuBLAS that is there but cannot load: the report names that file, not the loader's "not found".
    const sitePackages = join(root, 'venv/lib/python3.12/site-packages');
    const wheelLib = join(sitePackages, 'nvidia/cu13/lib');
    mkdirSync(wheelLib, { recursive: true });
    writeFileSync(join(wheelLib, 'libcublas.so.13'), 'not a shared library\n');
    mkdirSync(join(root, 'bin'));
    writeFileSync(join(root, 'bin/python3'), `#!/bin/sh\nprintf '%s\\n' '${JSON.stringify([sitePackages])}'\n`);
    chmodSync(join(root, 'bin/python3'), 0o755);
    const env = { ...process.env, LANG: 'C.UTF-8', LC_ALL: '', HOME: join(root, 'home'), PATH: join(root, 'bin'), CUDA_PATH: join(root, 'cuda'), CUDA_HOME: '', CONDA_PREFIX: '' };

    const r = spawnSync(process.execPath, [bin, 'devices', '--json'], { encoding: 'utf8', env, timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const { libraries } = (JSON.parse(r.stdout) as { cuda: CudaInventory }).cuda;
    expect(libraries.nvrtc).toEqual({ found: true, soname: 'libnvrtc.so.13', path: nvrtc, version: FAKE_NVRTC_VERSION, reason: null, why: null, detail: null, searched: [] });
    expect(libraries.cublas.found).toBe(false);
    expect(libraries.cublas.reason).toContain(`${join(wheelLib, 'libcublas.so.13')}: `);
    // CUDA_PATH first, then the wheels of the python3 on PATH; the machine's own toolkit folder, if any, after them.
    expect(libraries.cublas.searched.slice(0, 2)).toEqual([dirname(nvrtc), wheelLib]);
  }, 120_000);
});
