// The theoretical peaks of a CUDA GPU by compute capability, math unit and data type, and NVIDIA's own figures for the
// cards it states them for. The table's peak is SMs × operations per SM per clock × the SM clock the device reports
// (cudaDevAttrClockRate, its highest boost clock), or for memory the bus width × the memory clock × 2 (double data
// rate), with the arithmetic written out. NVIDIA's datasheets state their tensor-core figures at a lower clock than
// that highest one (an H100 or H200 SXM: 989.5 TFLOP/s fp16 at 1830 MHz, where 1980 MHz gives 1071), so a share of
// the clock's figure would read lower than a teacher working it out from the datasheet: a lab's "% of peak" divides by
// the datasheet's figure where this file knows the card (datasheetPeak), else by the table's, and the report shows
// both. Where neither knows a compute capability or a unit, there is no peak: a share of a guessed peak would read as
// a measurement.

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
  // The formula's numbers, for a reader's language: the SMs, the operations per SM per clock, the clock and the
  // architecture; or the memory clock and the bus width.
  terms: { sms: number; perClock: number; mhz: number; arch: string } | { memoryMHz: number; bits: number };
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
    terms: { sms, perClock, mhz, arch: arch.arch },
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
    terms: { memoryMHz: mhz, bits },
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

// NVIDIA's datasheet figures, dense (the tensor cores' figures NVIDIA prints with 2:4 sparsity are twice these), in
// GFLOP/s (GOP/s for int8) and GB/s, for the data-centre cards by the name the driver gives them. A card not listed
// is read against the table's figure at its clock.
interface Datasheet {
  name: RegExp;
  product: string;
  document: string;
  figures: Partial<Record<GpuPeakName | 'memory', number>>;
}

const HOPPER = { fp64: 34_000, 'fp64-tensor': 67_000, fp32: 67_000, 'tf32-tensor': 494_500, 'fp16-tensor': 989_500, 'bf16-tensor': 989_500, 'int8-tensor': 1_979_000 };
const A100 = { fp64: 9_700, 'fp64-tensor': 19_500, fp32: 19_500, 'tf32-tensor': 156_000, 'fp16-tensor': 312_000, 'bf16-tensor': 312_000, 'int8-tensor': 624_000 };
const DATASHEETS: readonly Datasheet[] = [
  { name: /^NVIDIA H100 80GB HBM3$/, product: 'H100 SXM', document: 'NVIDIA H100 Tensor Core GPU datasheet', figures: { ...HOPPER, memory: 3_350 } },
  { name: /^NVIDIA H100 PCIe$/, product: 'H100 PCIe', document: 'NVIDIA H100 Tensor Core GPU datasheet', figures: { fp64: 26_000, 'fp64-tensor': 51_000, fp32: 51_000, 'tf32-tensor': 378_000, 'fp16-tensor': 756_500, 'bf16-tensor': 756_500, 'int8-tensor': 1_513_000, memory: 2_000 } },
  { name: /^NVIDIA H200$/, product: 'H200 SXM', document: 'NVIDIA H200 Tensor Core GPU datasheet', figures: { ...HOPPER, memory: 4_800 } },
  { name: /^NVIDIA A100-SXM4-80GB$/, product: 'A100 80GB SXM', document: 'NVIDIA A100 Tensor Core GPU datasheet', figures: { ...A100, memory: 2_039 } },
  { name: /^NVIDIA A100 80GB PCIe$/, product: 'A100 80GB PCIe', document: 'NVIDIA A100 Tensor Core GPU datasheet', figures: { ...A100, memory: 1_935 } },
  { name: /^NVIDIA A100-(SXM4|PCIE)-40GB$/, product: 'A100 40GB', document: 'NVIDIA A100 Tensor Core GPU datasheet', figures: { ...A100, memory: 1_555 } },
  { name: /^Tesla V100-SXM2/, product: 'V100 SXM2', document: 'NVIDIA Tesla V100 GPU datasheet', figures: { fp64: 7_800, fp32: 15_700, 'fp16-tensor': 125_000, memory: 900 } },
  { name: /^Tesla V100-PCIE/, product: 'V100 PCIe', document: 'NVIDIA Tesla V100 GPU datasheet', figures: { fp64: 7_000, fp32: 14_000, 'fp16-tensor': 112_000, memory: 900 } },
  { name: /^Tesla T4$/, product: 'T4', document: 'NVIDIA T4 datasheet', figures: { fp32: 8_100, 'fp16-tensor': 65_000, 'int8-tensor': 130_000, memory: 320 } },
  { name: /^NVIDIA A10$/, product: 'A10', document: 'NVIDIA A10 datasheet', figures: { fp32: 31_200, 'tf32-tensor': 62_500, 'fp16-tensor': 125_000, 'bf16-tensor': 125_000, 'int8-tensor': 250_000, memory: 600 } },
  { name: /^NVIDIA L4$/, product: 'L4', document: 'NVIDIA L4 datasheet', figures: { fp32: 30_300, 'tf32-tensor': 60_000, 'fp16-tensor': 121_000, 'bf16-tensor': 121_000, 'int8-tensor': 242_500, memory: 300 } },
  { name: /^NVIDIA L40S$/, product: 'L40S', document: 'NVIDIA L40S datasheet', figures: { fp32: 91_600, 'tf32-tensor': 183_000, 'fp16-tensor': 362_050, 'bf16-tensor': 362_050, 'int8-tensor': 733_000, memory: 864 } },
];

export interface DatasheetPeak {
  name: GpuPeakName | 'memory';
  unit: 'GFLOP/s' | 'GOP/s' | 'GB/s';
  value: number;
  // "H100 SXM", as NVIDIA names the product, and the document the figure is from.
  product: string;
  document: string;
}

// NVIDIA's figure for this card and unit, by the device's name; null for a card or a unit its datasheet does not give.
export function datasheetPeak(deviceName: unknown, name: GpuPeakName | 'memory'): DatasheetPeak | null {
  if (typeof deviceName !== 'string') return null;
  const sheet = DATASHEETS.find((d) => d.name.test(deviceName));
  const value = sheet?.figures[name];
  if (!sheet || value === undefined) return null;
  const unit = name === 'memory' ? 'GB/s' : name === 'int8-tensor' ? 'GOP/s' : 'GFLOP/s';
  return { name, unit, value, product: sheet.product, document: sheet.document };
}

