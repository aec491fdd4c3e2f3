// The seed workloads of `gpu-lab bench` as a plan of points, measured by the compute host exactly as a lab's points
// are (one measuring path: the same measurements, inputs, poisoning, verification and statistics). On the CPU: GEMM
// through BLAS (else the built-in blocked kernel), the vector function and add/mul/exp on one thread and on all,
// and the harness's own cost per sample. On a CUDA device: cuBLAS GEMM in every dtype, resident and with copies,
// the hand-written SGEMMs, the vector function, the copies with pinned and pageable memory, add/mul/exp and the
// empty kernel under each of the three clocks.
import type { Clock, MeasurementInput } from '../common/measurement.ts';
import { msg } from '../common/pure/message.ts';
import type { PlannedPoint } from './lab.ts';

// The vector function of the course material: z = a·x² + b·y + c with a = 3.5, b = 2.8, c = 10.
export const VECTOR_FUNCTION = { a: 3.5, b: 2.8, c: 10 } as const;

export interface BenchPoint extends PlannedPoint {
  // The row's name and variant in the bench's table and JSON (what scripts/compare-peers.mjs and scripts/bench.mjs compare by).
  id: string;
  variant: string;
  size: number;
  // A point some devices cannot run (int8 GEMM before tensor cores): left out of the table there, not failed.
  optional?: boolean;
  measurement: MeasurementInput;
}

export interface BenchPlanOptions {
  // Scales every size down (for tests and quick looks); 1 is the seed workloads.
  scale?: number;
  threads?: number;
}

const SEED = 20261125;

function point(device: string, id: string, variant: string, size: number, work: { flops?: number; bytes?: number }, measurement: MeasurementInput, optional = false): BenchPoint {
  return {
    id,
    variant,
    size,
    optional,
    key: `${id}:${variant}:${size}`,
    series: id,
    label: `${id} ${variant} ${size}`,
    // Identifiers, not words: the same in every language.
    name: msg('common.recorded', { text: `${id} ${variant} ${size}` }),
    x: size,
    device,
    work: { flops: work.flops ?? 0, bytes: work.bytes ?? 0, elements: size },
    // The CPU's clock is the host's; a GPU point's is its measurement's (CUDA events where it names none).
    clock: device === 'cpu' ? 'host' : (measurement.clock ?? 'events'),
    measurement,
    waived: null,
    expectedSeconds: 1,
  };
}

export function cpuBenchPlan(options: BenchPlanOptions = {}): BenchPoint[] {
  const scale = options.scale ?? 1;
  const size = (n: number): number => Math.max(1, Math.round(n * scale));
  const threads = options.threads;
  const common = { device: 'cpu', seed: SEED } as const;
  const gemm = (dtype: 'fp32' | 'fp64', n: number): BenchPoint =>
    point('cpu', `gemm-${dtype}`, 'blas', n, { flops: 2 * n ** 3 }, { ...common, op: 'gemm', dtype, variant: 'blas', m: n, n, k: n, threads, warmup: 1, repeats: n >= 4000 ? 3 : n >= 2000 ? 5 : 10 });
  const loops = (['single', 'threads'] as const).map((variant) => ({ variant, threads: variant === 'threads' ? threads : undefined }));
  return [
    point('cpu', 'empty', 'harness', 0, {}, { ...common, op: 'empty', warmup: 1000, repeats: 100_000 }),
    ...[1000, 2000, 4000].map((n) => gemm('fp32', size(n))),
    gemm('fp64', size(2000)),
    // 24 bytes per element: x and y read, z written (8 bytes each); 5 FLOPs.
    ...loops.map(({ variant, threads: t }) => {
      const n = size(5_000_000);
      return point('cpu', 'vector-function', variant, n, { flops: 5 * n, bytes: 24 * n }, { ...common, op: 'vector-function', variant, elements: n, ...VECTOR_FUNCTION, threads: t, warmup: 2, repeats: 20 });
    }),
    // add and mul read two fp32 inputs and write one (12 B an element); exp reads one and writes one (8 B).
    ...(['add', 'mul', 'exp'] as const).flatMap((op) =>
      [1e6, 1e8].flatMap((raw) =>
        loops.map(({ variant, threads: t }) => {
          const n = size(raw);
          return point('cpu', op, variant, n, { bytes: (op === 'exp' ? 8 : 12) * n }, { ...common, op, variant, elements: n, threads: t, warmup: 2, repeats: n >= 1e8 ? 5 : 50 });
        }),
      ),
    ),
  ];
}

export function cudaBenchPlan(device: string, options: BenchPlanOptions = {}): BenchPoint[] {
  const scale = options.scale ?? 1;
  const size = (n: number): number => Math.max(1, Math.round(n * scale));
  // A matrix's side scales with the square root, so that its elements scale like the vectors'.
  const matrix = (n: number): number => Math.max(16, Math.round(n * Math.sqrt(scale)));
  const common = { device, seed: SEED } as const;
  const GiB = 2 ** 30;
  const n = matrix(7000);
  const gemm = (dtype: 'fp32' | 'tf32' | 'fp16' | 'bf16' | 'fp64' | 'int8', path: 'resident' | 'with-copies'): BenchPoint =>
    point(
      device,
      `gemm-${dtype}`,
      path === 'resident' ? 'resident' : 'with-copies',
      n,
      { flops: 2 * n ** 3 },
      { ...common, op: 'gemm', dtype, variant: 'cublas', m: n, n, k: n, path, warmup: path === 'resident' ? 3 : 1, repeats: path === 'resident' ? (dtype === 'fp32' || dtype === 'fp64' ? 20 : 50) : 5 },
      dtype === 'int8',
    );
  const sgemm = (variant: 'naive' | 'tiled'): BenchPoint => {
    const s = matrix(4096);
    return point(device, `sgemm-${variant}`, variant, s, { flops: 2 * s ** 3 }, { ...common, op: 'gemm', dtype: 'fp32', variant, m: s, n: s, k: s, warmup: 2, repeats: 10 });
  };
  const vector = (variant: 'fused' | 'unfused' | 'with-copies'): BenchPoint => {
    const e = size(5_000_000);
    const path = variant === 'with-copies' ? 'with-copies' : 'resident';
    const kernel = variant === 'with-copies' ? 'fused' : variant;
    const heavy = variant === 'with-copies';
    return point(device, 'vector-function', variant, e, { flops: 5 * e, bytes: 24 * e }, { ...common, op: 'vector-function', variant: kernel, elements: e, ...VECTOR_FUNCTION, path, warmup: heavy ? 2 : 20, repeats: heavy ? 10 : 200 });
  };
  const copy = (direction: 'h2d' | 'd2h' | 'd2d', hostMemory: 'pinned' | 'pageable'): BenchPoint => {
    const bytes = size(GiB);
    const variant = direction === 'd2d' ? 'device' : hostMemory;
    // A device-to-device copy reads and writes every byte.
    return point(device, direction, variant, bytes, { bytes: direction === 'd2d' ? 2 * bytes : bytes }, { ...common, op: 'copy', direction, hostMemory, mode: hostMemory === 'pageable' ? 'sync' : 'async', bytes, warmup: 2, repeats: hostMemory === 'pageable' ? 5 : 20 });
  };
  // The empty kernel under each of the three clocks.
  const empty = (clock: Clock): BenchPoint => point(device, 'empty', clock, 0, {}, { ...common, op: 'empty', clock, warmup: 100, repeats: 10_000 });
  return [
    empty('events'),
    empty('host'),
    empty('host-nosync'),
    ...(['fp32', 'tf32', 'fp16', 'bf16', 'fp64', 'int8'] as const).map((dtype) => gemm(dtype, 'resident')),
    gemm('fp32', 'with-copies'),
    sgemm('naive'),
    sgemm('tiled'),
    ...(['fused', 'unfused', 'with-copies'] as const).map(vector),
    ...(['h2d', 'd2h'] as const).flatMap((d) => (['pinned', 'pageable'] as const).map((h) => copy(d, h))),
    copy('d2d', 'pinned'),
    ...(['add', 'mul', 'exp'] as const).flatMap((op) =>
      [1e6, 1e8].map((raw) => {
        const e = size(raw);
        return point(device, op, 'resident', e, { bytes: (op === 'exp' ? 8 : 12) * e }, { ...common, op, variant: 'kernel', elements: e, warmup: 10, repeats: e >= 1e8 ? 50 : 200 });
      }),
    ),
  ];
}
