// The WebGPU backend on this machine's real adapter (Mesa's lavapipe through Vulkan, from scripts/bootstrap.sh; or
// Dawn's OpenGL ES backend where Vulkan has none): every WGSL kernel of the vector function and the elementwise ops
// checked element by element against the float64 reference, resident and with the copies; timestamp queries read at
// full resolution where the adapter has them; and what WebGPU cannot run (float64, the other ops) refused by name.
// The adapter and backend the tests ran on are in the suite's title.
import { describe, expect, it } from 'vitest';

import { GpuLabError } from '../../../main/common/errors.ts';
import { MEASUREMENT } from '../../../main/common/measurement.ts';
import type { MeasurementInput } from '../../../main/common/measurement.ts';
import { adapterName } from '../../../main/common/webgpu-adapters.ts';
import { measure } from '../../../main/host/ops/index.ts';
import { webgpuAdapters } from '../../../main/host/webgpu/dawn.ts';

const search = await webgpuAdapters();
const adapter = search.adapters[0];
const ctx = { signal: new AbortController().signal, onProgress: (): void => undefined };
// Not a multiple of the workgroup (256): the last workgroup's spare invocations must write nothing.
const N = 100_003;
const run = (m: Record<string, unknown>): ReturnType<typeof measure> => measure(MEASUREMENT.parse({ device: 'webgpu:0', warmup: 1, repeats: 3, seed: 11, budgetSeconds: 0.3, ...m } as MeasurementInput), ctx);

describe(`WebGPU on ${adapter ? `${adapterName(adapter.facts)} through ${adapter.backend}` : 'no adapter'}`, () => {
  it('finds an adapter (scripts/bootstrap.sh installs lavapipe)', () => {
    expect(adapter, search.reason ?? '').toBeDefined();
  });

  it.each([
    ['fused', 'resident'],
    ['unfused', 'resident'],
    ['fused', 'with-copies'],
  ])('the vector function, %s, %s, in float32: every element within the tolerance of the float64 reference', async (variant, path) => {
    const r = await run({ op: 'vector-function', variant, path, dtype: 'fp32', elements: N, a: 3.5, b: 2.8, c: 10 });
    expect(r.verification).toMatchObject({ passed: true, checked: N, total: N });
    expect(r.implementation).toContain('shaders/wgsl/vector_function.wgsl');
    expect(r.hostMs.length).toBeGreaterThan(0);
    expect(r.hostMs.every((ms) => ms > 0)).toBe(true);
  });

  it.each([
    ['add', 'resident'],
    ['mul', 'resident'],
    ['exp', 'resident'],
    ['add', 'with-copies'],
    ['exp', 'with-copies'],
  ])('%s, %s: every element within the tolerance of the float64 reference', async (op, path) => {
    const r = await run({ op, variant: 'kernel', path, elements: N });
    expect(r.verification).toMatchObject({ passed: true, checked: N, total: N });
    expect(r.implementation).toContain('shaders/wgsl/elementwise.wgsl');
  });

  it('times a resident kernel with timestamp queries at full resolution where the adapter has them, else says the host clock', async () => {
    const r = await run({ op: 'mul', variant: 'kernel', elements: N });
    const resolution = r.clockResolution;
    if (!resolution) throw new Error('a WebGPU point carries its clock resolution');
    expect(resolution.hostMs).toBeGreaterThan(0);
    if (adapter?.features.includes('timestamp-query')) {
      expect(resolution.timestamps).toBe('unquantised');
      expect(r.deviceMs?.length).toBe(r.hostMs.length);
      expect(r.deviceMs?.every((ms) => ms > 0)).toBe(true);
    } else {
      expect(resolution.timestamps).toBe('none');
      expect(r.deviceMs).toBeNull();
    }
    // The copies are timed on the host: no timestamps.
    const copies = await run({ op: 'mul', variant: 'kernel', path: 'with-copies', elements: N });
    expect(copies.clockResolution?.timestamps).toBe('none');
    expect(copies.deviceMs).toBeNull();
  });

  it('refuses float64 (WGSL has none) and the operations it has no WGSL for, naming them', async () => {
    const fp64 = run({ op: 'vector-function', variant: 'fused', elements: N, a: 1, b: 1, c: 1 });
    await expect(fp64).rejects.toThrow(/WebGPU device \(webgpu:0\) does not run fp64 \(WGSL has no 64-bit float type\)/);
    await expect(fp64).rejects.toBeInstanceOf(GpuLabError);
    await expect(run({ op: 'blas1', routine: 'sum', elements: N })).rejects.toThrow(/does not run the blas1 operation/);
    await expect(run({ op: 'empty' })).rejects.toThrow(/does not run the empty operation/);
    await expect(run({ op: 'add', variant: 'threads', elements: N })).rejects.toThrow(/does not run the CPU's threads loop/);
  });
});
