import { describe, expect, it } from 'vitest';

import { computePeak, datasheetPeak, gemmPeakName, gpuPeaks, memoryPeak } from '../../../main/common/pure/gpu-peaks.ts';
import { gpuPeak } from '../../../main/labs/plan-helpers.ts';
import type { DeviceSummary } from '../../../main/common/devices.ts';

// An H100 SXM as its attributes read on the GPU machine.
const H100 = { computeCapability: '9.0', multiprocessors: 132, smClockMHz: 1980, memoryClockMHz: 2619, memoryBusWidthBits: 5120, l2CacheBytes: 50 * 2 ** 20 };
const A100 = { computeCapability: '8.0', multiprocessors: 108, smClockMHz: 1410, memoryClockMHz: 1215, memoryBusWidthBits: 5120 };

const summary = (details: Record<string, string | number>, name = 'GPU'): DeviceSummary => ({
  id: 'cuda:0', kind: 'cuda', name, peakGflopsFp32: 66_908, peakGflopsFp64: 33_454, peakMemoryGBps: 3352, memoryBytes: 80e9, details,
});

const TFLOPS = (t: number): number => t * 1000;

describe('the GPU peak table', () => {
  it('gives an H100 SXM the rates NVIDIA publishes, within a few percent', () => {
    // Published: fp32 67, fp64 34, fp64 tensor 67, tf32 495, fp16/bf16 989 (at a lower tensor clock), int8 1979 TOP/s.
    const value = (name: Parameters<typeof computePeak>[1]): number => computePeak(H100, name)?.value ?? NaN;
    expect(value('fp32')).toBeCloseTo(TFLOPS(66.9), -2);
    expect(value('fp64')).toBeCloseTo(TFLOPS(33.45), -2);
    expect(value('fp64-tensor')).toBeCloseTo(TFLOPS(66.9), -2);
    expect(value('tf32-tensor') / TFLOPS(495)).toBeGreaterThanOrEqual(1);
    expect(value('fp16-tensor') / TFLOPS(989)).toBeLessThan(1.1);
    expect(computePeak(H100, 'int8-tensor')?.unit).toBe('GOP/s');
    expect(memoryPeak(H100)?.value).toBeCloseTo(3352.3, 1);
  });

  it('writes the arithmetic out', () => {
    expect(computePeak(H100, 'fp64-tensor')?.formula).toBe('132 SMs × 256 FLOP/clock × 1980 MHz = 66908 GFLOP/s (Hopper, sm_90)');
    expect(memoryPeak(H100)?.formula).toBe('2 × 2619 MHz × 5120 bit / 8 = 3352.3 GB/s');
  });

  it('gives an A100 its 19.5 TFLOP/s of fp64 tensor cores and 312 of fp16', () => {
    expect(computePeak(A100, 'fp64-tensor')?.value).toBeCloseTo(TFLOPS(19.5), -2);
    expect(computePeak(A100, 'fp16-tensor')?.value).toBeCloseTo(TFLOPS(312), -3);
  });

  it('knows no peak for a compute capability or a unit it lacks', () => {
    expect(computePeak({ ...H100, computeCapability: '12.0' }, 'fp32')).toBeNull();
    expect(computePeak({ ...H100, computeCapability: '7.0' }, 'bf16-tensor')).toBeNull();
    expect(gpuPeaks({ computeCapability: '7.0', multiprocessors: 80, smClockMHz: 1530 }).map((p) => p.name)).toEqual(['fp32', 'fp64', 'fp16-tensor']);
  });

  it('reads a cuBLAS fp64 GEMM on sm_80 and sm_90 against the fp64 tensor cores, elsewhere against the FMA lanes', () => {
    expect(gemmPeakName('fp64', '9.0')).toBe('fp64-tensor');
    expect(gemmPeakName('fp64', '8.0')).toBe('fp64-tensor');
    expect(gemmPeakName('fp64', '8.6')).toBe('fp64');
    expect(gemmPeakName('fp64', '9.0', false)).toBe('fp64');
    expect(gemmPeakName('fp64', 'unknown')).toBeNull();
    expect(gemmPeakName('bf16', '9.0')).toBe('bf16-tensor');
  });
});

describe('a point\'s peak', () => {
  const gemm = (dtype: 'fp64' | 'fp32' | 'tf32' | 'fp16' | 'bf16' | 'int8') => ({ op: 'gemm' as const, dtype, variant: 'cublas' as const, m: 4096, n: 4096, k: 4096, warmup: 1, repeats: 5, seed: 1 });

  it('is the fp64 tensor peak for the H100\'s DGEMM, so 61.27 TFLOP/s reads 92 %, not 183 %', () => {
    const peak = gpuPeak(gemm('fp64'), summary(H100));
    expect(peak?.name).toBe('fp64-tensor');
    expect(61_270 / (peak?.value ?? 0)).toBeCloseTo(0.916, 2);
  });

  it('is the tensor peak of fp16, bf16, tf32 and int8 GEMMs', () => {
    expect(gpuPeak(gemm('fp16'), summary(H100))?.name).toBe('fp16-tensor');
    expect(gpuPeak(gemm('tf32'), summary(H100))?.name).toBe('tf32-tensor');
    expect(gpuPeak(gemm('int8'), summary(H100))).toMatchObject({ name: 'int8-tensor', unit: 'GOP/s' });
  });

  it('is none on a GPU the table does not know, rather than a guess', () => {
    expect(gpuPeak(gemm('fp64'), summary({ computeCapability: '12.0', multiprocessors: 100, smClockMHz: 2000 }))).toBeNull();
  });

  it('is none for a memory-bound kernel whose data fits in L2, and DRAM bandwidth above it', () => {
    const add = (elements: number) => ({ op: 'add' as const, variant: 'kernel' as const, elements, warmup: 1, repeats: 5, seed: 1 });
    const small = { flops: 1e6, bytes: 12e6, elements: 1e6 };
    const large = { flops: 1e8, bytes: 12e8, elements: 1e8 };
    expect(gpuPeak(add(1e6), summary(H100), small)).toBeNull();
    expect(gpuPeak(add(1e8), summary(H100), large)).toMatchObject({ name: 'memory', unit: 'GB/s' });
  });
});

describe('NVIDIA’s own figures', () => {
  const gemm = (dtype: 'fp64' | 'fp32' | 'fp16') => ({ op: 'gemm' as const, dtype, variant: 'cublas' as const, m: 4096, n: 4096, k: 4096, warmup: 1, repeats: 5, seed: 1 });

  it('are what a teacher looks up for an H100 SXM and an H200: 989.5 TFLOP/s fp16, not the 1071 of the 1980 MHz clock', () => {
    for (const name of ['NVIDIA H100 80GB HBM3', 'NVIDIA H200']) {
      expect(datasheetPeak(name, 'fp16-tensor')).toMatchObject({ value: 989_500, unit: 'GFLOP/s' });
      expect(datasheetPeak(name, 'int8-tensor')).toMatchObject({ value: 1_979_000, unit: 'GOP/s' });
      expect(computePeak(H100, 'fp16-tensor')?.value).toBeCloseTo(1_070_531, 0);
    }
    expect(datasheetPeak('NVIDIA H200', 'memory')?.value).toBe(4_800);
    expect(datasheetPeak('NVIDIA H100 80GB HBM3', 'memory')?.value).toBe(3_350);
    expect(datasheetPeak('NVIDIA A100-SXM4-80GB', 'fp64-tensor')?.value).toBe(19_500);
  });

  it('are none for a card or a unit the datasheets do not give', () => {
    expect(datasheetPeak('NVIDIA GeForce RTX 4090', 'fp16-tensor')).toBeNull();
    expect(datasheetPeak('Tesla T4', 'fp64-tensor')).toBeNull();
    expect(datasheetPeak(undefined, 'fp32')).toBeNull();
  });

  it('are what a point’s share is read against where the card is known, else the table’s figure at the clock', () => {
    // 757.8 TFLOP/s of fp16 on an H100 SXM: 77 % of NVIDIA’s 989.5, where the clock's 1071 would give 71 %.
    const known = gpuPeak(gemm('fp16'), summary(H100, 'NVIDIA H100 80GB HBM3'));
    expect(known).toMatchObject({ name: 'fp16-tensor', value: 989_500, source: 'datasheet' });
    expect(757_800 / (known?.value ?? 0)).toBeCloseTo(0.766, 3);
    const unknown = gpuPeak(gemm('fp16'), summary(H100, 'Some other Hopper'));
    expect(unknown?.value).toBeCloseTo(1_070_531, 0);
    expect(unknown?.source).toBeUndefined();
  });
});
