// Kernel runs built by hand from the contract's types, one of each outcome, for the report's tests: their numbers
// hold together as the engine's would (a rate is the exercise's work ÷ the median; a share of peak is the rate ÷
// the H100's peak; the launch covers what its grid and block say).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { Comparison, ExerciseId, KernelRun, KernelRunResult, Throughput } from '../../../main/common/playground.ts';
import { exerciseDefinition } from '../../../main/common/exercises.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const source = (file: string): string => readFileSync(`${repoRoot}shaders/playground/${file}`, 'utf8');

const H100 = { device: 'cuda:0', deviceName: 'NVIDIA H100 80GB HBM3' };
// The H100 SXM's fp32 rate without tensor cores, and its HBM3 bandwidth.
const PEAK = { 'GFLOP/s': { value: 66.9, unit: 'TFLOP/s' }, 'GB/s': { value: 3.35, unit: 'TB/s' } } as const;

// The throughput of one launch of `exercise` at `size` taking `samplesMs`: the median, and the rate the work gives.
export function timed(exercise: ExerciseId, size: number, samplesMs: number[]): Throughput {
  const def = exerciseDefinition(exercise);
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const medianMs = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  // GB/s and GFLOP/s alike: units of work per nanosecond.
  const rate = def.work(size) / (medianMs * 1e6);
  const peak = PEAK[def.metric];
  return { medianMs, samplesMs, rate, peakFraction: rate / (peak.value * 1000) };
}

function compiled(ms: number): KernelRunResult['compile'] {
  return { ok: true, log: '', diagnostics: [], arch: 'sm_90', nvrtcVersion: '12.8', ms };
}

function base(id: string, exercise: ExerciseId, text: string, status: KernelRun['status']): Omit<KernelRun, 'result' | 'error'> {
  return { id, exercise, createdAt: '2026-11-24T09:12:31.000Z', source: text, request: { exercise, source: text, device: 'cuda:0', compare: true }, status };
}

const SGEMM_N = 4096;

// The starter SGEMM, verified, beside both references, the engine's tiled kernel and cuBLAS.
export function verifiedSgemm(): KernelRun {
  const text = source('sgemm.starter.cu');
  const comparison = (id: string, kind: Comparison['kind'], title: string, samples: number[]): Comparison => ({ id, kind, title, throughput: timed('sgemm', SGEMM_N, samples), verified: true, error: null });
  return {
    ...base('2026-11-24T09-12-31-000Z-sgemm-a1b2c3', 'sgemm', text, 'verified'),
    result: {
      exercise: 'sgemm',
      ...H100,
      size: SGEMM_N,
      compile: compiled(38.2),
      launch: { grid: [256, 256, 1], block: [16, 16, 1], registersPerThread: 64, staticSharedBytes: 0, localBytesPerThread: 0, maxThreadsPerBlock: 1024, blocksPerSm: 4, activeWarpsPerSm: 32, maxWarpsPerSm: 64, occupancy: 0.5, threadsLaunched: 1 },
      verification: {
        ok: true,
        checked: 9215,
        total: SGEMM_N * SGEMM_N,
        method: '9215 elements against float64 dot products (the last row, the last column, 1024 at random); every element for having been written',
        tolerance: '3.05e-5 × RMS',
        check: 'sampled-gemm',
        // An fp32 sum of 4096 terms: 8·√4096·2⁻²⁴ = 2⁻¹⁵.
        relativeTolerance: 2 ** -15,
        samples: 1024,
        mismatchCount: 0,
        neverWritten: 0,
        mismatches: [],
        maxRelativeError: 1.2e-6,
      },
      throughput: timed('sgemm', SGEMM_N, [57.1, 57.3, 57.9, 57.2, 58.4]),
      comparisons: [
        comparison('shared-tiles', 'reference', 'Reference: 32×32 tiles in shared memory', [21.6, 21.7, 21.9]),
        comparison('builtin-tiled', 'reference', "Reference: the engine's tiled kernel", [6.91, 6.93, 6.97]),
        comparison('gemm-tiled', 'builtin', 'Built-in tiled kernel (engine, nvcc)', [6.52, 6.55, 6.61]),
        comparison('cublas', 'cublas', 'cuBLAS SGEMM', [2.93, 2.95, 2.99]),
      ],
      peak: PEAK['GFLOP/s'],
      warmup: 3,
      repeats: 5,
      totalMs: 1830,
    },
    error: null,
  };
}

// A SAXPY with a typo on line 4: NVRTC refuses it, nothing is launched.
export function compileErrorSaxpy(): KernelRun {
  const text = source('saxpy.starter.cu').replace('a * x[i] + y[i]', 'a * x[i] + y[j]');
  const line = text.split('\n').findIndex((l) => l.includes('y[j]')) + 1;
  const message = 'identifier "j" is undefined';
  return {
    ...base('2026-11-24T09-20-02-000Z-saxpy-d4e5f6', 'saxpy', text, 'compile-error'),
    result: {
      exercise: 'saxpy',
      ...H100,
      size: 1 << 24,
      compile: { ok: false, log: `saxpy.cu(${line}): error: ${message}\n\n1 error detected in the compilation of "saxpy.cu".\n`, diagnostics: [{ line, column: 44, severity: 'error', message }], arch: 'sm_90', nvrtcVersion: '12.8', ms: 12.4 },
      launch: null,
      verification: null,
      throughput: null,
      comparisons: [],
      peak: PEAK['GB/s'],
      warmup: 3,
      repeats: 20,
      totalMs: 40,
    },
    error: null,
  };
}

const TRANSPOSE_N = 1000;

// A transpose launched with a grid one block short on each side: the last 8 rows and columns are never written.
export function failedTranspose(): KernelRun {
  const text = source('transpose.starter.cu');
  const notWritten = (row: number, col: number) => ({ index: row * TRANSPOSE_N + col, row, col, got: null, expected: col * 0.5 - row, unwritten: true });
  return {
    ...base('2026-11-24T09-31-45-000Z-transpose-0a1b2c', 'transpose', text, 'verification-failed'),
    result: {
      exercise: 'transpose',
      ...H100,
      size: TRANSPOSE_N,
      compile: compiled(21.7),
      launch: { grid: [62, 62, 1], block: [16, 16, 1], registersPerThread: 10, staticSharedBytes: 0, localBytesPerThread: 0, maxThreadsPerBlock: 1024, blocksPerSm: 8, activeWarpsPerSm: 64, maxWarpsPerSm: 64, occupancy: 1, threadsLaunched: (62 * 16) ** 2 / TRANSPOSE_N ** 2 },
      verification: {
        ok: false,
        checked: TRANSPOSE_N ** 2,
        total: TRANSPOSE_N ** 2,
        method: 'every element',
        tolerance: 'exact',
        check: 'every-element',
        relativeTolerance: 0,
        samples: null,
        // Every element never written is also a wrong one: each was checked.
        mismatchCount: TRANSPOSE_N ** 2 - (62 * 16) ** 2,
        neverWritten: TRANSPOSE_N ** 2 - (62 * 16) ** 2,
        mismatches: [notWritten(0, 992), notWritten(0, 993), notWritten(0, 994)],
        maxRelativeError: null,
      },
      throughput: null,
      comparisons: [
        { id: 'builtin-tiled', kind: 'reference', title: "Reference: the engine's tiled transpose", throughput: timed('transpose', TRANSPOSE_N, [0.0061, 0.0062, 0.0064]), verified: true, error: null },
      ],
      peak: PEAK['GB/s'],
      warmup: 3,
      repeats: 20,
      totalMs: 310,
    },
    error: null,
  };
}

// A reduction that never ends: the watchdog stops it, and its compute host with it; no result comes back.
export function timedOutReduction(): KernelRun {
  // `s /= 2` lost its 2: s never reaches 0.
  const text = source('reduction.starter.cu').replace('s /= 2)', 's /= 1)');
  return {
    ...base('2026-11-24T09-40-10-000Z-reduction-3c4d5e', 'reduction', text, 'failed'),
    result: null,
    error: { code: 'TIMEOUT', message: 'The kernel was still running after 5000 ms: it was stopped with its compute host, which has been restarted' },
  };
}

// The starter reduction at its default 2²³ floats (32 MiB) on the H100, whose 50 MiB L2 holds them: read from L2
// after the first launch, faster than DRAM, so the host gave no peak and recorded the two sizes.
export function reductionFromL2(): KernelRun {
  const text = source('reduction.starter.cu');
  const size = 2 ** 23;
  const fromL2 = (samples: number[]): Throughput => ({ ...timed('reduction', size, samples), peakFraction: null });
  return {
    ...base('2026-11-24T09-50-00-000Z-reduction-6f7a8b', 'reduction', text, 'verified'),
    result: {
      exercise: 'reduction',
      ...H100,
      size,
      compile: compiled(35.4),
      launch: { grid: [32768, 1, 1], block: [256, 1, 1], registersPerThread: 16, staticSharedBytes: 1024, localBytesPerThread: 0, maxThreadsPerBlock: 1024, blocksPerSm: 8, activeWarpsPerSm: 64, maxWarpsPerSm: 64, occupancy: 1, threadsLaunched: 1 },
      verification: {
        ok: true,
        checked: 1,
        total: 1,
        method: 'the total against a float64 sum',
        tolerance: 'exact',
        check: 'total',
        relativeTolerance: 0,
        samples: null,
        mismatchCount: 0,
        neverWritten: 0,
        mismatches: [],
        maxRelativeError: 0,
      },
      // 33.5 MB in 6.7 µs: 5 TB/s, past the 3.35 TB/s of DRAM.
      throughput: fromL2([0.0067, 0.0068, 0.0066, 0.0069, 0.0067]),
      comparisons: [{ id: 'warp-shuffle', kind: 'reference', title: 'Reference: warp shuffle', throughput: fromL2([0.0061, 0.0062, 0.0061]), verified: true, error: null }],
      peak: null,
      l2: { workingSetBytes: 4 * size, l2Bytes: 50 * 2 ** 20 },
      warmup: 3,
      repeats: 5,
      totalMs: 640,
    },
    error: null,
  };
}
