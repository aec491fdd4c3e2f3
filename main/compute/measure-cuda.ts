// Measurements on a CUDA device, inside the compute host: inputs filled on the device (or in host memory for the
// with-transfers variants) from the same seeded generator as the CPU's, outputs poisoned with NaN, the native
// harness timing with CUDA events, the result read back and checked against a float64 reference, and the GPU's
// telemetry read before and after.
import { GpuLabError } from '../common/errors.ts';
import type { Measurement, MeasurementResult, TelemetrySnapshot, Verification } from '../common/measurement.ts';
import { benchmark, createDeviceBuffer, createHostBuffer, createPinnedBuffer, poison, telemetry } from '../../native/index.ts';
import type { BenchmarkResult, CudaDevice, CudaOpSpec, DType, ElementBuffer } from '../../native/index.ts';
import type { MeasureContext } from './measure-cpu.ts';
import { ELEMENTWISE_TOLERANCE, gemmDtypeTolerance, verifyElementwise, verifyGemm } from './verify.ts';
import { verifyTranspose } from './verify-transpose.ts';

function snapshot(device: CudaDevice): TelemetrySnapshot | null {
  try {
    const t = telemetry(device);
    if (!t.available) return null;
    return { smClockMHz: t.smClockMHz, memoryClockMHz: t.memoryClockMHz, temperatureC: t.temperatureC, powerW: t.powerW, throttleReasons: t.throttleReasons ?? [] };
  } catch {
    return null;
  }
}

const WHOLE_NUMBER_CHUNK = 1 << 20;

// Fills `x` with whole numbers 0…3 (uniform [0, 4) from `seed`, rounded down, as the reduction exercise's inputs)
// and returns their exact total: float64 holds every sum of them below 2⁵³.
function fillWholeNumbers(x: ElementBuffer<'fp32'>, seed: number): number {
  x.fillRandom(seed, { low: 0, high: 4 });
  let total = 0;
  for (let start = 0; start < x.length; start += WHOLE_NUMBER_CHUNK) {
    const values = x.read(start, Math.min(WHOLE_NUMBER_CHUNK, x.length - start));
    for (let i = 0; i < values.length; i++) {
      const v = Math.floor(values[i] ?? 0);
      values[i] = v;
      total += v;
    }
    x.write(values, start);
  }
  return total;
}

// A sum of non-negative whole numbers is exact in fp32, in any order of addition, while the total is at most 2²⁴
// (every partial sum is then a whole number no larger than the total, and floats hold all of those): always so in
// the playground, whose 2²³ elements sum to about 1.26·10⁷. Past it an addition may round by up to 2⁻²⁴ ≈ 6e-8;
// a GPU adds along a tree of partial sums, 31 levels deep at 2³¹ elements, whose roundings mostly cancel:
// relative 1e-6.
function sumTolerance(total: number): number {
  return total <= 2 ** 24 ? 0 : 1e-6;
}

export async function measureOnCuda(m: Measurement, ctx: MeasureContext): Promise<MeasurementResult> {
  const device = m.device as CudaDevice;
  const buffers: ElementBuffer[] = [];
  const keep = <D extends DType>(b: ElementBuffer<D>): ElementBuffer<D> => {
    buffers.push(b);
    return b;
  };
  const resident = !('path' in m) || m.path === 'resident';
  // Operands live on the device, or in pageable host memory when the copies are part of what is timed.
  const operand = <D extends DType>(dtype: D, length: number): ElementBuffer<D> =>
    keep(resident ? createDeviceBuffer(dtype, length, device) : createHostBuffer(dtype, length));
  const timer = m.timing === 'launch-only' ? 'host-nosync' : m.timing === 'host' ? 'host' : 'events';
  const run = async (spec: CudaOpSpec, verifyResult: () => Verification | null): Promise<MeasurementResult> => {
    const start = snapshot(device);
    const r: BenchmarkResult = await benchmark(spec, {
      warmup: m.cold ? 0 : m.warmup,
      repeats: m.repeats,
      minSampleMs: m.minSampleMs,
      signal: ctx.signal,
      onProgress: (p) => ctx.onProgress(p.done, p.total),
    });
    const end = snapshot(device);
    return {
      hostMs: r.hostMs,
      deviceMs: r.deviceMs,
      implementation: r.implementation,
      threads: r.threads,
      executionsPerSample: r.executionsPerSample,
      verification: verifyResult(),
      telemetry: start && end ? { start, end } : null,
    };
  };
  // cuBLAS beside the playground's saxpy, sum and transpose, on the exercises' inputs.
  const blas1 = async (b: Extract<Measurement, { op: 'blas1' }>): Promise<MeasurementResult> => {
    switch (b.routine) {
      case 'saxpy': {
        const x = operand('fp32', b.elements).fillRandom(b.seed, { low: -1, high: 1 });
        const y = operand('fp32', b.elements).fillRandom(b.seed + 1, { low: -1, high: 1 });
        const out = operand('fp32', b.elements);
        poison(out);
        // The fp32 `a` cuBLAS multiplies by.
        const a = Math.fround(b.a);
        return await run({ op: 'blas1', routine: 'saxpy', device, timer, x, y, out, a: b.a }, () =>
          verifyElementwise(out, [x, y], ([p = 0, q = 0]) => a * p + q, ELEMENTWISE_TOLERANCE.fp32),
        );
      }
      case 'sum': {
        const x = operand('fp32', b.elements);
        const total = fillWholeNumbers(x, b.seed);
        const out = operand('fp32', 1);
        poison(out);
        // The one element of `out` against the exact total: no input element maps to it.
        return await run({ op: 'blas1', routine: 'sum', device, timer, x, out }, () => verifyElementwise(out, [], () => total, sumTolerance(total)));
      }
      case 'transpose': {
        const input = operand('fp32', b.n * b.n).fillRandom(b.seed, { low: -1, high: 1 });
        const out = operand('fp32', b.n * b.n);
        poison(out);
        return await run({ op: 'blas1', routine: 'transpose', device, timer, in: input, out, n: b.n }, () => verifyTranspose(out, input, b.n));
      }
    }
  };
  try {
    switch (m.op) {
      case 'empty':
        return await run({ op: 'empty', device, timer }, () => null);
      case 'add':
      case 'mul':
      case 'exp': {
        if (m.variant !== 'kernel') throw new GpuLabError('UNSUPPORTED_OPERATION', `The GPU runs kernels, not the CPU's ${m.variant} loop`);
        const variant = resident ? 'resident' : 'with-copies';
        const range = m.op === 'exp' ? { low: -4, high: 4 } : { low: -1, high: 1 };
        const x = operand('fp32', m.elements).fillRandom(m.seed, range);
        const out = operand('fp32', m.elements);
        poison(out);
        if (m.op === 'exp') {
          return await run({ op: 'exp', device, timer, variant, x, out }, () => verifyElementwise(out, [x], ([v = 0]) => Math.exp(v), ELEMENTWISE_TOLERANCE.fp32));
        }
        const y = operand('fp32', m.elements).fillRandom(m.seed + 1, range);
        const refAt = m.op === 'add' ? ([p = 0, q = 0]: number[]) => p + q : ([p = 0, q = 0]: number[]) => p * q;
        return await run({ op: m.op, device, timer, variant, a: x, b: y, out }, () => verifyElementwise(out, [x, y], refAt, ELEMENTWISE_TOLERANCE.fp32));
      }
      case 'vector-function': {
        if (m.variant !== 'fused' && m.variant !== 'unfused') throw new GpuLabError('UNSUPPORTED_OPERATION', `The GPU runs the fused or unfused kernels, not the CPU's ${m.variant} loop`);
        if (!resident && m.variant === 'unfused') throw new GpuLabError('UNSUPPORTED_OPERATION', 'The with-transfers vector function runs the fused kernel only');
        const x = operand('fp64', m.elements).fillRandom(m.seed);
        const y = operand('fp64', m.elements).fillRandom(m.seed + 1);
        const out = operand('fp64', m.elements);
        poison(out);
        const { a, b, c } = m;
        const variant = resident ? m.variant : 'with-copies';
        return await run({ op: 'vector-function', device, timer, variant, x, y, out, a, b, c }, () =>
          verifyElementwise(out, [x, y], ([p = 0, q = 0]) => a * p * p + b * q + c, ELEMENTWISE_TOLERANCE.fp64),
        );
      }
      case 'gemm': {
        const tolerance = gemmDtypeTolerance(m.dtype, m.k);
        if (m.variant === 'naive' || m.variant === 'tiled') {
          if (m.dtype !== 'fp32' || !resident) throw new GpuLabError('UNSUPPORTED_OPERATION', 'The hand-written GEMM kernels take resident fp32 matrices');
          const a = operand('fp32', m.m * m.k).fillRandom(m.seed, { low: -1, high: 1 });
          const b = operand('fp32', m.k * m.n).fillRandom(m.seed + 1, { low: -1, high: 1 });
          const out = operand('fp32', m.m * m.n);
          poison(out);
          const op = m.variant === 'naive' ? 'sgemm-naive' : 'sgemm-tiled';
          return await run({ op, device, timer, a, b, out, m: m.m, n: m.n, k: m.k }, () => verifyGemm(a, b, out, m.m, m.n, m.k, tolerance));
        }
        if (m.variant !== 'cublas') throw new GpuLabError('UNSUPPORTED_OPERATION', `The GPU does not run the CPU's ${m.variant} GEMM`);
        // tf32 is fp32 in memory, multiplied by tensor cores with a 10-bit mantissa; int8 products sum into fp32.
        const stored: DType = m.dtype === 'tf32' ? 'fp32' : m.dtype;
        const range = stored === 'int8' ? undefined : { low: -1, high: 1 };
        const a = operand(stored, m.m * m.k).fillRandom(m.seed, range);
        const b = operand(stored, m.k * m.n).fillRandom(m.seed + 1, range);
        const out = operand(stored === 'int8' ? 'fp32' : stored, m.m * m.n);
        poison(out);
        const spec: CudaOpSpec = { op: 'gemm', device, timer, variant: resident ? 'resident' : 'with-copies', math: m.dtype === 'tf32' ? 'tf32' : 'default', a, b, out, m: m.m, n: m.n, k: m.k };
        return await run(spec, () => verifyGemm(a, b, out, m.m, m.n, m.k, tolerance));
      }
      case 'blas1':
        return await blas1(m);
      default: {
        const host = (): ElementBuffer<'int8'> => keep(m.hostMemory === 'pinned' ? createPinnedBuffer('int8', m.bytes) : createHostBuffer('int8', m.bytes));
        const onDevice = (): ElementBuffer<'int8'> => keep(createDeviceBuffer('int8', m.bytes, device));
        const src = m.direction === 'h2d' ? host() : onDevice();
        const dst = m.direction === 'd2h' ? host() : onDevice();
        src.fillRandom(m.seed);
        poison(dst);
        return await run({ op: 'copy', device, timer, variant: m.mode, src, dst }, () => verifyElementwise(dst, [src], ([v = 0]) => v, 0));
      }
    }
  } finally {
    for (const b of buffers) b.free();
  }
}
