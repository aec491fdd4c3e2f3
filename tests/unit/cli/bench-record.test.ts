// A bench row is a lab point written as a row: the same statistics and rates (point-result.ts), and a result that
// failed verification has no time and no rate.
import { describe, expect, it } from 'vitest';

import { benchRecord } from '../../../main/cli/bench.ts';
import type { MeasurementResult } from '../../../main/common/measurement.ts';
import { cpuBenchPlan, cudaBenchPlan } from '../../../main/labs/bench-plan.ts';
import { measuredPoint } from '../../../main/runs/point-result.ts';

const add = cpuBenchPlan({ scale: 1e-5 }).find((p) => p.id === 'add' && p.variant === 'single');
if (!add) throw new Error('the CPU plan has add on one thread');
const result = (passed: boolean): MeasurementResult => ({
  clock: 'host',
  hostMs: [1, 2, 3],
  deviceMs: null,
  implementation: 'loop',
  threads: 1,
  executionsPerSample: 1,
  verification: { method: 'full', checked: 10, total: 10, relativeError: passed ? 1e-9 : 0.5, tolerance: 1e-5, passed, mismatches: [] },
  telemetry: null,
});

describe('a bench row', () => {
  it('that failed verification carries no time and no rate', () => {
    const failed = benchRecord(add, measuredPoint(add, result(false)));
    expect(failed.verified).toBe(false);
    expect([failed.medianMs, failed.minMs, failed.maxMs]).toEqual([null, null, null]);
    expect(failed.gbps).toBeUndefined();
    expect(failed.relativeError).toBe(0.5);
  });

  it('that passed has the median, the spread and the rate of the counted bytes', () => {
    const ok = benchRecord(add, measuredPoint(add, result(true)));
    expect([ok.medianMs, ok.minMs, ok.maxMs, ok.samples]).toEqual([2, 1, 3, 3]);
    // add reads two fp32 and writes one: 12 bytes an element; GB/s = bytes / (ms · 10⁶).
    expect(ok.gbps).toBeCloseTo((12 * add.size) / 2e6, 12);
  });

  it('the CUDA plan names its rows as the peers comparison reads them, and counts d2d both ways', () => {
    const plan = cudaBenchPlan('cuda:0', { scale: 0.001 });
    const names = plan.map((p) => `${p.id}/${p.variant}`);
    for (const name of ['gemm-fp32/resident', 'gemm-fp32/with-copies', 'gemm-int8/resident', 'sgemm-naive/naive', 'sgemm-tiled/tiled', 'vector-function/fused', 'vector-function/with-copies', 'h2d/pinned', 'd2h/pageable', 'd2d/device', 'empty/events', 'empty/host', 'empty/host-nosync']) {
      expect(names).toContain(name);
    }
    const d2d = plan.find((p) => p.id === 'd2d');
    expect(d2d?.work.bytes).toBe(2 * (d2d?.size ?? 0));
    expect(plan.find((p) => p.id === 'gemm-int8')?.optional).toBe(true);
  });
});
