// The matrix-product labs on a WebGPU adapter as the runner plans and reads them: matmul's cuBLAS series waived with
// the reason and the WGSL kernels planned in their place (the tiled one also with the copies), matmul-breakeven's GPU
// series on the tiled kernel with a finding that says so; the tiling sentence says faster, slower or level only as the
// two medians' intervals allow (fast-check over medians), with the WGSL kernel's own reuse figures; the copies named
// as WebGPU makes them, and given a share of the time only where the intervals separate; a known adapter's fp32 peak read from its table, none for a software one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { compareTimes, estimateOf } from '../../../main/common/pure/claims.ts';
import type { DeviceList } from '../../../main/common/devices.ts';
import { findLab } from '../../../main/labs/index.ts';
import { labMessage } from '../../../main/labs/lab-text.ts';
import { planContext } from '../../../main/runs/lab-runner.ts';
import { CPU, GPU, LAVAPIPE, pointFromPlan } from './synthetic.ts';

const list = (gpu: typeof LAVAPIPE | typeof GPU): DeviceList => ({ devices: [CPU, gpu], cudaReason: null, webgpuReason: null, blas: 'OpenBLAS' });
const env = (devices: DeviceList): { devices: DeviceList; versions: Record<string, string>; pid: number } => ({ devices, versions: {}, pid: 1 });

function lab(id: string): NonNullable<ReturnType<typeof findLab>> {
  const l = findLab(id);
  if (!l) throw new Error(`no lab ${id}`);
  return l;
}
const defaults = (id: string): Record<string, number | string | number[] | string[]> => Object.fromEntries(lab(id).descriptor.parameters.map((p) => [p.name, p.default]));

describe('matmul on WebGPU', () => {
  const matmul = lab('matmul');
  const params = { ...defaults('matmul'), n: 500 };
  const planned = matmul.plan(params, planContext(env(list(LAVAPIPE)), 'webgpu:0'));

  it('plans the naive and tiled WGSL kernels resident and the tiled one with the copies, in f32, and no cuBLAS', () => {
    const measured = planned.filter((p) => p.measurement && p.device === 'webgpu:0');
    expect(measured.map((p) => [p.series, p.measurement?.op === 'gemm' && [p.measurement.variant, p.measurement.path, p.measurement.dtype]])).toEqual([
      ['gpu-tiled', ['tiled', 'resident', 'fp32']],
      ['gpu-naive', ['naive', 'resident', 'fp32']],
      ['gpu-tiled-transfers', ['tiled', 'with-copies', 'fp32']],
    ]);
    // A software adapter has no peak to read a rate against.
    expect(measured.every((p) => p.peak === null)).toBe(true);
    // On CUDA the tiled kernel is not timed with the copies: cuBLAS is.
    const onCuda = matmul.plan(params, planContext(env(list(GPU)), 'cuda:0'));
    expect(onCuda.some((p) => p.series === 'gpu-tiled-transfers')).toBe(false);
    expect(onCuda.find((p) => p.series === 'gpu-transfers')?.measurement).toMatchObject({ variant: 'cublas', path: 'with-copies' });
  });

  it('reads a known adapter’s resident kernels against its table’s fp32 peak, never the copies', () => {
    const known = { ...LAVAPIPE, name: 'apple m2', peakGflopsFp32: 3600, details: { ...LAVAPIPE.details, software: false, fallbackAdapter: false } };
    const points = matmul.plan(params, planContext(env(list(known)), 'webgpu:0'));
    expect(points.find((p) => p.series === 'gpu-tiled')?.peak).toEqual({ name: 'fp32', unit: 'GFLOP/s', value: 3600 });
    expect(points.find((p) => p.series === 'gpu-tiled-transfers')?.peak).toBeNull();
  });

  it('says the tiled kernel is faster, slower or level only as the two medians’ intervals tell, with the WGSL kernel’s reuse', () => {
    const at = (series: string): NonNullable<(typeof planned)[number]> => {
      const p = planned.find((q) => q.series === series);
      if (!p) throw new Error(`no ${series}`);
      return p;
    };
    fc.assert(
      fc.property(fc.double({ min: 1, max: 1000, noNaN: true }), fc.double({ min: 0.3, max: 3, noNaN: true }), (naiveMs, ratio) => {
        const naive = pointFromPlan(at('gpu-naive'), naiveMs);
        const tiled = pointFromPlan(at('gpu-tiled'), naiveMs * ratio);
        const f = matmul.analyze([naive, tiled], params, LAVAPIPE).findings.find((x) => x.id === 'tiling');
        if (!f) throw new Error('no tiling finding');
        const en = labMessage(f.message, 'en');
        const es = labMessage(f.message, 'es');
        const eTiled = estimateOf(tiled);
        const eNaive = estimateOf(naive);
        if (!eTiled || !eNaive) throw new Error('no estimates');
        const order = compareTimes(eTiled, eNaive);
        expect(en.includes('faster than the naive one') && en.includes('serves 64 multiply-adds')).toBe(order === 'faster');
        expect(es.includes('sirve para 64 multiplicaciones-suma')).toBe(order === 'faster');
        expect(en.includes('was slower than the naive one')).toBe(order === 'slower');
        expect(en.includes('cannot be told apart')).toBe(order === 'indistinguishable');
        // The CUDA kernel's figures are never said of the WGSL one.
        expect(en).not.toContain('128 multiply-adds');
      }),
    );
  });

  it('names WebGPU’s copies in the transfer share, in both languages', () => {
    const points = ['gpu-tiled-transfers', 'gpu-tiled'].map((s, i) => {
      const p = planned.find((q) => q.series === s);
      if (!p) throw new Error(`no ${s}`);
      return pointFromPlan(p, i === 0 ? 400 : 300);
    });
    const f = matmul.analyze(points, params, LAVAPIPE).findings.find((x) => x.id === 'transfer-share');
    if (!f) throw new Error('no transfer share');
    expect(labMessage(f.message, 'en')).toMatch(/^Transfers are 25 % of the end-to-end GPU time \(400 ms with copies, 300 ms without\): 100 ms to write A and B to the GPU with writeBuffer and read C back through a mapped buffer/);
    expect(labMessage(f.message, 'es')).toContain('para escribir A y B en la GPU con writeBuffer y leer C de vuelta a través de un búfer mapeado');
    expect(labMessage(f.message, 'en')).not.toContain('pageable');
  });

  it('gives the copies a share of the time only where the resident time’s interval lies below the time with them', () => {
    const [copied, kept] = ['gpu-tiled-transfers', 'gpu-tiled'].map((s) => {
      const p = planned.find((q) => q.series === s);
      if (!p) throw new Error(`no ${s}`);
      return p;
    }) as [(typeof planned)[number], (typeof planned)[number]];
    fc.assert(
      fc.property(fc.double({ min: 1, max: 1000, noNaN: true }), fc.double({ min: 0.5, max: 3, noNaN: true }), (residentMs, ratio) => {
        const points = [pointFromPlan(copied, residentMs * ratio), pointFromPlan(kept, residentMs)];
        const f = matmul.analyze(points, params, LAVAPIPE).findings.find((x) => x.id === 'transfer-share');
        const [eCopies, eResident] = points.map(estimateOf);
        if (!f || !eCopies || !eResident) throw new Error('no transfer share');
        const shared = labMessage(f.message, 'en').startsWith('Transfers are');
        expect(shared).toBe(compareTimes(eResident, eCopies) === 'faster');
        if (!shared) expect(labMessage(f.message, 'es')).toContain('no se distinguen');
      }),
    );
  });
});

describe('matmul-breakeven on WebGPU', () => {
  const be = lab('matmul-breakeven');
  const params = { ...defaults('matmul-breakeven'), sizes: [64, 128] };

  it('runs its GPU series on the tiled WGSL kernel, and says so in both languages', () => {
    const planned = be.plan(params, planContext(env(list(LAVAPIPE)), 'webgpu:0'));
    const gpu = planned.filter((p) => p.device === 'webgpu:0');
    expect(gpu).toHaveLength(4);
    expect(gpu.every((p) => p.measurement?.op === 'gemm' && p.measurement.variant === 'tiled')).toBe(true);
    const onCuda = be.plan(params, planContext(env(list(GPU)), 'cuda:0')).filter((p) => p.device === 'cuda:0');
    expect(onCuda.every((p) => p.measurement?.op === 'gemm' && p.measurement.variant === 'cublas')).toBe(true);

    const points = planned.map((p) => pointFromPlan(p, 10));
    const f = be.analyze(points, params, LAVAPIPE).findings.find((x) => x.id === 'webgpu-kernel');
    if (!f) throw new Error('no finding names the WGSL kernel');
    expect(labMessage(f.message, 'en')).toBe('On WebGPU the GPU series run GPU Lab’s tiled WGSL kernel (shaders/wgsl/gemm.wgsl), not cuBLAS: WebGPU has no vendor library for matrix products.');
    expect(labMessage(f.message, 'es')).toContain('no cuBLAS: WebGPU no tiene biblioteca del fabricante');
    // A CUDA run's points never get it.
    const cudaPoints = be.plan(params, planContext(env(list(GPU)), 'cuda:0')).map((p) => pointFromPlan(p, 10));
    expect(be.analyze(cudaPoints, params, GPU).findings.some((x) => x.id === 'webgpu-kernel')).toBe(false);
  });
});
