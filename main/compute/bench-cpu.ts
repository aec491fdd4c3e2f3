// The CPU side of the seed workloads, as `gpu-lab bench --device cpu` measures them: GEMM (BLAS, else the built-in
// blocked kernel), the vector function, add/mul/exp, and the harness's own overhead. Each workload is filled with
// fresh random inputs, measured after warm-up, and its result checked against an fp64 recomputation.
import { benchmark, blasInfo, createHostBuffer } from '../../native/index.ts';
import type { BenchmarkProgress, ElementBuffer } from '../../native/index.ts';
import type { BenchRecord, Workload } from './bench-types.ts';
import { toRecord } from './bench-types.ts';
import { ELEMENTWISE_TOLERANCE, gemmDtypeTolerance, verifyElementwise, verifyGemm } from './verify.ts';

export interface CpuBenchOptions {
  threads?: number;
  // Scales every size down (for tests and quick looks); 1 is the seed workloads.
  scale?: number;
  signal?: AbortSignal;
  onRecord?: (record: BenchRecord) => void;
  onProgress?: (id: string, progress: BenchmarkProgress) => void;
}

// The vector function of the seeds: z = a·x² + b·y + c with a = 3.5, b = 2.8, c = 10.
export const VECTOR_FUNCTION = { a: 3.5, b: 2.8, c: 10 } as const;


function seedFor(id: string, size: number, slot: number): number {
  let h = 2166136261;
  for (const ch of `${id}:${size}:${slot}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

function poison(buf: ElementBuffer): void {
  buf.fillRandom(0xdead, { low: -1e6, high: -1e5 });
}

async function gemm(dtype: 'fp32' | 'fp64', n: number, o: CpuBenchOptions): Promise<BenchRecord> {
  const variant = blasInfo().available ? 'blas' : 'blocked';
  const id = dtype === 'fp32' ? 'gemm-fp32' : 'gemm-fp64';
  const a = createHostBuffer(dtype, n * n).fillRandom(seedFor(id, n, 0), { low: -1, high: 1 });
  const b = createHostBuffer(dtype, n * n).fillRandom(seedFor(id, n, 1), { low: -1, high: 1 });
  const out = createHostBuffer(dtype, n * n);
  poison(out);
  try {
    // One sample of an N = 4000 fp32 GEMM takes about a second on two cores: fewer repeats at large N.
    const repeats = n >= 4000 ? 3 : n >= 2000 ? 5 : 10;
    const result = await benchmark(
      { op: 'gemm', variant, a, b, out, m: n, n, k: n, threads: o.threads },
      { warmup: 1, repeats, signal: o.signal, onProgress: (p) => o.onProgress?.(id, p) },
    );
    const w: Workload = { id, variant, size: n, flops: 2 * n ** 3 };
    return toRecord(w, 'cpu', result, verifyGemm(a, b, out, n, n, n, gemmDtypeTolerance(dtype, n)));
  } finally {
    a.free();
    b.free();
    out.free();
  }
}

async function vectorFunction(n: number, variant: 'single' | 'threads', o: CpuBenchOptions): Promise<BenchRecord> {
  const id = 'vector-function';
  const x = createHostBuffer('fp64', n).fillRandom(seedFor(id, n, 0));
  const y = createHostBuffer('fp64', n).fillRandom(seedFor(id, n, 1));
  const out = createHostBuffer('fp64', n);
  poison(out);
  try {
    const { a, b, c } = VECTOR_FUNCTION;
    const result = await benchmark(
      { op: 'vector-function', variant, x, y, out, a, b, c, threads: variant === 'threads' ? o.threads : undefined },
      { warmup: 2, repeats: 20, signal: o.signal, onProgress: (p) => o.onProgress?.(id, p) },
    );
    const verdict = verifyElementwise(out, [x, y], ([xi = Number.NaN, yi = Number.NaN]) => a * xi * xi + b * yi + c, ELEMENTWISE_TOLERANCE.fp64);
    // 24 bytes per element: x and y read, z written (8 bytes each).
    return toRecord({ id, variant, size: n, flops: 5 * n, bytes: 24 * n }, 'cpu', result, verdict);
  } finally {
    x.free();
    y.free();
    out.free();
  }
}

async function elementwise(op: 'add' | 'mul' | 'exp', n: number, variant: 'single' | 'threads', o: CpuBenchOptions): Promise<BenchRecord> {
  const x = createHostBuffer('fp32', n).fillRandom(seedFor(op, n, 0), { low: -2, high: 2 });
  const y = op === 'exp' ? null : createHostBuffer('fp32', n).fillRandom(seedFor(op, n, 1), { low: -2, high: 2 });
  const out = createHostBuffer('fp32', n);
  poison(out);
  try {
    const threads = variant === 'threads' ? o.threads : undefined;
    const spec =
      op === 'exp' ? { op, variant, x, out, threads } : { op, variant, a: x, b: y ?? x, out, threads };
    const repeats = n >= 1e8 ? 5 : 50;
    const result = await benchmark(spec, { warmup: 2, repeats, signal: o.signal, onProgress: (p) => o.onProgress?.(op, p) });
    const inputs = y ? [x, y] : [x];
    const verdict = verifyElementwise(out, inputs, ([xi = Number.NaN, yi = Number.NaN]) => (op === 'exp' ? Math.exp(xi) : op === 'add' ? xi + yi : xi * yi), ELEMENTWISE_TOLERANCE.fp32);
    // Bytes: add and mul read two fp32 inputs and write one (12 B/element); exp reads one and writes one (8 B).
    const bytes = (op === 'exp' ? 8 : 12) * n;
    return toRecord({ id: op, variant, size: n, bytes }, 'cpu', result, verdict);
  } finally {
    x.free();
    y?.free();
    out.free();
  }
}

async function empty(o: CpuBenchOptions): Promise<BenchRecord> {
  const result = await benchmark({ op: 'empty' }, { warmup: 1000, repeats: 100_000, signal: o.signal });
  // Nothing to verify: the figure is the harness's own cost per sample.
  return toRecord({ id: 'empty', variant: 'harness', size: 0 }, 'cpu', result, null);
}

export async function runCpuBench(o: CpuBenchOptions = {}): Promise<BenchRecord[]> {
  const scale = o.scale ?? 1;
  const size = (n: number): number => Math.max(1, Math.round(n * scale));
  const steps: Array<() => Promise<BenchRecord>> = [
    () => empty(o),
    ...[1000, 2000, 4000].map((n) => () => gemm('fp32', size(n), o)),
    () => gemm('fp64', size(2000), o),
    () => vectorFunction(size(5_000_000), 'single', o),
    () => vectorFunction(size(5_000_000), 'threads', o),
    ...(['add', 'mul', 'exp'] as const).flatMap((op) =>
      [1e6, 1e8].flatMap((n) => (['single', 'threads'] as const).map((v) => () => elementwise(op, size(n), v, o))),
    ),
  ];
  const records: BenchRecord[] = [];
  for (const step of steps) {
    const record = await step();
    records.push(record);
    o.onRecord?.(record);
  }
  return records;
}
