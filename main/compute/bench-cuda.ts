// The CUDA side of `gpu-lab bench`: the seed workloads on one CUDA device, timed with CUDA events after warm-up,
// each result checked against an fp64 recomputation on the CPU. Inputs are filled on the device with a fresh seed;
// host buffers filled with the same seed hold the same values (counter-based generator), so the references are
// computed from host twins instead of reading the device back element by element.
import { GpuLabError } from '../common/errors.ts';
import { benchmark, createDeviceBuffer, createHostBuffer, createPinnedBuffer, cudaInventory, gemmTolerance, poison } from '../../native/index.ts';
import type { BenchmarkResult, CudaDevice, CudaOpSpec, DType, ElementBuffer, FillRange, GemmPrecision } from '../../native/index.ts';
import type { BenchRecord } from './bench-types.ts';
import { toRecord } from './bench-types.ts';
import { ELEMENTWISE_TOLERANCE, verifyElementwise, verifyGemm } from './verify.ts';

export interface CudaBenchOptions {
  // Scales every size down (for quick looks); 1 is the seed workloads.
  scale?: number;
  signal?: AbortSignal;
  onRecord?: (record: BenchRecord) => void;
}

interface Context {
  device: CudaDevice;
  signal: AbortSignal | undefined;
  // Every buffer made for the current workload, freed when it is done.
  owned: ElementBuffer[];
}

const VECTOR_FUNCTION = { a: 3.5, b: 2.8, c: 10 } as const;
const INT8_RANGE: FillRange = { low: -8, high: 8 };

function freshSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

function own<B extends ElementBuffer>(ctx: Context, buffer: B): B {
  ctx.owned.push(buffer);
  return buffer;
}

// A device buffer and its host twin, both filled from one fresh seed.
function twins(ctx: Context, dtype: DType, length: number, range?: FillRange): { dev: ElementBuffer; host: ElementBuffer } {
  const seed = freshSeed();
  return {
    dev: own(ctx, createDeviceBuffer(dtype, length, ctx.device)).fillRandom(seed, range),
    host: own(ctx, createHostBuffer(dtype, length)).fillRandom(seed, range),
  };
}

function output(ctx: Context, dtype: DType, length: number): ElementBuffer {
  const out = own(ctx, createDeviceBuffer(dtype, length, ctx.device));
  poison(out);
  return out;
}

async function measure(ctx: Context, spec: CudaOpSpec, warmup: number, repeats: number): Promise<BenchmarkResult> {
  return benchmark(spec, { warmup, repeats, signal: ctx.signal });
}

async function gemm(ctx: Context, precision: GemmPrecision, n: number, withCopies: boolean): Promise<BenchRecord> {
  const dtype: DType = precision === 'tf32' ? 'fp32' : precision;
  const range = precision === 'int8' ? INT8_RANGE : undefined;
  const a = twins(ctx, dtype, n * n, range);
  const b = twins(ctx, dtype, n * n, range);
  const outType = dtype === 'int8' ? 'fp32' : dtype;
  const out = withCopies ? own(ctx, createHostBuffer(outType, n * n)) : output(ctx, outType, n * n);
  poison(out);
  const math = precision === 'tf32' ? 'tf32' : 'default';
  const [ia, ib] = withCopies ? [a.host, b.host] : [a.dev, b.dev];
  const variant = withCopies ? 'with-copies' : 'resident';
  // One fp32 GEMM at n = 7000 is 15 ms on an H200 and 270 ms with pageable copies: fewer repeats for the slow ones.
  const repeats = withCopies ? 5 : precision === 'fp32' || precision === 'fp64' ? 20 : 50;
  const result = await measure(ctx, { device: ctx.device, op: 'gemm', variant, math, a: ia, b: ib, out, m: n, n, k: n }, withCopies ? 1 : 3, repeats);
  const check = verifyGemm(a.host, b.host, out, n, n, n, gemmTolerance(precision, n));
  return toRecord({ id: `gemm-${precision}`, variant, size: n, flops: 2 * n ** 3 }, ctx.device, result, check, 'device');
}

async function sgemm(ctx: Context, kind: 'naive' | 'tiled', n: number): Promise<BenchRecord> {
  const a = twins(ctx, 'fp32', n * n);
  const b = twins(ctx, 'fp32', n * n);
  const out = output(ctx, 'fp32', n * n);
  const result = await measure(ctx, { device: ctx.device, op: `sgemm-${kind}`, a: a.dev, b: b.dev, out, m: n, n, k: n }, 2, 10);
  const check = verifyGemm(a.host, b.host, out, n, n, n, gemmTolerance('fp32', n));
  return toRecord({ id: `sgemm-${kind}`, variant: kind, size: n, flops: 2 * n ** 3 }, ctx.device, result, check, 'device');
}

async function vectorFunction(ctx: Context, variant: 'fused' | 'unfused' | 'with-copies', n: number): Promise<BenchRecord> {
  const x = twins(ctx, 'fp64', n);
  const y = twins(ctx, 'fp64', n);
  const withCopies = variant === 'with-copies';
  const out = withCopies ? own(ctx, createHostBuffer('fp64', n)) : output(ctx, 'fp64', n);
  poison(out);
  const { a, b, c } = VECTOR_FUNCTION;
  const [ix, iy] = withCopies ? [x.host, y.host] : [x.dev, y.dev];
  const result = await measure(ctx, { device: ctx.device, op: 'vector-function', variant, x: ix, y: iy, out, a, b, c }, withCopies ? 2 : 20, withCopies ? 10 : 200);
  const check = verifyElementwise(out, [x.host, y.host], ([xi = Number.NaN, yi = Number.NaN]) => a * xi * xi + b * yi + c, ELEMENTWISE_TOLERANCE.fp64);
  // 24 bytes per element that must move (x and y read, z written), whatever the variant really moves.
  return toRecord({ id: 'vector-function', variant, size: n, flops: 5 * n, bytes: 24 * n }, ctx.device, result, check, 'device');
}

async function elementwise(ctx: Context, op: 'add' | 'mul' | 'exp', n: number): Promise<BenchRecord> {
  const range = { low: -2, high: 2 };
  const x = twins(ctx, 'fp32', n, range);
  const y = op === 'exp' ? null : twins(ctx, 'fp32', n, range);
  const out = output(ctx, 'fp32', n);
  const spec: CudaOpSpec =
    op === 'exp' ? { device: ctx.device, op, variant: 'resident', x: x.dev, out } : { device: ctx.device, op, variant: 'resident', a: x.dev, b: (y ?? x).dev, out };
  const result = await measure(ctx, spec, 10, n >= 1e8 ? 50 : 200);
  const inputs = y ? [x.host, y.host] : [x.host];
  const check = verifyElementwise(out, inputs, ([xi = Number.NaN, yi = Number.NaN]) => (op === 'exp' ? Math.exp(xi) : op === 'add' ? xi + yi : xi * yi), ELEMENTWISE_TOLERANCE.fp32);
  return toRecord({ id: op, variant: 'resident', size: n, bytes: (op === 'exp' ? 8 : 12) * n }, ctx.device, result, check, 'device');
}

async function copy(ctx: Context, direction: 'h2d' | 'd2h' | 'd2d', host: 'pinned' | 'pageable' | 'device', bytes: number): Promise<BenchRecord> {
  const length = Math.max(1, Math.floor(bytes / 4));
  const hostBuffer = (): ElementBuffer => own(ctx, host === 'pinned' ? createPinnedBuffer('fp32', length) : createHostBuffer('fp32', length));
  const src = direction === 'h2d' ? hostBuffer() : own(ctx, createDeviceBuffer('fp32', length, ctx.device));
  const dst = direction === 'd2h' ? hostBuffer() : own(ctx, createDeviceBuffer('fp32', length, ctx.device));
  src.fillRandom(freshSeed());
  poison(dst);
  // Pinned memory copies asynchronously on a stream; pageable memory goes through cudaMemcpy, the way most code
  // copies it. A pageable 1 GiB copy takes up to a second: fewer repeats.
  const variant = host === 'pageable' ? 'sync' : 'async';
  const result = await measure(ctx, { device: ctx.device, op: 'copy', variant, src, dst }, 2, host === 'pageable' ? 5 : 20);
  // Device → device reads and writes every byte.
  const moved = direction === 'd2d' ? 2 * src.byteLength : src.byteLength;
  return toRecord({ id: direction, variant: host, size: src.byteLength, bytes: moved }, ctx.device, result, verifyElementwise(dst, [src], ([v = Number.NaN]) => v, 0), 'device');
}

async function empty(ctx: Context, timer: 'events' | 'host' | 'host-nosync'): Promise<BenchRecord> {
  const result = await measure(ctx, { device: ctx.device, op: 'empty', timer }, 100, 10_000);
  // events: the GPU's own time for the launch; host: launch + synchronise as the host sees it; host-nosync: only
  // the launch call, which is what a forgotten synchronisation measures.
  const record = toRecord({ id: 'empty', variant: timer, size: 0 }, ctx.device, result, null, timer === 'events' ? 'device' : 'host');
  return record;
}

export async function runCudaBench(device: string, options: CudaBenchOptions = {}): Promise<BenchRecord[]> {
  if (!/^cuda:\d+$/.test(device)) throw new GpuLabError('INVALID_ARGUMENT', `Expected "cuda:N" for the device but received "${device}"`);
  const inventory = cudaInventory();
  const ordinal = Number(device.slice(5));
  if (!inventory.available) throw new GpuLabError('CUDA_UNAVAILABLE', inventory.reason ?? 'no CUDA device');
  if (ordinal >= inventory.devices.length) {
    throw new GpuLabError('INVALID_ARGUMENT', `Expected a device from cuda:0 to cuda:${inventory.devices.length - 1} but received ${device}`);
  }
  const scale = options.scale ?? 1;
  const size = (n: number): number => Math.max(1, Math.round(n * scale));
  const matrix = (n: number): number => Math.max(16, Math.round(n * Math.sqrt(scale)));
  const ctx: Context = { device: device as CudaDevice, signal: options.signal, owned: [] };
  const GiB = 2 ** 30;
  const steps: Array<() => Promise<BenchRecord | null>> = [
    () => empty(ctx, 'events'),
    () => empty(ctx, 'host'),
    () => empty(ctx, 'host-nosync'),
    ...(['fp32', 'tf32', 'fp16', 'bf16', 'fp64'] as const).map((p) => () => gemm(ctx, p, matrix(7000), false)),
    // int8 tensor-core GEMM needs a GPU and cuBLAS that support it: where they do not, the row is left out.
    () => gemm(ctx, 'int8', matrix(7000), false).catch((err: unknown) => {
      if (GpuLabError.from(err).code === 'UNSUPPORTED_OPERATION') return null;
      throw err;
    }),
    () => gemm(ctx, 'fp32', matrix(7000), true),
    () => sgemm(ctx, 'naive', matrix(4096)),
    () => sgemm(ctx, 'tiled', matrix(4096)),
    ...(['fused', 'unfused', 'with-copies'] as const).map((v) => () => vectorFunction(ctx, v, size(5_000_000))),
    ...(['h2d', 'd2h'] as const).flatMap((d) => (['pinned', 'pageable'] as const).map((h) => () => copy(ctx, d, h, size(GiB)))),
    () => copy(ctx, 'd2d', 'device', size(GiB)),
    ...(['add', 'mul', 'exp'] as const).flatMap((op) => [1e6, 1e8].map((n) => () => elementwise(ctx, op, size(n)))),
  ];
  const records: BenchRecord[] = [];
  for (const step of steps) {
    try {
      const record = await step();
      if (!record) continue;
      records.push(record);
      options.onRecord?.(record);
    } finally {
      for (const b of ctx.owned.splice(0)) b.free();
    }
  }
  return records;
}
