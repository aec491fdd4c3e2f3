// A wrong WGSL kernel is caught: copies of shaders/wgsl/ with one operator changed (a − for the + of add, the fused
// vector function's constant dropped, the tiled GEMM's last slab column skipped) are run instead of the real ones (GPU_LAB_SHADERS_DIR), on this machine's
// adapter, and their points fail verification with the wrong elements listed. This file runs in its own process, so
// the real kernels the other tests read are never replaced there.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { MEASUREMENT } from '../../../main/common/measurement.ts';
import type { MeasurementInput } from '../../../main/common/measurement.ts';
import { SHADERS_DIR_ENV } from '../../../main/host/webgpu/wgsl.ts';

const real = new URL('../../../shaders/wgsl/', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'gpu-lab-wgsl-'));
mkdirSync(join(dir, 'wgsl'));
const swap = (file: string, from: string, to: string): void => {
  const text = readFileSync(new URL(file, real), 'utf8');
  if (!text.includes(from)) throw new Error(`${file} no longer holds "${from}"`);
  writeFileSync(join(dir, 'wgsl', file), text.replace(from, to));
};
swap('elementwise.wgsl', 'out[i] = a[i] + b[i];', 'out[i] = a[i] - b[i];');
swap('vector_function.wgsl', 'z[i] = k.a * xi * xi + k.b * y[i] + k.c;', 'z[i] = k.a * xi * xi + k.b * y[i];');
// The tiled GEMM sums 15 of each slab's 16 products; the naive kernel, in the same file, is untouched.
swap('gemm.wgsl', 'for (var kk = 0u; kk < DEPTH; kk++) {', 'for (var kk = 1u; kk < DEPTH; kk++) {');
process.env[SHADERS_DIR_ENV] = dir;
const { measure } = await import('../../../main/host/ops/index.ts');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = { signal: new AbortController().signal, onProgress: (): void => undefined };
const run = (m: Record<string, unknown>): ReturnType<typeof measure> => measure(MEASUREMENT.parse({ device: 'webgpu:0', warmup: 1, repeats: 2, seed: 3, budgetSeconds: 0.2, ...(m.op === 'gemm' ? {} : { elements: 4099 }), ...m } as MeasurementInput), ctx);

describe('a wrong WGSL kernel', () => {
  it('add computing a − b fails verification, listing wrong elements', async () => {
    const r = await run({ op: 'add', variant: 'kernel' });
    expect(r.verification?.passed).toBe(false);
    expect(r.verification?.mismatches.length).toBeGreaterThan(0);
    // mul, from the same file, is still right.
    expect((await run({ op: 'mul', variant: 'kernel' })).verification?.passed).toBe(true);
  });

  it('the fused vector function without its constant fails verification; the three passes, still right, pass', async () => {
    const fused = await run({ op: 'vector-function', variant: 'fused', dtype: 'fp32', a: 3.5, b: 2.8, c: 10 });
    expect(fused.verification?.passed).toBe(false);
    const unfused = await run({ op: 'vector-function', variant: 'unfused', dtype: 'fp32', a: 3.5, b: 2.8, c: 10 });
    expect(unfused.verification?.passed).toBe(true);
  });

  it('the tiled GEMM that skips a column of each slab fails verification, in f32 and f16; the naive one passes', async () => {
    const gemm = { op: 'gemm', m: 70, n: 67, k: 83 };
    const tiled = await run({ ...gemm, variant: 'tiled', dtype: 'fp32' });
    expect(tiled.verification?.passed).toBe(false);
    expect(tiled.verification?.mismatches.length).toBeGreaterThan(0);
    expect((await run({ ...gemm, variant: 'tiled', dtype: 'fp16' })).verification?.passed).toBe(false);
    expect((await run({ ...gemm, variant: 'naive', dtype: 'fp32' })).verification?.passed).toBe(true);
  });
});
