// A WebGPU run compared with a CUDA run of the same lab and parameters (the compare page and the PDF's comparison,
// compare-rows.ts): a ratio only between like points. The vector function's GPU points are not alike (float32 on
// WebGPU, float64 on CUDA: other bytes) and get no ratio, naming why; its CPU points and matmul's hand-written kernels
// are, and get one; what one run waived has no ratio; WebGPU's own timing series stand alone.
import { describe, expect, it } from 'vitest';

import { translator } from '../../../../main/common/pure/i18n/index.ts';
import type { DeviceList } from '../../../../main/common/devices.ts';
import type { RunRecord } from '../../../../main/common/run-record.ts';
import { findLab } from '../../../../main/labs/index.ts';
import { planContext } from '../../../../main/runs/lab-runner.ts';
import { compareRows } from '../../../../main/common/pure/charts/compare-rows.ts';
import { CPU, GPU, LAVAPIPE, pointFromPlan } from '../../labs/synthetic.ts';

const t = translator('en');
const env = (gpu: typeof LAVAPIPE | typeof GPU): { devices: DeviceList; versions: Record<string, string>; pid: number } => ({ devices: { devices: [CPU, gpu], cudaReason: null, webgpuReason: null, blas: 'OpenBLAS' }, versions: {}, pid: 1 });

// A run of `lab` with its defaults on `device`, every measured point at `ms`, the waived ones as waived.
function runOn(lab: string, device: 'cuda:0' | 'webgpu:0', params: Record<string, number>, ms: number): RunRecord {
  const l = findLab(lab);
  if (!l) throw new Error(`no lab ${lab}`);
  const values = { ...Object.fromEntries(l.descriptor.parameters.map((p) => [p.name, p.default])), ...params };
  const planned = l.plan(values, planContext(env(device === 'cuda:0' ? GPU : LAVAPIPE), device));
  const points = planned.map((p) => (p.measurement ? pointFromPlan(p, ms) : { ...pointFromPlan(p, ms), status: 'waived' as const, reason: p.waived, stats: null, hostMs: [], deviceMs: null, gflops: null, gbps: null }));
  return { lab, device, params: values, points } as unknown as RunRecord;
}

describe('a WebGPU run beside a CUDA run', () => {
  it('gives the vector function’s GPU points no ratio (float32 against float64), its CPU points one', () => {
    const rows = compareRows(runOn('vector-function', 'cuda:0', { elements: 1_000_000 }, 10), runOn('vector-function', 'webgpu:0', { elements: 1_000_000 }, 20), t);
    const fused = rows.find((r) => r.key === 'gpu-fused');
    expect(fused).toMatchObject({ presence: 'both', comparable: false, ratio: null });
    expect(fused?.fasterText).toBe('different work: not comparable');
    expect(rows.find((r) => r.key === 'cpu-single')).toMatchObject({ comparable: true, ratio: 2 });
  });

  it('compares matmul’s hand-written kernels, not what one side waived, and leaves WebGPU’s own series alone', () => {
    const rows = compareRows(runOn('matmul', 'cuda:0', { n: 512 }, 10), runOn('matmul', 'webgpu:0', { n: 512 }, 40), t);
    expect(rows.find((r) => r.key === 'gpu-tiled')).toMatchObject({ comparable: true, ratio: 4, faster: 'A' });
    expect(rows.find((r) => r.key === 'gpu-cublas')).toMatchObject({ presence: 'both', ratio: null });
    expect(rows.find((r) => r.key === 'gpu-tiled-transfers')).toMatchObject({ presence: 'B', ratio: null });
    const tp = compareRows(runOn('timing-pitfalls', 'cuda:0', { n: 256 }, 10), runOn('timing-pitfalls', 'webgpu:0', { n: 256 }, 10), t);
    expect(tp.filter((r) => r.key.startsWith('webgpu-')).every((r) => r.presence === 'B' && r.ratio === null)).toBe(true);
  });
});
