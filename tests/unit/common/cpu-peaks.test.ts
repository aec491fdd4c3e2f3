import { describe, expect, it } from 'vitest';

import { estimateCpuPeaks, type CpuFacts } from '../../../main/common/cpu-peaks.ts';

// A 16-core Cooper Lake Xeon whose cpufreq reads 3.5 GHz, and the same seen by a VM that hides cpufreq.
const XEON: CpuFacts = { vendor: 'GenuineIntel', family: 6, model: 85, modelName: 'Intel(R) Xeon(R) Processor', physicalCores: 16, flags: ['sse4_2', 'avx', 'avx2', 'fma', 'avx512f'], maxClockMHz: 3500 };

describe('the CPU peak estimate', () => {
  it('is cores × maximum clock × SIMD lanes × FMA units × 2, written out and called an estimate', () => {
    const e = estimateCpuPeaks(XEON);
    // 16 × 3.5 GHz × 16 lanes × 2 units × 2 = 3584 GFLOP/s fp32; half the lanes for fp64.
    expect(e.fp32Gflops).toBe(3584);
    expect(e.fp64Gflops).toBe(1792);
    expect(e.fp32Formula).toBe('estimate: 16 cores × 3500 MHz (cpufreq maximum) × 16 fp32 lanes (AVX-512) × 2 FMA units (Intel Xeon Scalable) × 2 FLOP = 3584 GFLOP/s');
    expect(e.reason).toBeNull();
  });

  it('takes 8 lanes for AVX2 and for AMD before Zen 5 even with AVX-512 flags, 4 without either', () => {
    const zen4 = { ...XEON, vendor: 'AuthenticAMD', family: 25, model: 17 };
    expect(estimateCpuPeaks(zen4).fp32Gflops).toBe(16 * 3.5 * 8 * 2 * 2);
    expect(estimateCpuPeaks({ ...XEON, flags: ['avx2', 'fma'] }).fp32Gflops).toBe(16 * 3.5 * 8 * 2 * 2);
    expect(estimateCpuPeaks({ ...XEON, flags: ['sse4_2'] }).fp32Gflops).toBe(16 * 3.5 * 4 * 2 * 2);
  });

  it('reads the base clock in the model name where cpufreq is hidden, and says so', () => {
    const e = estimateCpuPeaks({ ...XEON, maxClockMHz: null, modelName: 'Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz' });
    expect(e.fp32Formula).toContain('2500 MHz (base clock in the model name)');
  });

  it('gives no FLOP peak, and says why, for an unknown microarchitecture or clock', () => {
    expect(estimateCpuPeaks({ ...XEON, model: 999 })).toMatchObject({ fp32Gflops: null, fp64Gflops: null, reason: expect.stringMatching(/FMA units of this CPU .* are not in the table/) });
    expect(estimateCpuPeaks({ ...XEON, maxClockMHz: null })).toMatchObject({ fp32Gflops: null, reason: expect.stringMatching(/maximum clock/) });
  });
});
