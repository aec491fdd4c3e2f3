// A CPU GEMM's library is chosen by trials on the point's own operands (blas-choice.ts), which write its output: the
// check must still catch a library that leaves the product unwritten, though the trials of a right one wrote it
// before. The libraries are found as the host finds them, in the site-packages an interpreter names (a stand-in
// interpreter that answers with a folder holding a stand-in NumPy library), beside the system's real OpenBLAS.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { MEASUREMENT } from '../../main/common/measurement.ts';
import { measure } from '../../main/host/ops/index.ts';
import { hostBlas } from '../../main/host/blas-host.ts';
import { canBuildFakes, fakeBlas } from './fake-blas-libraries.ts';

const root = mkdtempSync(join(tmpdir(), 'gpu-lab-gemm-check-'));
const sp = join(root, 'site-packages');
const saved = { python: process.env.GPU_LAB_PYTHON, cache: process.env.GPU_LAB_CACHE_DIR };

afterAll(() => {
  for (const [name, value] of [['GPU_LAB_PYTHON', saved.python], ['GPU_LAB_CACHE_DIR', saved.cache]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe.skipIf(!canBuildFakes)('the check of a CPU GEMM after its library\'s trials', () => {
  it('fails a library that writes nothing, though a right one\'s trials filled the output before it', async () => {
    // Writes nothing beyond 10⁷ multiply-adds, so it is the fastest of all.
    const hollow = fakeBlas(join(sp, 'numpy.libs'), 'libscipy_openblas64_-h0110w.so', { prefix: 'scipy_', suffix: '64_', ilp64: true, config: 'OpenBLAS 9.9.9 USE64BITINT FakeLake' });
    const python = join(root, 'python');
    writeFileSync(python, `#!/bin/sh\necho '${JSON.stringify({ sitePackages: [sp], prefixes: [] })}'\n`);
    chmodSync(python, 0o755);
    process.env.GPU_LAB_PYTHON = python;
    process.env.GPU_LAB_CACHE_DIR = root;
    const libraries = (await hostBlas()).libraries;
    expect(libraries.map((l) => l.path)).toContain(hollow);
    // Where the system has no BLAS, no right library wrote the output first, and there is nothing to test.
    if (!libraries.some((l) => l.origin === 'system')) return;
    const n = 450;
    const m = MEASUREMENT.parse({ op: 'gemm', dtype: 'fp64', variant: 'blas', m: n, n, k: n, device: 'cpu', warmup: 1, repeats: 6, seed: 7, budgetSeconds: 1 });
    const result = await measure(m, { signal: new AbortController().signal, onProgress: () => undefined });
    const pick = (await (await hostBlas()).picksMade())[0];
    expect(pick?.library.path).toBe(hollow);
    // The system's OpenBLAS ran in the trials, on this very output.
    expect(pick?.trials.some((t) => t.library.includes('the system'))).toBe(true);
    expect(result.implementation).toContain('9.9.9');
    expect(result.verification?.passed).toBe(false);
  });
});
