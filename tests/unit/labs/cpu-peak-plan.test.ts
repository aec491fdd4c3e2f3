// CPU GEMM points are read against the CPU's estimated peak at their type (the plan context's CPU summary, as
// host/cpu-peaks.ts fills it in), marked as an estimate; a CPU without an estimate and a GEMM held to fewer threads
// than the cores the estimate counts get none. Elementwise points whose arrays come from memory read against the
// CPU's measured memory bandwidth (host/cpu-bandwidth.ts), marked measured.
import { describe, expect, it } from 'vitest';

import type { DeviceSummary } from '../../../main/common/devices.ts';
import { validateParams } from '../../../main/common/params.ts';
import { RUN_RECORD, shareOfPeak, type PointResult } from '../../../main/common/run-record.ts';
import { findLab } from '../../../main/labs/index.ts';
import type { Lab, PlanContext, PlannedPoint } from '../../../main/labs/lab.ts';
import { cpuPeak } from '../../../main/labs/plan-helpers.ts';
import { CPU, WITH_GPU, pointFromPlan } from './synthetic.ts';

// A CPU whose device list carries estimated peaks, as withCpuPeaks (host/cpu-peaks.ts) leaves it.
const ESTIMATED: DeviceSummary = {
  ...CPU,
  peakGflopsFp32: 400,
  peakGflopsFp64: 200,
  details: {
    logicalCores: 4,
    physicalCores: 2,
    peakSource: 'estimate',
    peakFp32Formula: 'estimate: 2 cores × 3125 MHz (cpufreq maximum) × 16 fp32 lanes (AVX-512) × 2 FMA units × 2 FLOP = 400 GFLOP/s',
    peakFp64Formula: 'estimate: 2 cores × 3125 MHz (cpufreq maximum) × 8 fp64 lanes (AVX-512) × 2 FMA units × 2 FLOP = 200 GFLOP/s',
  },
};
const WITH_ESTIMATE: PlanContext = { ...WITH_GPU, cpu: ESTIMATED, cpuThreads: 4 };

function lab(id: string): Lab {
  const found = findLab(id);
  if (!found) throw new Error(id);
  return found;
}

function plan(id: string, ctx: PlanContext, params: Record<string, unknown> = {}): PlannedPoint[] {
  const l = lab(id);
  return l.plan(validateParams(id, l.descriptor.parameters, params), ctx);
}

const cpuPoints = (points: readonly PlannedPoint[]): PlannedPoint[] => points.filter((p) => p.device === 'cpu');

describe('a CPU GEMM point', () => {
  it('carries the fp32 estimate of the context’s CPU in matmul and matmul-breakeven, marked as an estimate', () => {
    const matmul = plan('matmul', WITH_ESTIMATE).find((p) => p.key === 'cpu-blas');
    expect(matmul?.peak).toEqual({ name: 'fp32', unit: 'GFLOP/s', value: 400, source: 'estimate' });
    const breakeven = cpuPoints(plan('matmul-breakeven', WITH_ESTIMATE));
    expect(breakeven.length).toBeGreaterThan(1);
    for (const p of breakeven) expect(p.peak, p.key).toEqual({ name: 'fp32', unit: 'GFLOP/s', value: 400, source: 'estimate' });
  });

  it('carries the estimate at its own type in dtypes: fp64 against the fp64 estimate', () => {
    const points = plan('dtypes', WITH_ESTIMATE);
    expect(points.find((p) => p.key === 'cpu-fp64')?.peak).toEqual({ name: 'fp64', unit: 'GFLOP/s', value: 200, source: 'estimate' });
    expect(points.find((p) => p.key === 'cpu-fp32')?.peak).toEqual({ name: 'fp32', unit: 'GFLOP/s', value: 400, source: 'estimate' });
  });

  it('carries none where the CPU has no estimate', () => {
    for (const id of ['matmul', 'matmul-breakeven', 'dtypes']) {
      const cpu = cpuPoints(plan(id, WITH_GPU));
      expect(cpu.length, id).toBeGreaterThan(0);
      for (const p of cpu) expect(p.peak ?? null, `${id} ${p.key}`).toBeNull();
    }
  });

  it('carries none when held to fewer threads than the physical cores the estimate counts, and the estimate on all of them', () => {
    for (const p of cpuPoints(plan('matmul-breakeven', WITH_ESTIMATE, { threads: 1 }))) expect(p.peak ?? null, p.key).toBeNull();
    for (const p of cpuPoints(plan('matmul-breakeven', WITH_ESTIMATE, { threads: 2 }))) expect(p.peak?.source, p.key).toBe('estimate');
  });

  it('keeps GPU points on the peak table (no source: the table’s)', () => {
    const gpu = plan('matmul', WITH_ESTIMATE).find((p) => p.key === 'gpu-cublas');
    expect(gpu?.peak?.source).toBeUndefined();
  });

  it('records the estimate in the point, which reads back through the record’s schema, and its share is not clamped', () => {
    const planned = plan('matmul', WITH_ESTIMATE).find((p) => p.key === 'cpu-blas');
    if (!planned) throw new Error('no cpu-blas');
    // 2·N³ FLOPs in a time that gives 520 GFLOP/s: 130 % of the 400 GFLOP/s estimate.
    const ms = planned.work.flops / (520 * 1e6);
    const point: PointResult = pointFromPlan(planned, ms);
    expect(point.peak?.source).toBe('estimate');
    expect(shareOfPeak(point)).toBeCloseTo(1.3, 6);
    const schema = RUN_RECORD.shape.points.element;
    expect(schema.parse(point).peak).toEqual(point.peak);
    // A record from before the source was recorded still parses: absent is the table's.
    const { source: _source, ...old } = point.peak ?? { name: 'fp32', unit: 'GFLOP/s', value: 1 };
    expect(schema.parse({ ...point, peak: old }).peak?.source).toBeUndefined();
  });
});

describe('an elementwise CPU point', () => {
  it('carries no peak where the CPU\u2019s memory bandwidth was not measured, even where it has a FLOP estimate', () => {
    for (const id of ['elementwise-breakeven', 'vector-function']) {
      const cpu = cpuPoints(plan(id, WITH_ESTIMATE));
      expect(cpu.length, id).toBeGreaterThan(0);
      for (const p of cpu) expect(p.peak ?? null, `${id} ${p.key}`).toBeNull();
    }
    expect(cpuPeak({ op: 'add', variant: 'threads', elements: 1000, warmup: 1, repeats: 3, seed: 1 }, ESTIMATED)).toBeNull();
  });

  it('reads against the measured bandwidth, marked measured, only where its arrays are four times the last-level cache', () => {
    // 32 MiB of L3: arrays from 128 MiB in all come from memory.
    const measured: DeviceSummary = { ...ESTIMATED, peakMemoryGBps: 20, details: { ...ESTIMATED.details, l3CacheBytes: 32 * 2 ** 20, peakMemorySource: 'measured', peakMemoryFormula: 'measured: STREAM-style add' } };
    const ctx: PlanContext = { ...WITH_ESTIMATE, cpu: measured };
    const peak = { name: 'memory', unit: 'GB/s', value: 20, source: 'measured' };
    // add: 12 bytes an element; 10⁷ elements are 120 MB (under 128 MiB), 10⁸ are 1.2 GB.
    const points = cpuPoints(plan('elementwise-breakeven', ctx, { ops: ['add'], minExponent: 6, maxExponent: 8, pointsPerDecade: 1 }));
    expect(points.map((p) => [p.x, p.peak ?? null])).toEqual([
      [1e6, null],
      [1e7, null],
      [1e8, peak],
    ]);
    // The vector function at its default 5 M elements moves 120 MB: in the cache's reach; at 50 M it is memory's.
    for (const p of cpuPoints(plan('vector-function', ctx))) expect(p.peak ?? null, p.key).toBeNull();
    for (const p of cpuPoints(plan('vector-function', ctx, { elements: 50_000_000 }))) expect(p.peak, p.key).toEqual(peak);
    // A share over 100 % stays as it is.
    const big = cpuPoints(plan('vector-function', ctx, { elements: 50_000_000 }))[0];
    if (!big) throw new Error('no CPU point');
    expect(shareOfPeak(pointFromPlan(big, big.work.bytes / (25 * 1e6)))).toBeCloseTo(1.25, 6);
    expect(RUN_RECORD.shape.points.element.parse(pointFromPlan(big, 10)).peak?.source).toBe('measured');
  });
});
