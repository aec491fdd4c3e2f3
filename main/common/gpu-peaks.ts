// The theoretical peaks of a CUDA GPU by compute capability, math unit and data type: what a lab's rate, the devices
// view and the PDF divide by. Each peak is SMs × operations per SM per clock × the SM clock the device reports
// (cudaDevAttrClockRate, its boost clock), or for memory the bus width × the memory clock × 2 (double data rate),
// with the arithmetic written out. Where the table does not know a compute capability or a unit, there is no peak:
// a share of a guessed peak would read as a measurement.

export type GpuPeakName = 'fp32' | 'fp64' | 'fp64-tensor' | 'tf32-tensor' | 'fp16-tensor' | 'bf16-tensor' | 'int8-tensor';

// Operations per SM per clock, dense (no 2:4 sparsity): an FMA counts as 2 FLOPs, an int8 multiply-add as 2 OPs.
interface ArchRates {
  arch: string;
  perSmPerClock: Partial<Record<GpuPeakName, number>>;
  source: string;
}

// fp32/fp64: FMA lanes per SM × 2. Tensor rates: the architecture whitepaper's dense TFLOPS ÷ (SMs × boost clock)
// of its reference part (V100 125 TFLOPS fp16 ÷ (80 × 1.53 GHz) = 1024; A100 19.5 TFLOPS fp64 tensor ÷ (108 ×
// 1.41 GHz) = 128; H100 SXM 67 TFLOPS fp64 tensor ÷ (132 × 1.98 GHz) = 256). The GPUs of one compute capability
// differ in their tensor rate with fp32 accumulation (GeForce parts of sm_86 and sm_89 halve it): the table keeps
// the full rate, so a share is never over 100 % for the part that is faster.
const ARCHES: Record<string, ArchRates> = {
  '7.0': {
    arch: 'Volta, sm_70',
    perSmPerClock: { fp32: 128, fp64: 64, 'fp16-tensor': 1024 },
    source: 'NVIDIA Tesla V100 whitepaper: 64 FP32 and 32 FP64 lanes per SM; 8 tensor cores × 64 FMA per clock',
  },
  '7.5': {
    arch: 'Turing, sm_75',
    perSmPerClock: { fp32: 128, fp64: 4, 'fp16-tensor': 1024, 'int8-tensor': 2048 },
    source: 'NVIDIA Turing whitepaper: 64 FP32 and 2 FP64 lanes per SM; 8 tensor cores × 64 FP16 FMA per clock',
  },
  '8.0': {
    arch: 'Ampere GA100, sm_80',
    perSmPerClock: { fp32: 128, fp64: 64, 'fp64-tensor': 128, 'tf32-tensor': 1024, 'fp16-tensor': 2048, 'bf16-tensor': 2048, 'int8-tensor': 4096 },
    source: 'NVIDIA A100 whitepaper: 64 FP32 and 32 FP64 lanes per SM; 4 tensor cores × 256 FP16 FMA per clock, FP64 DMMA 64 FMA per SM per clock',
  },
  '8.6': {
    arch: 'Ampere GA10x, sm_86',
    perSmPerClock: { fp32: 256, fp64: 4, 'tf32-tensor': 512, 'fp16-tensor': 1024, 'bf16-tensor': 1024, 'int8-tensor': 2048 },
    source: 'NVIDIA Ampere GA102 whitepaper: 128 FP32 and 2 FP64 lanes per SM; 4 tensor cores × 128 FP16 FMA per clock (RTX A6000 rate)',
  },
  '8.9': {
    arch: 'Ada, sm_89',
    perSmPerClock: { fp32: 256, fp64: 4, 'tf32-tensor': 512, 'fp16-tensor': 1024, 'bf16-tensor': 1024, 'int8-tensor': 2048 },
    source: 'NVIDIA Ada whitepaper: 128 FP32 and 2 FP64 lanes per SM; 4 tensor cores, RTX 4090 dense FP16 with FP16 accumulation as the upper bound',
  },
  '9.0': {
    arch: 'Hopper, sm_90',
    perSmPerClock: { fp32: 256, fp64: 128, 'fp64-tensor': 256, 'tf32-tensor': 2048, 'fp16-tensor': 4096, 'bf16-tensor': 4096, 'int8-tensor': 8192 },
    source: 'NVIDIA H100 whitepaper: 128 FP32 and 64 FP64 lanes per SM; 4 tensor cores × 512 FP16 FMA per clock, FP64 tensor 128 FMA per SM per clock',
  },
};

// What the table needs of a device: the fields of the device report (and of a device summary's details).
export interface GpuFacts {
  computeCapability?: unknown;
  multiprocessors?: unknown;
  smClockMHz?: unknown;
  memoryClockMHz?: unknown;
  memoryBusWidthBits?: unknown;
  l2CacheBytes?: unknown;
}

export interface GpuPeak {
  name: GpuPeakName | 'memory';
  unit: 'GFLOP/s' | 'GOP/s' | 'GB/s';
  value: number;
  // "132 SMs × 256 FLOP/clock × 1980 MHz = 66908 GFLOP/s"
  formula: string;
  source: string;
}

const positive = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);

export function archRates(computeCapability: unknown): ArchRates | null {
  return typeof computeCapability === 'string' ? (ARCHES[computeCapability] ?? null) : null;
}

// One compute peak from the table, or null where the device or the table does not know it.
export function computePeak(facts: GpuFacts, name: GpuPeakName): GpuPeak | null {
  const arch = archRates(facts.computeCapability);
  const perClock = arch?.perSmPerClock[name];
  const sms = positive(facts.multiprocessors);
  const mhz = positive(facts.smClockMHz);
  if (!arch || perClock === undefined || sms === null || mhz === null) return null;
  const value = (sms * perClock * mhz) / 1000;
  const [unit, per] = name === 'int8-tensor' ? (['GOP/s', 'OP'] as const) : (['GFLOP/s', 'FLOP'] as const);
  return {
    name,
    unit,
    value,
    formula: `${sms} SMs × ${perClock} ${per}/clock × ${mhz} MHz = ${value.toFixed(0)} ${unit} (${arch.arch})`,
    source: arch.source,
  };
}

// DRAM: 2 transfers per memory clock (double data rate), each bus width / 8 bytes wide.
export function memoryPeak(facts: GpuFacts): GpuPeak | null {
  const mhz = positive(facts.memoryClockMHz);
  const bits = positive(facts.memoryBusWidthBits);
  if (mhz === null || bits === null) return null;
  const value = (2 * mhz * bits) / 8 / 1000;
  return {
    name: 'memory',
    unit: 'GB/s',
    value,
    formula: `2 × ${mhz} MHz × ${bits} bit / 8 = ${value.toFixed(1)} GB/s`,
    source: 'device attributes: memory clock and global memory bus width',
  };
}

export const GPU_PEAK_NAMES: readonly GpuPeakName[] = ['fp32', 'fp64', 'fp64-tensor', 'tf32-tensor', 'fp16-tensor', 'bf16-tensor', 'int8-tensor'];

// Every peak the table knows for the device, memory first.
export function gpuPeaks(facts: GpuFacts): GpuPeak[] {
  return [memoryPeak(facts), ...GPU_PEAK_NAMES.map((n) => computePeak(facts, n))].filter((p): p is GpuPeak => p !== null);
}

// The unit a GEMM of this type runs on: through cuBLAS, fp64 on the fp64 tensor cores where the GPU has them
// (cuBLAS's DGEMM uses DMMA on sm_80 and sm_90), fp32 on the FMA lanes (the default math mode never uses TF32), the
// rest on tensor cores; the hand-written kernels (naive, tiled) use the FMA lanes of their type.
export function gemmPeakName(dtype: 'fp64' | 'fp32' | 'tf32' | 'fp16' | 'bf16' | 'int8', computeCapability: unknown, cublas = true): GpuPeakName | null {
  if (!cublas) return dtype === 'fp64' || dtype === 'fp32' ? dtype : null;
  switch (dtype) {
    case 'fp64': {
      const arch = archRates(computeCapability);
      if (!arch) return null;
      return arch.perSmPerClock['fp64-tensor'] === undefined ? 'fp64' : 'fp64-tensor';
    }
    case 'fp32':
      return 'fp32';
    default:
      return `${dtype}-tensor`;
  }
}

// Whether `bytes` of working set fit in the L2 cache, so that a memory-bound kernel reads them from there after its
// first pass and DRAM bandwidth is no yardstick for it.
export function fitsInL2(bytes: number, facts: GpuFacts): boolean {
  const l2 = positive(facts.l2CacheBytes);
  return l2 !== null && bytes <= l2;
}
