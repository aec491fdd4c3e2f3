// compute-sanitizer's memcheck over every exercise's starter and reference kernels (compiled by NVRTC, launched by
// the playground), at sizes with partial blocks and tails: no out-of-bounds or misaligned access. Skipped where
// compute-sanitizer is not installed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { skipWithoutGpu } from './helpers.ts';

const sanitizer = ['/usr/local/cuda/bin/compute-sanitizer', ...(process.env.PATH ?? '').split(':').map((d) => join(d, 'compute-sanitizer'))].find((p) => existsSync(p));

describe('compute-sanitizer memcheck over the playground kernels', { skip: skipWithoutGpu || (sanitizer ? false : 'compute-sanitizer is not installed') }, () => {
  it('reports 0 errors', { timeout: 540_000 }, () => {
    const script = join(import.meta.dirname, 'playground', 'memcheck-run.ts');
    // API errors are not memory errors, and the addon makes one on purpose per kernel it loads: it counts a
    // kernel's parameters by asking cudaFuncGetParamInfo for one past the last.
    const args = ['--tool', 'memcheck', '--leak-check', 'no', '--report-api-errors', 'no', '--error-exitcode', '3', process.execPath, script];
    const r = spawnSync(sanitizer ?? 'compute-sanitizer', args, { encoding: 'utf8', timeout: 520_000 });
    const output = `${r.stdout}\n${r.stderr}`;
    process.stdout.write(output.split('\n').filter((l) => /verified|FAILED|ERROR SUMMARY/.test(l)).map((l) => `[memcheck] ${l}\n`).join(''));
    assert.match(output, /ERROR SUMMARY: 0 errors/);
    assert.doesNotMatch(output, /Invalid (__global__|__shared__|__local__)|Misaligned/);
    assert.equal(r.status, 0, output.slice(-3000));
  });
});
