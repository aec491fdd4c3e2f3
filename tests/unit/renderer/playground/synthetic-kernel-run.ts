// Kernel runs written by hand for the renderer's unit tests (never recorded: the recorded ones are the lead's, under
// tests/fixtures/kernel-runs/). A SAXPY run whose figures follow from its arithmetic: 2²⁴ elements of 12 bytes
// (x and y read, out written) are 201.3 MB, so 0.0671 ms is 3000 GB/s; an SGEMM run in GFLOP/s; and the outcomes a
// run can have besides a verified one.
import { createI18n } from 'vue-i18n';

import type { ExerciseDescriptor, KernelRun, KernelRunResult, Throughput } from '../../../../main/common/playground.ts';
import type { ChartInputs } from '../../../../main/common/pure/charts/chart-common.ts';
import { LIGHT_CHART_THEME } from '../../../../main/common/pure/charts/palette.ts';
import type { Translate } from '../../../../main/common/pure/charts/text.ts';
import { appMessages as en } from '../../../../main/common/pure/i18n/en/index.ts';
import { appMessages as es } from '../../../../main/common/pure/i18n/es/index.ts';

const i18n = createI18n({ legacy: false, locale: 'en', messages: { en, es } });
function translate(locale: 'en' | 'es'): Translate {
  return (key, named = {}, plural) => {
    i18n.global.locale.value = locale;
    return plural === undefined ? i18n.global.t(key, named) : i18n.global.t(key, named, plural);
  };
}
export const t = translate('en');
export const inputs: ChartInputs = { theme: LIGHT_CHART_THEME, t };
export const inputsEs: ChartInputs = { theme: LIGHT_CHART_THEME, t: translate('es') };

const BYTES = 12 * 2 ** 24;

// Five samples around the median, the slowest 20 % slower than the fastest.
export function throughput(medianMs: number, peak: number | null, work = BYTES / 1e9): Throughput {
  const rate = work / (medianMs / 1000);
  return { medianMs, samplesMs: [0.95, 0.98, 1, 1.02, 1.14].map((f) => f * medianMs), rate, peakFraction: peak === null ? null : rate / peak };
}

export function saxpyResult(overrides: Partial<KernelRunResult> = {}): KernelRunResult {
  return {
    exercise: 'saxpy',
    device: 'cuda:0',
    deviceName: 'NVIDIA H100 80GB HBM3',
    size: 2 ** 24,
    compile: { ok: true, log: '', diagnostics: [], arch: 'sm_90', nvrtcVersion: '13.0', ms: 41.2 },
    launch: {
      grid: [65536, 1, 1],
      block: [256, 1, 1],
      registersPerThread: 16,
      staticSharedBytes: 0,
      localBytesPerThread: 0,
      maxThreadsPerBlock: 1024,
      blocksPerSm: 8,
      activeWarpsPerSm: 64,
      maxWarpsPerSm: 64,
      occupancy: 1,
      threadsLaunched: 1,
    },
    verification: {
      ok: true,
      checked: 2 ** 24,
      total: 2 ** 24,
      method: 'every element',
      tolerance: 'relative 0.00001 (floor 0.00001 × RMS)',
      check: 'every-element',
      relativeTolerance: 1e-5,
      samples: null,
      mismatchCount: 0,
      neverWritten: 0,
      mismatches: [],
      maxRelativeError: 1.2e-7,
    },
    throughput: throughput(BYTES / 1e9 / 3000 * 1000, 3350),
    comparisons: [
      { id: 'saxpy-float4', kind: 'reference', title: 'Reference: float4 loads', throughput: throughput(BYTES / 1e9 / 3100 * 1000, 3350), verified: true, error: null },
      { id: 'saxpy-builtin', kind: 'builtin', title: 'Built-in SAXPY', throughput: throughput(BYTES / 1e9 / 2950 * 1000, 3350), verified: true, error: null },
      { id: 'cublas-saxpy', kind: 'cublas', title: 'cublasSaxpy', throughput: null, verified: false, error: 'no cuBLAS on this machine' },
    ],
    peak: { value: 3.35, unit: 'TB/s' },
    warmup: 3,
    repeats: 20,
    totalMs: 812,
    ...overrides,
  };
}

// An SGEMM at N = 4096: 2·N³ = 137.4 GFLOP, so 2.75 ms is 50 TFLOP/s.
export function sgemmResult(): KernelRunResult {
  const work = (2 * 4096 ** 3) / 1e9;
  const peak = 67_000;
  return {
    ...saxpyResult(),
    exercise: 'sgemm',
    size: 4096,
    // The last row, the last column and 4096 random elements (one of which fell on them) against dot products, to
    // an fp32 sum of 4096 terms: 8·√4096·2⁻²⁴ = 2⁻¹⁵ of the RMS.
    verification: {
      ok: true,
      checked: 12286,
      total: 4096 * 4096,
      method: '12286 elements against float64 dot products (the last row, the last column, 4096 at random); every element for having been written',
      tolerance: '3.05e-5 × RMS',
      check: 'sampled-gemm',
      relativeTolerance: 2 ** -15,
      samples: 4096,
      mismatchCount: 0,
      neverWritten: 0,
      mismatches: [],
      maxRelativeError: 2.4e-6,
    },
    throughput: throughput(2.75, peak, work),
    comparisons: [{ id: 'cublas-sgemm', kind: 'cublas', title: 'cublasSgemm', throughput: throughput(2.4, peak, work), verified: true, error: null }],
    peak: { value: peak, unit: 'GFLOP/s' },
  };
}

// The reduction at its default 2²³ floats (32 MiB) on an H100, whose 50 MiB L2 holds them: read from L2 after the
// first launch at 5000 GB/s, past the 3350 GB/s of DRAM, so the host gave no peak and recorded the two sizes.
export function reductionFromL2Result(): KernelRunResult {
  const work = (4 * 2 ** 23) / 1e9;
  const ms = (work / 5000) * 1000;
  return {
    ...saxpyResult(),
    exercise: 'reduction',
    size: 2 ** 23,
    throughput: throughput(ms, null, work),
    comparisons: [{ id: 'warp-shuffle', kind: 'reference', title: 'Reference: warp shuffle', throughput: throughput(ms * 0.9, null, work), verified: true, error: null }],
    peak: null,
    l2: { workingSetBytes: 4 * 2 ** 23, l2Bytes: 50 * 2 ** 20 },
  };
}

export function kernelRun(result: KernelRunResult | null, overrides: Partial<KernelRun> = {}): KernelRun {
  return {
    id: '2026-11-23T10-00-00-000Z-saxpy-a1b2c3',
    exercise: 'saxpy',
    createdAt: '2026-11-23T10:00:00.000Z',
    source: '__global__ void saxpy(const float* x, const float* y, float* out, float a, size_t n) {}\n',
    request: { exercise: 'saxpy', source: '…' },
    status: 'verified',
    result,
    error: null,
    ...overrides,
  };
}

export const saxpyExercise: ExerciseDescriptor = {
  id: 'saxpy',
  title: 'SAXPY: out = a·x + y',
  statement: ['Write out[i] = a·x[i] + y[i].'],
  hints: ['One thread per element.', 'Guard the last block: i < n.'],
  signature: '__global__ void saxpy(const float* x, const float* y, float* out, float a, size_t n)',
  params: [],
  entry: 'saxpy',
  size: { name: 'n', default: 2 ** 24, min: 1, max: 2 ** 28, label: 'Elements (n)' },
  cover: '1d',
  defaultBlock: [256, 1, 1],
  metric: 'GB/s',
  work: '12 bytes per element: x and y read, out written',
  kernels: [],
  builtins: [],
};

export const transposeExercise: ExerciseDescriptor = { ...saxpyExercise, id: 'transpose', cover: '2d', defaultBlock: [32, 8, 1], size: { name: 'N', default: 4096, min: 32, max: 16384, label: 'Matrix order (N)' } };
