// The CUDA operations the timing harness can run, and their translation into the addon's plain spec after every
// argument has been checked: the device exists in this build, each buffer lives where the operation needs it
// (device memory on that device, or host memory for the with-copies variants), dtypes and lengths agree.
import type { Clock, DataPath } from '../main/common/measurement.ts';
import { GpuLabError } from '../main/common/errors.ts';
import { loadAddon } from './addon.ts';
import type { RawSpec } from './addon.ts';
import { ElementBuffer } from './buffers.ts';
import { bufferOperand, gemmShape, MAX_GEMM_DIM, sameLength } from './operands.ts';
import type { GemmShape } from './operands.ts';
import { finiteNumber, invalid, oneOf, positiveInteger } from './validate.ts';

export type CudaDevice = `cuda:${number}`;
// events: CUDA events around the work (deviceMs) plus host time after synchronising (hostMs); host: host clock
// around the work and a synchronisation; host-nosync: the timing-pitfalls mistake, the host clock read right after
// queueing (hostMs) while the events still report the real device time (deviceMs).
// The clock and the data path are the measurement vocabulary's words (main/common/measurement.ts).
export type CudaTimer = Clock;
export type CudaResidency = DataPath;
export type CudaVectorFunctionVariant = 'fused' | 'unfused' | 'with-copies';
export type CudaCopyMode = 'sync' | 'async';
export type CublasMath = 'default' | 'tf32';
export type CublasBlas1Routine = 'saxpy' | 'sum' | 'transpose';

interface CudaBase {
  device: CudaDevice;
  timer?: CudaTimer;
}

export type CudaOpSpec =
  | (CudaBase & { op: 'empty' })
  | (CudaBase & { op: 'add' | 'mul'; variant: CudaResidency; a: ElementBuffer; b: ElementBuffer; out: ElementBuffer })
  | (CudaBase & { op: 'exp'; variant: CudaResidency; x: ElementBuffer; out: ElementBuffer })
  | (CudaBase & {
      op: 'vector-function';
      variant: CudaVectorFunctionVariant;
      x: ElementBuffer;
      y: ElementBuffer;
      out: ElementBuffer;
      a: number;
      b: number;
      c: number;
    })
  | (CudaBase & GemmShape & { op: 'sgemm-naive' | 'sgemm-tiled'; a: ElementBuffer; b: ElementBuffer; out: ElementBuffer })
  // fp64, fp32, fp16 or bf16 buffers of one dtype, or int8 a and b with an fp32 out; math 'tf32' takes fp32.
  | (CudaBase &
      GemmShape & { op: 'gemm'; variant: CudaResidency; math?: CublasMath; a: ElementBuffer; b: ElementBuffer; out: ElementBuffer })
  // The direction follows from where src and dst live; pinned or pageable from the host buffer's kind.
  | (CudaBase & { op: 'copy'; variant: CudaCopyMode; src: ElementBuffer; dst: ElementBuffer })
  // cuBLAS on device-resident fp32 buffers. saxpy: out = a·x + y (cublasSaxpy_v2 works in place; out receives its
  // first execution and x and y stay as they are); sum: out (1 element) = Σ|x| (cublasSasum_v2); transpose:
  // out = inᵀ, both n×n row-major (cublasSgeam).
  | (CudaBase & { op: 'blas1'; routine: 'saxpy'; x: ElementBuffer; y: ElementBuffer; out: ElementBuffer; a: number })
  | (CudaBase & { op: 'blas1'; routine: 'sum'; x: ElementBuffer; out: ElementBuffer })
  | (CudaBase & { op: 'blas1'; routine: 'transpose'; in: ElementBuffer; out: ElementBuffer; n: number });

export const CUDA_OPS = ['empty', 'add', 'mul', 'exp', 'vector-function', 'sgemm-naive', 'sgemm-tiled', 'gemm', 'copy', 'blas1'] as const;
const TIMERS: readonly CudaTimer[] = ['events', 'host', 'host-nosync'];
const BLAS1_ROUTINES: readonly CublasBlas1Routine[] = ['saxpy', 'sum', 'transpose'];
// cuBLAS counts a vector's elements in int.
const MAX_BLAS1_ELEMENTS = 2147483647;
// The largest n whose n×n matrix has at most 2³¹ − 1 elements, the count every other op stays within.
const MAX_TRANSPOSE_ORDER = 46340;
// The largest finite fp32, which cuBLAS receives `a` as.
const FP32_MAX = 3.4028234663852886e38;
// A grid holds at most 65535 blocks along y (2³¹ − 1 along x). The hand-written GEMMs run the rows of C along y
// (shaders/cuda/sgemm.cu), the int8 GEMM's transpose of B runs k along y (shaders/cuda/transpose.cu).
const GRID_Y_BLOCKS = 65535;
const GRID_Y_LIMITS = {
  'sgemm-naive': { name: 'm', rowsPerBlock: 8, kernel: 'the naive SGEMM' },
  'sgemm-tiled': { name: 'm', rowsPerBlock: 128, kernel: 'the tiled SGEMM' },
  'int8-gemm': { name: 'k', rowsPerBlock: 32, kernel: "the int8 GEMM's transpose of B" },
} as const;

// The ordinal of "cuda:N".
function parseCudaDevice(device: unknown): number {
  if (typeof device !== 'string' || !/^cuda:\d{1,3}$/.test(device)) throw invalid('device', '"cuda:N"', device);
  return Number(device.slice(5));
}

function requireCudaBuild(device: string): void {
  const build = loadAddon().buildInfo();
  if (!build.cuda) throw new GpuLabError('CUDA_UNAVAILABLE', `CUDA is not available (${device}): ${build.cudaReason ?? 'built without CUDA'}`);
}

// The ordinal of "cuda:N", after checking that this build has CUDA at all.
export function cudaOrdinal(device: unknown): number {
  const ordinal = parseCudaDevice(device);
  requireCudaBuild(device as string);
  return ordinal;
}

const buffer = bufferOperand;

function onDevice(name: string, buf: ElementBuffer, ordinal: number): ElementBuffer {
  if (buf.location !== 'device' || buf.device !== ordinal) {
    const where = buf.location === 'device' ? `device memory on cuda:${buf.device}` : buf.location === 'pinned' ? 'pinned host memory' : 'pageable host memory';
    throw invalid(name, `device memory on cuda:${ordinal}`, where);
  }
  return buf;
}

function deviceBuffer(name: string, value: unknown, dtypes: readonly string[], ordinal: number): ElementBuffer {
  return onDevice(name, buffer(name, value, dtypes), ordinal);
}

function hostBuffer(name: string, value: unknown, dtypes: readonly string[]): ElementBuffer {
  const buf = buffer(name, value, dtypes);
  if (buf.location === 'device') throw invalid(name, 'host or pinned memory for a with-copies variant', 'device memory');
  return buf;
}

function operand(residency: CudaResidency | CudaVectorFunctionVariant, ordinal: number) {
  return (name: string, value: unknown, dtypes: readonly string[]): ElementBuffer =>
    residency === 'with-copies' ? hostBuffer(name, value, dtypes) : deviceBuffer(name, value, dtypes, ordinal);
}

// Refuses a GEMM shape past cuBLAS's int dimensions or past the 65535 blocks a grid holds along y (m > 524,280 for
// the naive SGEMM, say), before any CUDA call: the same SIZE_UNSUPPORTED with or without a device.
function checkGemmShape(op: (typeof CUDA_OPS)[number], spec: Partial<GemmShape> & { a?: unknown }): void {
  if (op !== 'sgemm-naive' && op !== 'sgemm-tiled' && op !== 'gemm') return;
  for (const name of ['m', 'n', 'k'] as const) positiveInteger(name, spec[name], MAX_GEMM_DIM);
  const int8 = op === 'gemm' && spec.a instanceof ElementBuffer && spec.a.dtype === 'int8';
  const key = op === 'gemm' ? (int8 ? 'int8-gemm' : null) : op;
  if (key === null) return;
  const { name, rowsPerBlock, kernel } = GRID_Y_LIMITS[key];
  const value = spec[name] ?? 0;
  const limit = GRID_Y_BLOCKS * rowsPerBlock;
  if (value > limit) {
    throw new GpuLabError(
      'SIZE_UNSUPPORTED',
      `Expected at most ${limit} for \`${name}\` of ${op} but received ${value}: ${kernel} puts ${rowsPerBlock} rows of ${name} in each block along the grid's y dimension, which holds at most ${GRID_Y_BLOCKS} blocks`,
      { argument: name, limit },
    );
  }
}

// Every argument is checked before whether this build has CUDA: a wrong argument is named the same way in every
// build.
export function cudaRawSpec(spec: CudaOpSpec, warmup: number, repeats: number): RawSpec {
  const op = oneOf('op', (spec as { op: unknown }).op, CUDA_OPS);
  checkGemmShape(op, spec as Partial<GemmShape> & { a?: unknown });
  const raw = checkedRawSpec(spec, op, parseCudaDevice(spec.device), warmup, repeats);
  requireCudaBuild(spec.device);
  return raw;
}

function checkedRawSpec(spec: CudaOpSpec, op: (typeof CUDA_OPS)[number], ordinal: number, warmup: number, repeats: number): RawSpec {
  const timer = spec.timer === undefined ? 'events' : oneOf('timer', spec.timer, TIMERS);
  const base = { op, warmup, repeats, device: ordinal, strings: { timer } };
  switch (spec.op) {
    case 'empty':
      return base;
    case 'add':
    case 'mul': {
      const variant = oneOf('variant', spec.variant, ['resident', 'with-copies'] as const);
      const take = operand(variant, ordinal);
      const a = take('a', spec.a, ['fp32']);
      const b = take('b', spec.b, ['fp32']);
      const out = take('out', spec.out, ['fp32']);
      sameLength(['a', 'b', 'out'], [a, b, out]);
      return { ...base, variant, buffers: { a: a.raw, b: b.raw, out: out.raw } };
    }
    case 'exp': {
      const variant = oneOf('variant', spec.variant, ['resident', 'with-copies'] as const);
      const take = operand(variant, ordinal);
      const x = take('x', spec.x, ['fp32']);
      const out = take('out', spec.out, ['fp32']);
      sameLength(['x', 'out'], [x, out]);
      return { ...base, variant, buffers: { x: x.raw, out: out.raw } };
    }
    case 'vector-function': {
      const variant = oneOf('variant', spec.variant, ['fused', 'unfused', 'with-copies'] as const);
      const take = operand(variant, ordinal);
      const x = take('x', spec.x, ['fp64']);
      const y = take('y', spec.y, ['fp64']);
      const out = take('out', spec.out, ['fp64']);
      sameLength(['x', 'y', 'out'], [x, y, out]);
      const numbers = { a: finiteNumber('a', spec.a), b: finiteNumber('b', spec.b), c: finiteNumber('c', spec.c) };
      return { ...base, variant, buffers: { x: x.raw, y: y.raw, out: out.raw }, numbers };
    }
    case 'sgemm-naive':
    case 'sgemm-tiled': {
      const a = deviceBuffer('a', spec.a, ['fp32'], ordinal);
      const b = deviceBuffer('b', spec.b, ['fp32'], ordinal);
      const out = deviceBuffer('out', spec.out, ['fp32'], ordinal);
      const numbers = { ...gemmShape(spec, a, b, out) };
      return { ...base, buffers: { a: a.raw, b: b.raw, out: out.raw }, numbers };
    }
    case 'gemm': {
      const variant = oneOf('variant', spec.variant, ['resident', 'with-copies'] as const);
      const math = spec.math === undefined ? 'default' : oneOf('math', spec.math, ['default', 'tf32'] as const);
      const take = operand(variant, ordinal);
      const a = take('a', spec.a, math === 'tf32' ? ['fp32'] : ['fp64', 'fp32', 'fp16', 'bf16', 'int8']);
      const b = take('b', spec.b, [a.dtype]);
      const out = take('out', spec.out, [a.dtype === 'int8' ? 'fp32' : a.dtype]);
      const numbers = { ...gemmShape(spec, a, b, out) };
      return { ...base, variant, buffers: { a: a.raw, b: b.raw, out: out.raw }, numbers, strings: { timer, math } };
    }
    case 'blas1':
      return { ...base, ...blas1RawSpec(spec, ordinal) };
    case 'copy': {
      const variant = oneOf('variant', spec.variant, ['sync', 'async'] as const);
      const any = ['fp64', 'fp32', 'fp16', 'bf16', 'int8'];
      const src = buffer('src', spec.src, any);
      const dst = buffer('dst', spec.dst, any);
      if (src.location !== 'device' && dst.location !== 'device') throw invalid('dst', 'device memory when `src` is host memory', `${dst.location} host memory`);
      for (const [name, buf] of [['src', src], ['dst', dst]] as const) {
        if (buf.location === 'device' && buf.device !== ordinal) throw invalid(name, `device memory on cuda:${ordinal}`, `device memory on cuda:${buf.device}`);
      }
      if (src.byteLength !== dst.byteLength) {
        throw new GpuLabError('LENGTH_MISMATCH', `Expected \`dst\` to hold the ${src.byteLength} bytes of \`src\` but it holds ${dst.byteLength}`, { argument: 'dst' });
      }
      return { ...base, variant, buffers: { src: src.raw, dst: dst.raw } };
    }
  }
}

function elementsFor(name: string, buf: ElementBuffer): void {
  if (buf.length > MAX_BLAS1_ELEMENTS) {
    throw new GpuLabError('SIZE_UNSUPPORTED', `Expected at most ${MAX_BLAS1_ELEMENTS} elements in \`${name}\` of blas1 but it holds ${buf.length}: cuBLAS counts them in int`, {
      argument: name,
      limit: MAX_BLAS1_ELEMENTS,
    });
  }
}

function lengthIs(name: string, buf: ElementBuffer, want: number, formula: string): void {
  if (buf.length !== want) throw new GpuLabError('LENGTH_MISMATCH', `Expected \`${name}\` to hold ${formula} = ${want} elements but it holds ${buf.length}`, { argument: name });
}

// The routine, its numbers, the buffers' dtypes and lengths, then where they live: every mistake that needs no
// device is named the same on a machine without one.
function blas1RawSpec(spec: Extract<CudaOpSpec, { op: 'blas1' }>, ordinal: number): Pick<RawSpec, 'variant' | 'buffers' | 'numbers'> {
  oneOf('routine', spec.routine, BLAS1_ROUTINES);
  const fp32 = ['fp32'];
  switch (spec.routine) {
    case 'saxpy': {
      const a = finiteNumber('a', spec.a);
      if (Math.abs(a) > FP32_MAX) throw invalid('a', `a number within the fp32 range (|a| ≤ ${FP32_MAX})`, a);
      const x = buffer('x', spec.x, fp32);
      const y = buffer('y', spec.y, fp32);
      const out = buffer('out', spec.out, fp32);
      sameLength(['x', 'y', 'out'], [x, y, out]);
      elementsFor('x', x);
      for (const [name, buf] of [['x', x], ['y', y], ['out', out]] as const) onDevice(name, buf, ordinal);
      return { variant: spec.routine, buffers: { x: x.raw, y: y.raw, out: out.raw }, numbers: { a } };
    }
    case 'sum': {
      const x = buffer('x', spec.x, fp32);
      const out = buffer('out', spec.out, fp32);
      lengthIs('out', out, 1, 'one total');
      elementsFor('x', x);
      onDevice('x', x, ordinal);
      onDevice('out', out, ordinal);
      return { variant: spec.routine, buffers: { x: x.raw, out: out.raw } };
    }
    case 'transpose': {
      const n = positiveInteger('n', spec.n, MAX_TRANSPOSE_ORDER);
      const input = buffer('in', spec.in, fp32);
      const out = buffer('out', spec.out, fp32);
      lengthIs('in', input, n * n, 'n·n');
      lengthIs('out', out, n * n, 'n·n');
      if (input.raw === out.raw) {
        throw new GpuLabError('INVALID_ARGUMENT', 'Expected `out` to be another buffer than `in`: cublasSgeam cannot transpose in place', { argument: 'out' });
      }
      onDevice('in', input, ordinal);
      onDevice('out', out, ordinal);
      return { variant: spec.routine, buffers: { in: input.raw, out: out.raw }, numbers: { n } };
    }
  }
}
