// One instance of an exercise on a device, in the compute host: fresh random inputs (filled in host memory by the
// addon's seeded generator, copied to the device, kept on the host for a check made there), an output poisoned with
// NaN before every verification, the kernel's arguments in the order of the exercise's signature, and the check of
// what the kernel wrote: on the GPU against a float64 reference computed there (verify-on-device.ts), or, where the
// device cannot make one (no cuBLAS for the SGEMM's, too little memory), on the host (verify-kernel.ts).
import type { ExerciseId, VerificationResult } from '../common/playground.ts';
import { copyBuffer, createDeviceBuffer, createHostBuffer, poison, zeroFill } from '../../native/index.ts';
import type { CudaDevice, ElementBuffer } from '../../native/index.ts';
import type { KernelArg } from '../../native/kernel-playground.ts';
import { POLYNOMIAL, SAXPY_A } from '../common/exercises.ts';
import { saxpyElement } from './ops/blas1.ts';
import { vectorFunctionElement } from './ops/vector-function.ts';
import { ELEMENTWISE_RELATIVE, sgemmRelativeTolerance, verifyElementwise, verifySgemm, verifySum, verifyTranspose } from './verify-kernel.ts';
import { verifyOnDevice } from '../../native/verify-output.ts';
import type { DeviceCheck } from '../../native/verify-output.ts';
import { GpuLabError } from '../common/errors.ts';
import { deviceVerification } from './verify-on-device.ts';
import type { DeviceCheckWords } from './verify-on-device.ts';

export interface Problem {
  args: KernelArg[];
  // Device buffers the kernel accumulates into, set to 0 before every launch.
  zeroBeforeEach: ElementBuffer[];
  // Fills the output with NaN, so that what the kernel does not write is seen.
  poisonOutput(): void;
  verify(): Promise<VerificationResult>;
  free(): void;
  // The same problem as the Python launch path takes it (kernel-python.ts), for the exercises the course launches
  // from Python (Unit 10: the elementwise pair and the matrix product); null for the others. A function: the inputs
  // are read into JavaScript only where a launch from Python needs them.
  python: (() => HostProblem) | null;
}

// An argument on the host's side: an input's values, the output's type and length, or a scalar with its C type.
export type HostArg =
  | { kind: 'input'; values: Float32Array | Float64Array }
  | { kind: 'output'; dtype: 'fp32' | 'fp64'; length: number }
  | { kind: 'scalar'; type: 'f32' | 'f64' | 'i32' | 'u64'; value: number };

export interface HostProblem {
  args: HostArg[];
  // The host's check of verify(), on an output read back from elsewhere.
  check(got: Float32Array | Float64Array): VerificationResult;
}

const SGEMM_SAMPLES = 4096;

class Buffers {
  private readonly all: ElementBuffer[] = [];
  readonly device: CudaDevice;
  constructor(device: CudaDevice) {
    this.device = device;
  }

  // Host values in [low, high) from `seed`, and the same values on the device; the host's read into JavaScript only
  // where a check on the host needs them.
  async input(length: number, seed: number, low: number, high: number, transform?: (v: Float32Array) => void): Promise<{ host: () => Float32Array; dev: ElementBuffer }> {
    const host = this.keep(createHostBuffer('fp32', length)).fillRandom(seed, { low, high });
    if (transform) {
      const values = host.read();
      transform(values);
      host.write(values);
    }
    const dev = this.onDevice('fp32', length);
    await copyBuffer(dev, host);
    return { host: once(() => host.read()), dev };
  }

  async input64(length: number, seed: number): Promise<{ host: () => Float64Array; dev: ElementBuffer }> {
    const host = this.keep(createHostBuffer('fp64', length)).fillRandom(seed, { low: -1, high: 1 });
    const dev = this.onDevice('fp64', length);
    await copyBuffer(dev, host);
    return { host: once(() => host.read()), dev };
  }

  output(dtype: 'fp32' | 'fp64', length: number): ElementBuffer {
    return this.onDevice(dtype, length);
  }

  // Device memory is zeroed when it is handed out and again before it is given back: a kernel (a student's, on a
  // class's server) reads nothing an earlier run left in it, and leaves nothing of its own for the next.
  private onDevice(dtype: 'fp32' | 'fp64', length: number): ElementBuffer {
    const dev = this.keep(createDeviceBuffer(dtype, length, this.device));
    zeroFill(dev);
    return dev;
  }

  keep<B extends ElementBuffer>(b: B): B {
    this.all.push(b);
    return b;
  }

  free(): void {
    for (const b of this.all.splice(0)) {
      if (b.location === 'device') zeroFill(b);
      b.free();
    }
  }
}

// The float64 reference of two inputs' elements, filled in one loop with its RMS (a function called per element
// inside the check, with an array made for each, cost most of a second at 16 million elements).
// An elementwise kernel's check: each element's float64 reference computed from the inputs as it is compared, with
// no reference array of n elements written first.
function checkElements(got: Float32Array | Float64Array, x: Float32Array | Float64Array, y: Float32Array | Float64Array, element: (x: number, y: number) => number, precision: 'fp32' | 'fp64'): VerificationResult {
  return verifyElementwise(got, (i) => element(x[i] ?? 0, y[i] ?? 0), precision);
}

function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

// Where the device cannot make the reference, the check goes to the host; any other failure is the run's.
const HOST_INSTEAD = new Set(['LIBRARY_UNAVAILABLE', 'CUDA_ERROR_OUT_OF_MEMORY', 'UNSUPPORTED_OPERATION']);

// `onDevice` null: the device has no check of that kind (the elementwise product and sum of Unit 10), the host's.
function problem(
  buffers: Buffers,
  out: ElementBuffer,
  args: KernelArg[],
  onDevice: { check: DeviceCheck; words: DeviceCheckWords } | null,
  onHost: (got: Float32Array | Float64Array) => VerificationResult,
  zero: ElementBuffer[] = [],
  hostArgs: (() => HostArg[]) | null = null,
): Problem {
  return {
    args,
    zeroBeforeEach: zero,
    poisonOutput: () => poison(out),
    verify: async () => {
      if (!onDevice) return onHost(out.read() as Float32Array | Float64Array);
      try {
        return deviceVerification(await verifyOnDevice(onDevice.check), onDevice.words);
      } catch (err) {
        if (!HOST_INSTEAD.has(GpuLabError.from(err).code)) throw err;
        return onHost(out.read() as Float32Array | Float64Array);
      }
    },
    free: () => buffers.free(),
    python: hostArgs ? () => ({ args: hostArgs(), check: onHost }) : null,
  };
}

// The words of an elementwise check, as the host's says them.
function elementwiseWords(formula: string, precision: 'fp32' | 'fp64'): DeviceCheckWords {
  const rel = ELEMENTWISE_RELATIVE[precision];
  return { method: `every element against float64 ${formula}, on the GPU`, tolerance: `relative ${rel} (floor ${rel} × RMS)`, check: 'every-element', relativeTolerance: rel, cols: null };
}

export async function createProblem(exercise: ExerciseId, size: number, device: CudaDevice, seed: number): Promise<Problem> {
  const buffers = new Buffers(device);
  try {
    return await build(buffers, exercise, size, seed);
  } catch (err) {
    buffers.free();
    throw err;
  }
}

async function build(buffers: Buffers, exercise: ExerciseId, size: number, seed: number): Promise<Problem> {
  const n = size;
  const { a, b, c } = POLYNOMIAL;
  switch (exercise) {
    case 'polynomial-fp32': {
      const x = await buffers.input(n, seed, -1, 1);
      const y = await buffers.input(n, seed + 1, -1, 1);
      const z = buffers.output('fp32', n);
      // The reference from the fp32 inputs and the fp32-rounded coefficients the kernel receives.
      const [fa, fb, fc] = [Math.fround(a), Math.fround(b), Math.fround(c)];
      const reference = vectorFunctionElement(fa, fb, fc);
      const onDevice = { check: { kind: 'polynomial', out: z, x: x.dev, y: y.dev, a: fa, b: fb, c: fc, relative: ELEMENTWISE_RELATIVE.fp32 }, words: elementwiseWords('a·x² + b·y + c', 'fp32') } as const;
      return problem(buffers, z, [{ buffer: x.dev }, { buffer: y.dev }, { buffer: z }, { f32: a }, { f32: b }, { f32: c }, { u64: n }], onDevice, (got) =>
        checkElements(got, x.host(), y.host(), reference, 'fp32'),
      );
    }
    case 'polynomial-fp64': {
      const x = await buffers.input64(n, seed);
      const y = await buffers.input64(n, seed + 1);
      const z = buffers.output('fp64', n);
      const reference = vectorFunctionElement(a, b, c);
      const onDevice = { check: { kind: 'polynomial', out: z, x: x.dev, y: y.dev, a, b, c, relative: ELEMENTWISE_RELATIVE.fp64 }, words: elementwiseWords('a·x² + b·y + c', 'fp64') } as const;
      return problem(buffers, z, [{ buffer: x.dev }, { buffer: y.dev }, { buffer: z }, { f64: a }, { f64: b }, { f64: c }, { u64: n }], onDevice, (got) =>
        checkElements(got, x.host(), y.host(), reference, 'fp64'),
      );
    }
    case 'saxpy': {
      const x = await buffers.input(n, seed, -1, 1);
      const y = await buffers.input(n, seed + 1, -1, 1);
      const out = buffers.output('fp32', n);
      const reference = saxpyElement(SAXPY_A);
      const onDevice = { check: { kind: 'saxpy', out, x: x.dev, y: y.dev, a: Math.fround(SAXPY_A), relative: ELEMENTWISE_RELATIVE.fp32 }, words: elementwiseWords('a·x + y', 'fp32') } as const;
      return problem(buffers, out, [{ buffer: x.dev }, { buffer: y.dev }, { buffer: out }, { f32: SAXPY_A }, { u64: n }], onDevice, (got) =>
        checkElements(got, x.host(), y.host(), reference, 'fp32'),
      );
    }
    case 'multiply':
    case 'add': {
      const a = await buffers.input(n, seed, -1, 1);
      const b = await buffers.input(n, seed + 1, -1, 1);
      const dest = buffers.output('fp32', n);
      // The product and the sum of two floats, taken in float64, are exact: the kernel's one rounding is all it may differ by.
      const reference = exercise === 'multiply' ? (x: number, y: number) => x * y : (x: number, y: number) => x + y;
      const host = (): HostArg[] => [{ kind: 'output', dtype: 'fp32', length: n }, { kind: 'input', values: a.host() }, { kind: 'input', values: b.host() }, { kind: 'scalar', type: 'u64', value: n }];
      return problem(buffers, dest, [{ buffer: dest }, { buffer: a.dev }, { buffer: b.dev }, { u64: n }], null, (got) => checkElements(got, a.host(), b.host(), reference, 'fp32'), [], host);
    }
    case 'reduction': {
      // Whole numbers 0…3 (see exercises.ts): the sum is exact in any order.
      const x = await buffers.input(n, seed, 0, 4, (v) => {
        for (let i = 0; i < v.length; i++) v[i] = Math.floor(v[i] ?? 0);
      });
      const total = buffers.output('fp32', 1);
      const words: DeviceCheckWords = { method: `the total of ${n} whole numbers, on the GPU`, tolerance: 'exact', check: 'total', relativeTolerance: 0, cols: null };
      return problem(buffers, total, [{ buffer: x.dev }, { buffer: total }, { u64: n }], { check: { kind: 'sum', out: total, x: x.dev }, words }, (got) => verifySum(got, x.host()), [total]);
    }
    case 'transpose': {
      const input = await buffers.input(n * n, seed, -1, 1);
      const out = buffers.output('fp32', n * n);
      const words: DeviceCheckWords = { method: 'every element, on the GPU', tolerance: 'exact', check: 'every-element', relativeTolerance: 0, cols: n };
      // out[c·rows + r] = in[r·cols + c], rows = cols = n.
      return problem(buffers, out, [{ buffer: input.dev }, { buffer: out }, { i32: n }, { i32: n }], { check: { kind: 'transpose', out, input: input.dev, rows: n, cols: n }, words }, (got) =>
        verifyTranspose(got, input.host(), n, n),
      );
    }
    case 'sgemm': {
      const am = await buffers.input(n * n, seed, -1, 1);
      const bm = await buffers.input(n * n, seed + 1, -1, 1);
      const cm = buffers.output('fp32', n * n);
      const rel = sgemmRelativeTolerance(n);
      const words: DeviceCheckWords = { method: 'every element against float64 dot products (cuBLAS DGEMM of the inputs widened to float64), on the GPU', tolerance: `${rel.toExponential(2)} × RMS`, check: 'gemm-every-element', relativeTolerance: rel, cols: n };
      const order: HostArg = { kind: 'scalar', type: 'i32', value: n };
      const host = (): HostArg[] => [{ kind: 'input', values: am.host() }, { kind: 'input', values: bm.host() }, { kind: 'output', dtype: 'fp32', length: n * n }, order, order, order];
      return problem(
        buffers,
        cm,
        [{ buffer: am.dev }, { buffer: bm.dev }, { buffer: cm }, { i32: n }, { i32: n }, { i32: n }],
        { check: { kind: 'gemm', out: cm, a: am.dev, b: bm.dev, m: n, n, k: n, relative: rel }, words },
        (got) => verifySgemm({ a: am.host(), b: bm.host(), c: got as Float32Array, m: n, n, k: n, samples: SGEMM_SAMPLES, seed }),
        [],
        host,
      );
    }
  }
}
