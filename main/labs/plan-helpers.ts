// Building blocks of lab plans: counting the work of each operation, sizing repeats to a time budget, and GPU
// points that are waived with the reason when there is no usable GPU.
import type { ParameterDescriptor } from '../common/lab-descriptor.ts';
import type { MeasurementInput } from '../common/measurement.ts';
import type { DeviceSummary } from '../common/devices.ts';
import type { PointPeak, PointWork } from '../common/run-record.ts';
import type { PlanContext, PlannedPoint } from './lab.ts';
import { msg, n as num, type Message, type MessageValue } from '../common/pure/message.ts';
import { labMessage } from './lab-text.ts';
import { sharedParameters } from '../common/pure/i18n/en/lab-text.ts';
import { computePeak, datasheetPeak, fitsInL2, gemmPeakName, memoryPeak } from '../common/pure/gpu-peaks.ts';
import { measurementFootprint } from '../common/footprint.ts';
import { peerWaivedWhy } from '../common/peer-protocol.ts';
import { adapterHas, adapterLimit } from '../common/webgpu-adapters.ts';
import type { PeerLibrary } from '../common/peer-protocol.ts';
import { LIMITS } from '../common/measurement.ts';

// Rough rates for the ETA only, never for results: a 2-core CPU and a mid-range GPU.
export const CPU_GFLOPS_GUESS = 100;
export const CPU_GBPS_GUESS = 10;
export const GPU_GFLOPS_GUESS = 20_000;
export const GPU_GBPS_GUESS = 500;
export const BUS_GBPS_GUESS = 10;
// A WebGPU software adapter (lavapipe on two cores): its invocations are emulated on the CPU, its WGSL GEMM at a
// few hundred MFLOP/s.
export const SOFTWARE_ADAPTER_GBPS_GUESS = 1;
export const SOFTWARE_ADAPTER_GFLOPS_GUESS = 0.4;

// Elementwise over n elements of `bytes` each: add/mul read two and write one (3 accesses), exp reads one and
// writes one (2); exp counted as one operation per element.
export function elementwiseWork(op: 'add' | 'mul' | 'exp', n: number, bytes = 4): PointWork {
  const accesses = op === 'exp' ? 2 : 3;
  return { flops: n, bytes: accesses * n * bytes, elements: n };
}

// C = A·B with A m×k and B k×n: m·n·k multiply-adds = 2·m·n·k FLOPs; the fewest bytes read A and B once and write C
// (whose elements may be wider than the inputs': int8 products sum into int32).
export function gemmWork(m: number, n: number, k: number, bytes: number, outBytes = bytes): PointWork {
  return { flops: 2 * m * n * k, bytes: (m * k + k * n) * bytes + m * n * outBytes, elements: m * n };
}

// Where one run takes microseconds, a sample is runs back to back for at least this long, reporting the mean of one
// (MEASUREMENT's minSampleMs): a single reading of a 10-µs launch-and-sync or a 5-µs threaded loop is mostly the
// clock's and the scheduler's jitter, and the threads of a CPU loop stay awake between runs as in a program's loop.
export const MIN_SAMPLE_MS = 5;

// The time one sample takes once runs shorter than MIN_SAMPLE_MS are batched.
export function batchedSampleSeconds(sampleSeconds: number): number {
  return Math.max(sampleSeconds, MIN_SAMPLE_MS / 1000);
}

// Samples that fit in `budgetSeconds`, between `min` and `max`.
export function repeatsWithin(budgetSeconds: number, sampleSeconds: number, min: number, max: number): number {
  const fit = Math.floor(budgetSeconds / Math.max(sampleSeconds, 1e-9));
  return Math.max(min, Math.min(max, fit));
}

export function seconds(work: PointWork, gflops: number, gbps: number): number {
  return Math.max(work.flops / (gflops * 1e9), work.bytes / (gbps * 1e9), 2e-6);
}

// A point's name: its series in its lab's words, and its size where it has one ("GPU with transfers, N = 500").
export function pointName(lab: string, series: string, size?: MessageValue): Message {
  const name = msg(`${lab}.series.${series}`);
  return size === undefined ? name : msg('common.run.point', { series: name, size });
}

// The size of a matrix product: "N = 500".
export const sizeN = (n: number): Message => msg('common.run.sizeN', { n: num.int(n) });

export interface PointBase {
  key: string;
  series: string;
  // The point as its lab's catalog names it ("GPU with transfers, N = 500"), read in the reader's language.
  name: Message;
  x: number | null;
  work: PointWork;
  sampleSeconds: number;
}

// A measurement without its device, which the point decides (distributive: one Omit per kind of measurement).
export type MeasurementFields = MeasurementInput extends infer M ? (M extends unknown ? Omit<M, 'device'> : never) : never;

function expected(base: PointBase, m: { warmup: number; repeats: number }, overheadSeconds: number): number {
  return base.sampleSeconds * (m.warmup + m.repeats) + overheadSeconds;
}

// The yardstick of a CPU measurement's rate: for a GEMM, the CPU's estimated FLOP peak at its type (common/cpu-peaks.ts,
// which host/cpu-peaks.ts fills into the device list's CPU summary), marked as an estimate: a share of it is a guide
// and may pass 100 %. None where the CPU has no estimate, and for a GEMM held to fewer threads than the physical cores
// the estimate counts. For elementwise work and the vector function, the CPU's memory bandwidth as the compute host
// measured it (host/cpu-bandwidth.ts, a STREAM-style add on every core), marked as measured, where the point's arrays
// are at least four times the last-level cache (smaller ones are read from the caches, not from memory).
export function cpuPeak(m: MeasurementFields, cpu: DeviceSummary): PointPeak | null {
  if (m.op === 'add' || m.op === 'mul' || m.op === 'exp' || m.op === 'vector-function') {
    const l3 = typeof cpu.details.l3CacheBytes === 'number' && cpu.details.l3CacheBytes > 0 ? cpu.details.l3CacheBytes : 64 * 2 ** 20;
    const bytes = measurementFootprint({ ...m, device: 'cpu' } as MeasurementInput).hostBytes;
    const value = cpu.peakMemoryGBps;
    const measured = cpu.details.peakMemorySource === 'measured';
    return measured && typeof value === 'number' && value > 0 && bytes >= 4 * l3 ? { name: 'memory', unit: 'GB/s', value, source: 'measured' } : null;
  }
  if (m.op === 'text-to-image') {
    const value = m.dtype === 'fp32' ? cpu.peakGflopsFp32 : null;
    return typeof value === 'number' && value > 0 ? { name: 'fp32', unit: 'GFLOP/s', value, source: 'estimate' } : null;
  }
  if (m.op !== 'gemm' || (m.dtype !== 'fp32' && m.dtype !== 'fp64')) return null;
  if (m.threads !== undefined) {
    const cores = cpu.details.physicalCores;
    if (typeof cores !== 'number' || m.threads < cores) return null;
  }
  const value = m.dtype === 'fp64' ? cpu.peakGflopsFp64 : cpu.peakGflopsFp32;
  return typeof value === 'number' && value > 0 ? { name: m.dtype, unit: 'GFLOP/s', value, source: 'estimate' } : null;
}

// A CPU point; given the CPU's summary (the plan context's), it carries the CPU's peak where there is one (cpuPeak).
export function cpuPoint(base: PointBase, m: MeasurementFields, overheadSeconds = 0.01, cpu?: DeviceSummary): PlannedPoint {
  return {
    key: base.key,
    series: base.series,
    label: labMessage(base.name, 'en'),
    name: base.name,
    x: base.x,
    device: 'cpu',
    work: base.work,
    // The CPU has the host's clock alone.
    clock: 'host',
    measurement: { ...m, device: 'cpu' } as MeasurementInput,
    waived: null,
    expectedSeconds: expected(base, m, overheadSeconds),
    ...(cpu ? { peak: cpuPeak(m, cpu) } : {}),
  };
}

// The yardstick of a GPU measurement's rate from the peak table (main/common/pure/gpu-peaks.ts), or null where a share of
// it would mislead: a time that includes copies across the bus is not a kernel's share of memory bandwidth, a clock
// stopped at the launch measures nothing, a memory-bound kernel whose data fits in L2 reads it from there and not
// from DRAM after its first pass, and a GPU or a unit the table does not know has no peak to guess.
export function gpuPeak(m: MeasurementFields, gpu: DeviceSummary, work?: PointWork): PointPeak | null {
  // NVIDIA's datasheet figure for the card where gpu-peaks.ts knows it, so that a share reads as a teacher works it
  // out; else the table's figure at the device's clock.
  const of = (name: PointPeak['name'], unit: PointPeak['unit'], value: unknown): PointPeak | null => {
    const sheet = name === 'pcie' ? null : datasheetPeak(gpu.name, name);
    if (sheet) return { name, unit: sheet.unit, value: sheet.value, source: 'datasheet' };
    return typeof value === 'number' && value > 0 ? { name, unit, value } : null;
  };
  const facts = gpu.details;
  const memory = (): PointPeak | null => {
    if (work && fitsInL2(work.bytes, facts)) return null;
    const fromTable = memoryPeak(facts);
    return of('memory', 'GB/s', fromTable?.value ?? gpu.peakMemoryGBps);
  };
  if (m.clock === 'host-nosync') return null;
  switch (m.op) {
    case 'copy':
      return m.direction === 'd2d' ? memory() : of('pcie', 'GB/s', gpu.details.peakPcieGBps);
    case 'gemm': {
      if (m.path === 'with-copies') return null;
      // A WebGPU adapter's fp32 peak is its table's (common/webgpu-adapters.ts); the table has no f16 figures.
      if (gpu.kind === 'webgpu') return m.dtype === 'fp32' && typeof gpu.peakGflopsFp32 === 'number' && gpu.peakGflopsFp32 > 0 ? { name: 'fp32', unit: 'GFLOP/s', value: gpu.peakGflopsFp32 } : null;
      const name = gemmPeakName(m.dtype, facts.computeCapability, m.variant === 'cublas');
      const peak = name ? computePeak(facts, name) : null;
      return peak ? of(peak.name, peak.unit, peak.value) : null;
    }
    case 'add':
    case 'mul':
    case 'exp':
    case 'vector-function':
      return m.path === 'with-copies' ? null : memory();
    // cuBLAS saxpy, sum and transpose: memory-bound, on resident data.
    case 'blas1':
      return memory();
    case 'empty':
      return null;
    // A network's step: its convolutions and matrix products on the FMA lanes in fp32 (TF32 is turned off, as the
    // check holds it to float32), on the tensor cores in fp16.
    case 'text-to-image': {
      const name = gemmPeakName(m.dtype, facts.computeCapability);
      const peak = name ? computePeak(facts, name) : null;
      return peak ? of(peak.name, peak.unit, peak.value) : null;
    }
  }
}

// What a WebGPU device runs in this version (host/ops/index.ts): the elementwise ops, the vector function, the GEMM's
// WGSL kernels and the copies. Anything else a lab plans on the GPU is waived there with the reason, as are the course's
// Python (it needs CUDA), cuBLAS, the types WGSL has no arithmetic for, and what the adapter's features and limits
// rule out (common/webgpu-adapters.ts reads them from the device list).
const WEBGPU_OPS: ReadonlySet<string> = new Set(['add', 'mul', 'exp', 'vector-function', 'gemm', 'copy']);
function webgpuWaivedWhy(m: MeasurementFields, gpu: DeviceSummary): Message | null {
  if (m.peer) return msg('reasons.webgpuPeer', { library: m.peer.library });
  if (!WEBGPU_OPS.has(m.op)) return msg('reasons.webgpuNotYet', { op: m.op });
  if (m.op === 'vector-function' && m.dtype !== 'fp32') return msg('reasons.webgpuNoF64');
  if (m.op === 'gemm') {
    if (m.variant === 'cublas') return msg('reasons.webgpuNoCublas');
    if (m.dtype !== 'fp32' && m.dtype !== 'fp16') return msg('reasons.webgpuNoDtype', { dtype: m.dtype });
    if (m.dtype === 'fp16' && !adapterHas(gpu, 'shader-f16')) return msg('reasons.webgpuNoF16');
    const largest = Math.max(m.m * m.k, m.k * m.n, m.m * m.n) * (m.dtype === 'fp16' ? 2 : 4);
    const most = adapterLimit(gpu, 'maxBufferSize');
    if (most !== null && largest > most) return msg('reasons.webgpuOverLimit', { size: num.bytes(largest), limit: 'maxBufferSize', most: num.bytes(most) });
  }
  if (m.op === 'copy') {
    if (m.hostMemory === 'pinned' && m.direction !== 'd2d') return msg('reasons.webgpuNoPinned');
    if (m.bytes % 4 !== 0) return msg('reasons.webgpuWords', { bytes: num.int(m.bytes) });
    const most = adapterLimit(gpu, 'maxBufferSize');
    if (most !== null && m.bytes > most) return msg('reasons.webgpuOverLimit', { size: num.bytes(m.bytes), limit: 'maxBufferSize', most: num.bytes(most) });
  }
  return null;
}

// Why a GPU measurement's time gives no rate (PlannedPoint's `unrated`): copies and kernels timed together, or a
// clock stopped at the launch. A copy's own time is a rate of the bus, and keeps it.
function unratedWhy(m: MeasurementFields): PlannedPoint['unrated'] {
  if (m.clock === 'host-nosync') return 'clock-at-launch';
  if (m.op !== 'copy' && 'path' in m && m.path === 'with-copies') return 'copies';
  return undefined;
}

// A GPU point on the measurement's clock (CUDA events where it names none).
export function gpuPoint(ctx: PlanContext, base: PointBase, m: MeasurementFields): PlannedPoint {
  const device = ctx.gpu?.id ?? 'cuda';
  const clock = m.clock ?? 'events';
  if (!ctx.gpu) {
    return { ...cpuPoint(base, m), device, clock, measurement: null, waived: ctx.gpuWaivedReason, waivedWhy: ctx.gpuWaivedWhy, expectedSeconds: 0 };
  }
  const measurement = { ...m, clock, device: ctx.gpu.id } as MeasurementInput;
  // A software adapter's kernels run on the CPU, slower than its own loops: its budget is sized at that rate.
  const software = ctx.gpu.kind === 'webgpu' && ctx.gpu.details.software === true;
  const sized = software ? { ...base, sampleSeconds: Math.max((base.sampleSeconds * GPU_GBPS_GUESS) / SOFTWARE_ADAPTER_GBPS_GUESS, base.work.flops / (SOFTWARE_ADAPTER_GFLOPS_GUESS * 1e9)) } : base;
  const unrated = unratedWhy(m);
  const planned = { ...cpuPoint(sized, m, 0.05), device, clock, measurement, peak: unrated ? null : gpuPeak(m, ctx.gpu, base.work), ...(unrated ? { unrated } : {}) };
  const why = ctx.gpu.kind === 'webgpu' ? webgpuWaivedWhy(m, ctx.gpu) : null;
  return why ? waivedFor(planned, why) : planned;
}

// Parameters most labs share.
export function repeatsParam(defaultValue: number, max = 1000): ParameterDescriptor {
  return {
    kind: 'integer',
    name: 'repeats',
    ...sharedParameters.repeats,
    unit: 'samples',
    default: defaultValue,
    min: 1,
    max,
  };
}

// The CPU series' thread count: 0 (the default) is every logical core, as NumPy and a BLAS use them unless told
// otherwise. Fewer shows what the GPU is up against on a smaller CPU, or one thread (scripts/experiments/NOTES.md
// has a comparison of 15 and 16 threads on the 16-core GPU machine: no clear difference in noise).
export function threadsParam(): ParameterDescriptor {
  return {
    kind: 'integer',
    name: 'threads',
    ...sharedParameters.threads,
    unit: 'threads',
    default: 0,
    min: 0,
    max: LIMITS.threads,
  };
}

// The measurement's thread count: absent for 0, which the compute host reads as every logical core.
export function cpuThreadsOf(params: Record<string, unknown>): number | undefined {
  return typeof params.threads === 'number' && params.threads > 0 ? params.threads : undefined;
}

export function warmupParam(defaultValue: number): ParameterDescriptor {
  return {
    kind: 'integer',
    name: 'warmup',
    ...sharedParameters.warmup,
    unit: 'runs',
    default: defaultValue,
    min: 0,
    max: 100,
  };
}

// Sizes from 10^from to 10^to with `perDecade` points per decade, rounded to integers.
export function logSizes(from: number, to: number, perDecade: number): number[] {
  const sizes: number[] = [];
  for (let i = from * perDecade; i <= to * perDecade; i++) sizes.push(Math.round(10 ** (i / perDecade)));
  return [...new Set(sizes)];
}

// A Python peer's point: the course's own code for `m` in `library`, timed and verified like the engine's
// (host/ops/peer.ts), on the CPU or on the run's GPU (on the measurement's clock); null where the run did not ask for
// that library; waived, with the reason, where there is no GPU, no interpreter or not that library.
export function peerPoint(ctx: PlanContext, base: PointBase, m: MeasurementFields, peer: { library: PeerLibrary; code: string; timeTime?: boolean }, where: 'cpu' | 'gpu' = 'cpu'): PlannedPoint | null {
  if (!ctx.peers?.asked.includes(peer.library)) return null;
  const withPeer = { ...m, peer } as MeasurementFields;
  // The same budget as the engine's point beside it: the worker's own overhead is paid out of it (host/ops/peer.ts).
  const point = where === 'gpu' ? gpuPoint(ctx, base, withPeer) : cpuPoint(base, withPeer);
  if (point.waived !== null) return point;
  const why = peerWaivedWhy(ctx.peers.report, peer.library, where === 'gpu');
  return why === null ? point : waivedFor(point, why);
}

// A planned point waived for `why`: its reason stored in English, the message kept for every language.
export function waivedFor(point: PlannedPoint, why: Message): PlannedPoint {
  return { ...point, measurement: null, waived: labMessage(why, 'en'), waivedWhy: why, expectedSeconds: 0 };
}
