// Measurements on the CPU, inside the compute host: fresh random inputs, a poisoned output, warm-up and repeats in
// the native harness, then the result checked against a float64 reference before any time is reported.
import { GpuLabError } from '../common/errors.ts';
import type { Measurement, MeasurementResult, Verification } from '../common/measurement.ts';
import { benchmark, createHostBuffer } from '../../native/index.ts';
import type { BenchmarkResult, ElementBuffer, OpSpec } from '../../native/index.ts';
import { ELEMENTWISE_TOLERANCE, gemmDtypeTolerance, verifyElementwise, verifyGemm } from './verify.ts';

export interface MeasureContext {
  signal: AbortSignal;
  onProgress: (done: number, total: number) => void;
}

function unsupported(what: string): GpuLabError {
  return new GpuLabError('UNSUPPORTED_OPERATION', `The CPU does not run ${what}`, { device: 'cpu' });
}

// Outputs start as values no correct result holds, so an operation that writes nothing fails verification.
function poison(buf: ElementBuffer): void {
  buf.fillRandom(0xdead, { low: -1e6, high: -1e5 });
}

async function timed(spec: OpSpec, m: Measurement, ctx: MeasureContext): Promise<BenchmarkResult> {
  return benchmark(spec, {
    warmup: m.cold ? 0 : m.warmup,
    repeats: m.repeats,
    minSampleMs: m.minSampleMs,
    signal: ctx.signal,
    onProgress: (p) => ctx.onProgress(p.done, p.total),
  });
}

function result(r: BenchmarkResult, verification: Verification | null): MeasurementResult {
  return { hostMs: r.hostMs, deviceMs: r.deviceMs, implementation: r.implementation, threads: r.threads, executionsPerSample: r.executionsPerSample, verification, telemetry: null };
}

export async function measureOnCpu(m: Measurement, ctx: MeasureContext): Promise<MeasurementResult> {
  if (m.timing === 'launch-only') throw unsupported('launch-only timing (there is no asynchronous launch on the CPU)');
  if ('path' in m && m.path === 'with-transfers') throw unsupported('host↔device transfers');
  const buffers: ElementBuffer[] = [];
  const host = <D extends 'fp32' | 'fp64'>(dtype: D, length: number): ElementBuffer<D> => {
    const b = createHostBuffer(dtype, length);
    buffers.push(b);
    return b;
  };
  try {
    switch (m.op) {
      case 'empty':
        return result(await timed({ op: 'empty' }, m, ctx), null);
      case 'add':
      case 'mul':
      case 'exp': {
        if (m.variant === 'kernel') throw unsupported('GPU kernels');
        // exp over [-4, 4) stays far from overflow; add and mul over [-1, 1) mix signs.
        const range = m.op === 'exp' ? { low: -4, high: 4 } : { low: -1, high: 1 };
        const x = host('fp32', m.elements).fillRandom(m.seed, range);
        const out = host('fp32', m.elements);
        if (!m.cold) poison(out);
        if (m.op === 'exp') {
          const r = await timed({ op: 'exp', variant: m.variant, x, out, threads: m.threads }, m, ctx);
          return result(r, verifyElementwise(out, [x], ([v = 0]) => Math.exp(v), ELEMENTWISE_TOLERANCE.fp32));
        }
        const y = host('fp32', m.elements).fillRandom(m.seed + 1, range);
        const r = await timed({ op: m.op, variant: m.variant, a: x, b: y, out, threads: m.threads }, m, ctx);
        const refAt = m.op === 'add' ? ([p = 0, q = 0]: number[]) => p + q : ([p = 0, q = 0]: number[]) => p * q;
        return result(r, verifyElementwise(out, [x, y], refAt, ELEMENTWISE_TOLERANCE.fp32));
      }
      case 'vector-function': {
        if (m.variant !== 'single' && m.variant !== 'threads') throw unsupported(`the ${m.variant} GPU variant`);
        // Uniform [0, 1), as NumPy's random.rand in the course notebook.
        const x = host('fp64', m.elements).fillRandom(m.seed);
        const y = host('fp64', m.elements).fillRandom(m.seed + 1);
        const out = host('fp64', m.elements);
        if (!m.cold) poison(out);
        const { a, b, c } = m;
        const r = await timed({ op: 'vector-function', variant: m.variant, x, y, out, a, b, c, threads: m.threads }, m, ctx);
        return result(r, verifyElementwise(out, [x, y], ([p = 0, q = 0]) => a * p * p + b * q + c, ELEMENTWISE_TOLERANCE.fp64));
      }
      case 'gemm': {
        if (m.dtype !== 'fp32' && m.dtype !== 'fp64') throw unsupported(`${m.dtype} GEMM (only fp32 and fp64)`);
        if (m.variant !== 'blas' && m.variant !== 'blocked') throw unsupported(`the ${m.variant} GPU GEMM`);
        const a = host(m.dtype, m.m * m.k).fillRandom(m.seed, { low: -1, high: 1 });
        const b = host(m.dtype, m.k * m.n).fillRandom(m.seed + 1, { low: -1, high: 1 });
        const out = host(m.dtype, m.m * m.n);
        if (!m.cold) poison(out);
        const r = await timed({ op: 'gemm', variant: m.variant, a, b, out, m: m.m, n: m.n, k: m.k, threads: m.threads }, m, ctx);
        return result(r, verifyGemm(a, b, out, m.m, m.n, m.k, gemmDtypeTolerance(m.dtype, m.k)));
      }
      case 'blas1':
        throw unsupported(`cuBLAS ${m.routine} (cuBLAS runs on a GPU)`);
      default:
        throw unsupported(`${m.op} (host↔device copies need a GPU)`);
    }
  } finally {
    for (const b of buffers) b.free();
  }
}
